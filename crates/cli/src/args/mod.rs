//! The command line (contract §9): the clap definitions and nothing else.
//! Each subcommand's flags live in a module here; `setup.rs` and the
//! commands turn them into options and actions. This module must never
//! import a command or `setup` (the dependency goes one way: into `args`).

pub mod agents;
pub mod batch;
pub mod claude_flags;
pub mod completions;
pub mod doctor;
pub mod flags;
pub mod fleet;
pub mod hooks;
pub mod mcp;
pub mod permissions;
pub mod plugin;
pub mod replay;
pub mod rewind;
pub mod sdk_flags;
pub mod sessions;
pub mod trust;

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "agenthub",
    version,
    about = "An agent runtime whose hooks and permissions you can trust"
)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Print mode, as Claude Code's: run the prompt (the argument, else
    /// stdin) non-interactively, as `agenthub run` does, and exit.
    #[arg(short = 'p', long = "print")]
    pub print: bool,
    /// With no command: the interactive session's flags (as `agenthub chat`),
    /// or `run`'s with `-p` or when stdin or stdout is not a terminal.
    #[command(flatten)]
    pub chat: RunArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// The interactive session (also `agenthub` alone on a terminal).
    Chat(RunArgs),
    /// Run one task non-interactively.
    Run(RunArgs),
    /// The source articles' hook demo, offline.
    Demo(DemoArgs),
    /// Command hooks: list them, or test them on a payload.
    Hooks(hooks::HooksArgs),
    /// Permissions: explain the decision on one tool call.
    Permissions(permissions::PermissionsArgs),
    /// Decide recorded sessions' tool calls again under other rules, modes or hooks; run nothing.
    Replay(replay::ReplayArgs),
    /// Sessions of this workspace: list them.
    Sessions(sessions::SessionsArgs),
    /// Trust the workspace's own configuration: show what it would do, then record it.
    Trust(trust::TrustArgs),
    /// MCP servers: list them (started, with their tools), add or remove one.
    Mcp(mcp::McpArgs),
    /// Serve the Agent Client Protocol on stdio, for editors such as Zed (takes run's flags).
    Acp(RunArgs),
    /// Subagent types: list them with their files.
    Agents(agents::AgentsArgs),
    /// Claude Code plugins: marketplaces, install, list, enable, disable, remove.
    Plugin(plugin::PluginArgs),
    /// Run a task list (JSONL) as independent sessions, N at a time.
    Batch(batch::BatchArgs),
    /// Serve AgentHub sessions to a Restate server (the fleet).
    Worker(fleet::WorkerArgs),
    /// A fleet task's session state: running, waiting for approval (with the asks), or done.
    Status(fleet::StatusArgs),
    /// Answer a fleet task's waiting ask.
    Approve(fleet::ApproveArgs),
    /// Checkpoints: list a session's points, or go back to one (files and/or conversation).
    Rewind(rewind::RewindArgs),
    /// Check this machine and workspace: sandbox, helpers, settings, trust, provider.
    Doctor(doctor::DoctorArgs),
    /// Print a shell completion script (e.g. `agenthub completions bash > /etc/bash_completion.d/agenthub`).
    Completions(completions::CompletionsArgs),
    /// Print the man page (roff), e.g. `agenthub man > ~/.local/share/man/man1/agenthub.1`.
    Man,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// The answer as text.
    Text,
    /// Claude Code's result message (type, subtype, is_error, result, usage,
    /// cost, denials), AgentHub's keys beside it.
    Json,
    /// Claude Code's message stream (JSONL): init, assistant and user
    /// messages as they happen, AgentHub's records, the result last.
    StreamJson,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProviderArg {
    Openai,
    Anthropic,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ToolProtocolArg {
    Native,
    React,
    Auto,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// The task (or use --prompt); `-` reads it from stdin, as does no task
    /// at all when stdin is not a terminal.
    #[arg(value_name = "TEXT", conflicts_with = "prompt")]
    pub positional_prompt: Option<String>,
    /// The task, as a flag (a one-word task needs it, or `--` before it).
    #[arg(long, value_name = "TEXT")]
    pub prompt: Option<String>,
    /// Use the scripted model (offline, no key).
    #[arg(long, value_name = "FILE")]
    pub script: Option<PathBuf>,
    /// Model for the real provider (else AGENTHUB_MODEL, then settings); `claude…` selects Anthropic.
    #[arg(long, value_name = "NAME", conflicts_with = "script")]
    pub model: Option<String>,
    /// Provider endpoint (else OPENAI_BASE_URL / ANTHROPIC_BASE_URL, then settings).
    #[arg(long, value_name = "URL", conflicts_with = "script")]
    pub base_url: Option<String>,
    /// Which API the provider speaks (default: guessed from the model name).
    #[arg(long, value_enum, conflicts_with = "script")]
    pub provider: Option<ProviderArg>,
    /// Native tool calls (default; settings toolProtocol); auto also takes calls the
    /// server returned as text; react for models without native calls.
    #[arg(long, value_enum)]
    pub tool_protocol: Option<ToolProtocolArg>,
    /// Default: the current directory.
    #[arg(long, value_name = "DIR")]
    pub workspace: Option<PathBuf>,
    /// MCP servers for this run only: a `{"mcpServers": {...}}` file, or that
    /// JSON inline (repeatable; as in Claude Code, takes every following
    /// argument up to the next flag: give the prompt before it or after `--`).
    #[arg(long = "mcp-config", value_name = "FILE|JSON", num_args = 1..)]
    pub mcp_config: Vec<String>,
    /// Start only the servers of --mcp-config: no user, project or plugin server.
    #[arg(long)]
    pub strict_mcp_config: bool,
    /// The most model requests in the run (default: settings maxTurns, else 100).
    #[arg(long, value_name = "N")]
    pub max_turns: Option<u32>,
    /// The most tokens one reply may have, sent as max_tokens (default:
    /// settings maxOutputTokens, else 16384).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), conflicts_with = "script")]
    pub max_output_tokens: Option<u32>,
    /// Once the model requests cost this many USD, make no further request
    /// (the run fails: "budget exceeded"); needs the model's price.
    #[arg(long, value_name = "USD", value_parser = parse_budget)]
    pub max_budget_usd: Option<f64>,
    /// The final answer must be JSON valid against this JSON Schema (inline
    /// JSON, or a file); json output adds structured_output.
    #[arg(long, value_name = "SCHEMA")]
    pub json_schema: Option<String>,
    /// Replaces the built-in instructions of the system prompt (the environment
    /// and the memory files AGENTS.md, CLAUDE.md still follow).
    #[arg(long, value_name = "TEXT")]
    pub system_prompt: Option<String>,
    /// Text added after the system prompt's instructions.
    #[arg(long, value_name = "TEXT")]
    pub append_system_prompt: Option<String>,
    /// text: the answer; json: Claude Code's result message (AgentHub's
    /// keys beside it); stream-json: Claude Code's message stream, the result last.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub output_format: OutputFormat,
    /// With stream-json: also each text delta as it streams (Claude Code's
    /// `stream_event` lines); no effect on other formats.
    #[arg(long)]
    pub include_partial_messages: bool,
    /// Accepted for Claude Code's command lines (which need it for
    /// stream-json with -p); AgentHub's output is already complete without it.
    #[arg(long)]
    pub verbose: bool,
    /// Where to write the JSONL transcript.
    #[arg(long, value_name = "FILE")]
    pub transcript: Option<PathBuf>,
    #[command(flatten)]
    pub settings: flags::SettingsFlags,
    #[command(flatten)]
    pub permissions: flags::PermissionFlags,
    #[command(flatten)]
    pub trust: flags::TrustFlag,
    #[command(flatten)]
    pub claude: claude_flags::ClaudeFlags,
    #[command(flatten)]
    pub sdk: sdk_flags::SdkFlags,
    /// Bash's sandbox: workspace-write (default), read-only or off (else settings sandbox.mode).
    #[arg(long, value_name = "MODE", value_parser = parse_sandbox_mode)]
    pub sandbox: Option<agenthub::SandboxMode>,
    /// Continue the session ID of this workspace (see `agenthub sessions
    /// list`); without an ID, pick one (the interactive session) or list them.
    #[arg(short = 'r', long, value_name = "ID", num_args = 0..=1, default_missing_value = "",
          conflicts_with_all = ["continue_latest", "transcript"])]
    pub resume: Option<String>,
    /// Continue the most recent session of this workspace.
    #[arg(short = 'c', long = "continue", conflicts_with = "transcript")]
    pub continue_latest: bool,
    /// With --resume or --continue: go on in a new session (a copy of the
    /// history), leaving the original untouched.
    #[arg(long)]
    pub fork_session: bool,
}

