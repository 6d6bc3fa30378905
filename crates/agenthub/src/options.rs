//! What an embedder (or the CLI, from its flags) says about the agent it
//! wants. Plain data: no `clap` type and no terminal here; [`crate::Configuration`]
//! and [`crate::Assembly`] turn it into a ready agent.

use crate::TrustChoice;
use agenthub_model::{ProviderKind, ToolProtocol};
use agenthub_policy::ModeFlag;
use std::path::PathBuf;

/// Where the agent works and which configuration applies to it.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The workspace folder; `None` is the current directory.
    pub workspace: Option<PathBuf>,
    /// Settings files applied after the user, project and local layers, in
    /// order (`--settings`, repeatable); each must exist. A value that is
    /// JSON text (`{…}`) is the settings themselves.
    pub settings_files: Vec<PathBuf>,
    /// Skip Claude Code's own settings files (`~/.claude/settings.json`,
    /// `.claude/settings*.json`): `--no-claude-settings`.
    pub no_claude_settings: bool,
    /// Rules and mode given for this run only, on top of the settings files.
    pub permissions: PermissionOptions,
    /// Whether the workspace's own configuration files may act (contract §11).
    pub trust: TrustChoice,
    /// Replaces the system prompt's built-in instructions (`--system-prompt`);
    /// wins over the settings' `systemPrompt`. The environment and the memory
    /// files still follow.
    pub system_prompt: Option<String>,
    /// Added after the system prompt's instructions (`--append-system-prompt`);
    /// wins over the settings' `appendSystemPrompt`.
    pub append_system_prompt: Option<String>,
    /// MCP configuration files for this run only (`--mcp-config`), each
    /// `{"mcpServers": {...}}`; their servers win over the settings' of the
    /// same name.
    pub mcp_config: Vec<PathBuf>,
    /// Bash's sandbox mode for this run (`--sandbox`); wins over the
    /// settings' `sandbox.mode`. `None`: the settings, else `workspace-write`.
    pub sandbox: Option<agenthub_sandbox::SandboxMode>,
    /// Once the session's model requests cost this many USD, no further
    /// request is made (`--max-budget-usd`); the model's price must be known.
    pub max_budget_usd: Option<f64>,
    /// The JSON Schema every final answer must satisfy (`--json-schema`;
    /// read it with [`crate::read_answer_schema`]).
    pub json_schema: Option<std::sync::Arc<agenthub_core::AnswerSchema>>,
}

impl Options {
    /// Options for `workspace`, with every other value at its default.
    pub fn for_workspace(workspace: impl Into<PathBuf>) -> Options {
        Options {
            workspace: Some(workspace.into()),
            ..Options::default()
        }
    }
}

/// Permission rules and mode for one run (`--allow`, `--deny`, `--permission-mode`).
#[derive(Debug, Clone, Default)]
pub struct PermissionOptions {
    /// Extra allow rules in Claude Code's syntax, e.g. `Bash(git status:*)`.
    pub allow: Vec<String>,
    /// Extra deny rules, e.g. `Bash(curl *)`.
    pub deny: Vec<String>,
    /// `default`, `acceptEdits`, `plan`, `dontAsk` or `bypassPermissions`,
    /// parsed where it was given (`"plan".parse()`); `None` keeps the settings
    /// files' `defaultMode`. A name that did not parse is reported when the
    /// policy is built, after the settings files' own errors ([`ModeFlag`]).
    ///
    /// [`ModeFlag`]: agenthub_policy::ModeFlag
    pub mode: Option<ModeFlag>,
    /// Folders the session may read and edit besides the workspace
    /// (`--add-dir`), added to `permissions.additionalDirectories`; each
    /// canonical and existing (the caller checks).
    pub additional_directories: Vec<PathBuf>,
}

/// Which model the agent talks to.
#[derive(Debug, Clone)]
pub enum ModelOptions {
    /// Replays a script file: offline, no key.
    Scripted {
        /// The script (contract §9's script file).
        script: PathBuf,
        /// Native tool calls, or the text ReAct protocol.
        protocol: ToolProtocol,
    },
    /// A real provider; each value given here wins over the environment and
    /// the settings files.
    Provider(ProviderOptions),
}

impl Default for ModelOptions {
    fn default() -> Self {
        ModelOptions::Provider(ProviderOptions::default())
    }
}

/// The provider values given for this run (flags); unset values come from the
/// environment, then the settings files.
#[derive(Debug, Clone, Default)]
pub struct ProviderOptions {
    /// The model's name; `claude…` selects Anthropic unless `provider` says otherwise.
    pub model: Option<String>,
    /// Which API the provider speaks.
    pub provider: Option<ProviderKind>,
    /// The provider's endpoint.
    pub base_url: Option<String>,
    /// Native tool calls, or the text ReAct protocol.
    pub tool_protocol: Option<ToolProtocol>,
    /// The most tokens one reply may have (`--max-output-tokens`); wins
    /// over the settings' `maxOutputTokens`.
    pub max_output_tokens: Option<u32>,
}
