//! `agenthub mcp`'s flags (`list`, `add`, `remove`, `serve`); the actions are
//! `mcp_command.rs`, `mcp_edit.rs` and `serve_command.rs`.

use super::flags::TrustFlag;
use clap::{Args, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct McpArgs {
    #[command(subcommand)]
    pub command: McpCommand,
}

#[derive(Debug, Subcommand)]
pub enum McpCommand {
    /// Start each configured server and show its state and tools (exit 1 when one failed).
    List(ListArgs),
    /// Add a server: `add NAME -- COMMAND ARGS…`, or `add --transport http NAME URL`.
    Add(AddArgs),
    /// Remove a server from the user settings or the project's .mcp.json.
    Remove(RemoveArgs),
    /// Serve AgentHub's tools (through hooks, rules and sandbox) and agenthub_run as an MCP server on stdio (takes run's flags).
    Serve(Box<super::RunArgs>),
}

#[derive(Debug, Args)]
pub struct ListArgs {
    /// Default: the current directory.
    #[arg(long, value_name = "DIR")]
    pub workspace: Option<PathBuf>,
    /// Also the servers of these files (`{"mcpServers": {...}}`).
    #[arg(long = "mcp-config", value_name = "FILE")]
    pub mcp_config: Vec<PathBuf>,
    #[command(flatten)]
    pub trust: TrustFlag,
}

/// Where `add` and `remove` edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Scope {
    /// The user settings file (`$XDG_CONFIG_HOME/agenthub/settings.json`).
    User,
    /// The workspace's `.mcp.json` (shared with the repository).
    Project,
}

/// How the server is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TransportArg {
    Stdio,
    Http,
}

#[derive(Debug, Args)]
pub struct AddArgs {
    /// The server's name (no "__"); its tools are named mcp__NAME__TOOL.
    pub name: String,
    /// stdio: the command and its arguments (after `--`); http: the URL.
    #[arg(required = true, num_args = 1..)]
    pub command: Vec<String>,
    /// stdio: COMMAND ARGS… is started; http: the one argument is the server's URL.
    #[arg(long, value_enum, default_value_t = TransportArg::Stdio)]
    pub transport: TransportArg,
    /// user: your settings file; project: the workspace's .mcp.json.
    #[arg(long, value_enum, default_value_t = Scope::User)]
    pub scope: Scope,
    /// An environment variable for a stdio server, KEY=VALUE (repeatable).
    #[arg(long = "env", short = 'e', value_name = "KEY=VALUE")]
    pub env: Vec<String>,
    /// A header for an http server, "Name: value" (repeatable).
    #[arg(long = "header", short = 'H', value_name = "NAME: VALUE")]
    pub headers: Vec<String>,
    /// Default: the current directory (for --scope project).
    #[arg(long, value_name = "DIR")]
    pub workspace: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct RemoveArgs {
    /// The server's name, as `agenthub mcp list` shows it.
    pub name: String,
    /// Default: wherever the server is (user settings first).
    #[arg(long, value_enum)]
    pub scope: Option<Scope>,
    /// Default: the current directory (for the project's .mcp.json).
    #[arg(long, value_name = "DIR")]
    pub workspace: Option<PathBuf>,
}