#[derive(Debug, Args)]
pub struct DemoArgs {
    /// A PreToolUse hook blocks the Echo call.
    #[arg(long)]
    pub block: bool,
    /// A PostToolUse hook fails after Echo ran.
    #[arg(long)]
    pub post_error: bool,
    /// A Stop hook forces one more model turn.
    #[arg(long)]
    pub stop_continue: bool,
    /// Where to write the JSONL transcript.
    #[arg(long, value_name = "FILE")]
    pub transcript: Option<PathBuf>,
}

/// `--max-budget-usd USD`: a number of dollars above 0.
fn parse_budget(text: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|usd| usd.is_finite() && *usd > 0.0)
        .ok_or_else(|| format!("{text:?} is not an amount of USD above 0 (e.g. 0.50)"))
}

/// `--sandbox MODE`: one of the three mode names.
fn parse_sandbox_mode(text: &str) -> Result<agenthub::SandboxMode, String> {
    text.parse()
        .map_err(|error: agenthub::crates::sandbox::UnknownMode| error.to_string())
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    /// Every argument of every command, as `command sub … --flag`, that has no help text.
    fn undocumented(command: &clap::Command, path: &str) -> Vec<String> {
        let mut missing: Vec<String> = command
            .get_arguments()
            .filter(|arg| !matches!(arg.get_id().as_str(), "help" | "version"))
            .filter(|arg| arg.get_help().is_none() && arg.get_long_help().is_none())
            .map(|arg| format!("{path} {}", arg.get_id()))
            .collect();
        for sub in command.get_subcommands() {
            missing.extend(undocumented(sub, &format!("{path} {}", sub.get_name())));
        }
        missing
    }

    #[test]
    fn every_flag_and_argument_of_every_command_has_help() {
        assert_eq!(
            undocumented(&Cli::command(), "agenthub"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
