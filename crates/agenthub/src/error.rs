//! Why a configured agent could not be assembled. Every variant names the
//! file, flag or value at fault; none of them is ever turned into a weaker
//! configuration (a hook or rule that cannot be read is an error, not a skip).

use std::path::PathBuf;
use thiserror::Error;

/// A configuration that cannot become an agent.
#[derive(Debug, Error)]
pub enum SetupError {
    /// The workspace folder does not exist, cannot be read or is not a folder.
    #[error("workspace {path} {problem}")]
    Workspace {
        /// The folder as it was given.
        path: PathBuf,
        /// What is wrong with it.
        problem: String,
    },
    /// A settings file could not be read or understood.
    #[error(transparent)]
    Settings(#[from] agenthub_settings::SettingsError),
    /// The workspace's configuration files or the trust store cannot be read or written.
    #[error(transparent)]
    Trust(#[from] agenthub_settings::TrustError),
    /// A configuration file of the workspace cannot be read (`.mcp.json`).
    #[error("cannot read {}: {message}", file.display())]
    ProjectFile {
        /// The file.
        file: PathBuf,
        /// Why.
        message: String,
    },
    /// A permission rule, mode or directory is invalid.
    #[error(transparent)]
    Policy(#[from] agenthub_policy::ConfigError),
    /// A command hook (or its `if` condition) cannot be registered.
    #[error(transparent)]
    Hooks(#[from] agenthub_hooks::CommandHookError),
    /// A subagent definition file cannot be read or understood.
    #[error(transparent)]
    AgentDefinition(#[from] agenthub_core::DefinitionError),
    /// The script of the scripted model cannot be used.
    #[error(transparent)]
    Script(#[from] agenthub_model::ScriptError),
    /// The provider configuration is incomplete or invalid.
    #[error(transparent)]
    Provider(#[from] agenthub_model::ConfigError),
    /// The settings key `provider` names no provider.
    #[error("settings key \"provider\": {0}")]
    ProviderName(#[from] agenthub_model::UnknownProvider),
    /// The settings key `toolProtocol` names no tool protocol.
    #[error("settings key \"toolProtocol\": {0}")]
    ToolProtocolName(#[from] agenthub_model::UnknownToolProtocol),
    /// The transcript file cannot be created.
    #[error("cannot write transcript {path}: {error}")]
    Transcript {
        /// Where the transcript was to be written.
        path: PathBuf,
        /// Why it cannot be.
        error: std::io::Error,
    },
    /// `MCP_TIMEOUT` or `MCP_TOOL_TIMEOUT` is not a number of milliseconds.
    #[error(transparent)]
    McpTimeout(#[from] agenthub_mcp::BadTimeout),
    /// `MAX_MCP_OUTPUT_TOKENS` is not a positive whole number.
    #[error(transparent)]
    McpOutputLimit(#[from] agenthub_mcp::BadOutputLimit),
    /// `--json-schema` is neither inline JSON nor a readable file of JSON, or
    /// is not a valid JSON Schema.
    #[error("--json-schema {given}: {problem}")]
    JsonSchema {
        /// The value as given (inline JSON, shortened, or the file's name).
        given: String,
        /// What is wrong with it.
        problem: String,
    },
    /// `--max-budget-usd` is set, but the model's price is unknown, so the
    /// spending could not be counted.
    #[error(
        "--max-budget-usd needs the price of the model {model:?}, which AgentHub does not know: \
         add it to the settings as \"modelPrices\": {{\"{model}\": {{\"input\": USD, \"output\": USD}}}} (per million tokens)"
    )]
    UnknownPrice {
        /// The model whose price is missing.
        model: String,
    },
    /// A tool's input schema does not compile: a bug in that tool, not in the
    /// user's configuration.
    #[error("internal error: {0}")]
    Tool(#[from] agenthub_tools::SchemaError),
}

impl SetupError {
    /// Whether the fault is in this program rather than in what the user gave it.
    pub fn is_internal(&self) -> bool {
        matches!(self, SetupError::Tool(_))
    }
}
