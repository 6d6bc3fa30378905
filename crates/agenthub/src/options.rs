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
    /// MCP configurations for this run only (`--mcp-config`), each
    /// `{"mcpServers": {...}}` in a file or given inline; their servers win
    /// over the settings' of the same name.
    pub mcp_config: Vec<McpConfigSource>,
    /// Start only the servers of [`Options::mcp_config`]: no user, project
    /// or plugin server (`--strict-mcp-config`).
    pub strict_mcp_config: bool,
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

/// One `--mcp-config`: a file holding `{"mcpServers": {...}}`, or that JSON
/// text itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum McpConfigSource {
    /// A `.mcp.json`-shaped file, read when the servers are configured.
    File(PathBuf),
    /// The `mcpServers` object of JSON given inline.
    Inline(serde_json::Value),
}

/// The text given to `--mcp-config` looks like JSON but is not an
/// `{"mcpServers": {...}}` object.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("--mcp-config {text}: {problem}")]
pub struct BadInlineMcpConfig {
    /// The text as given.
    pub text: String,
    /// What is wrong with it.
    pub problem: String,
}

impl McpConfigSource {
    /// The file named by `text`, or, when `text` starts with `{` (a file
    /// name never does in practice), the JSON itself, which must be an
    /// object with an `mcpServers` object, as in Claude Code.
    pub fn from_arg(text: &str) -> Result<McpConfigSource, BadInlineMcpConfig> {
        if !text.trim_start().starts_with('{') {
            return Ok(McpConfigSource::File(PathBuf::from(text)));
        }
        let bad = |problem: String| BadInlineMcpConfig {
            text: text.to_owned(),
            problem,
        };
        let value: serde_json::Value = serde_json::from_str(text)
            .map_err(|error| bad(format!("the inline JSON is malformed: {error}")))?;
        match value.get("mcpServers") {
            Some(servers) if servers.is_object() => Ok(McpConfigSource::Inline(servers.clone())),
            Some(_) => Err(bad(
                "mcpServers must be an object keyed by server name".to_owned()
            )),
            None => Err(bad("the inline JSON has no mcpServers object".to_owned())),
        }
    }
}

impl From<PathBuf> for McpConfigSource {
    fn from(file: PathBuf) -> McpConfigSource {
        McpConfigSource::File(file)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_mcp_config_not_starting_with_a_brace_is_a_file() {
        assert_eq!(
            McpConfigSource::from_arg("servers/mcp.json"),
            Ok(McpConfigSource::File(PathBuf::from("servers/mcp.json")))
        );
    }

    #[test]
    fn inline_json_is_its_mcp_servers_object() {
        assert_eq!(
            McpConfigSource::from_arg(r#" {"mcpServers": {"a": {"command": "x"}}}"#),
            Ok(McpConfigSource::Inline(json!({"a": {"command": "x"}})))
        );
    }

    #[test]
    fn malformed_inline_json_is_an_error_naming_the_text() {
        assert_eq!(
            McpConfigSource::from_arg(r#"{"mcpServers": {"#).map_err(|error| error.to_string()),
            Err(r#"--mcp-config {"mcpServers": {: the inline JSON is malformed: EOF while parsing an object at line 1 column 16"#.to_owned())
        );
    }

    #[test]
    fn inline_json_without_an_mcp_servers_object_is_an_error() {
        assert_eq!(
            McpConfigSource::from_arg(r#"{"servers": {}}"#).map_err(|error| error.problem),
            Err("the inline JSON has no mcpServers object".to_owned())
        );
    }
}
