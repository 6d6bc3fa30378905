//! `agenthub mcp list | add | remove` (contract §14; `serve` is `serve_command.rs`): the configured MCP servers
//! started as a run starts them, each with its state and tools; and edits of
//! the user settings' or the project's `.mcp.json` `mcpServers`.

use crate::error::CliError;
use crate::setup::TrustFlag;
use agenthub::{Assembly, ServerState, ServerStatus};
use clap::{Args, Subcommand, ValueEnum};
use std::fmt::Write;
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
    Add(crate::mcp_edit::AddArgs),
    /// Remove a server from the user settings or the project's .mcp.json.
    Remove(crate::mcp_edit::RemoveArgs),
    /// Serve AgentHub's tools (through hooks, rules and sandbox) and agenthub_run as an MCP server on stdio (takes run's flags).
    Serve(Box<crate::args::RunArgs>),
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

pub async fn run(args: McpArgs) -> Result<u8, CliError> {
    match args.command {
        McpCommand::List(args) => list(args).await,
        McpCommand::Add(args) => crate::mcp_edit::add(args),
        McpCommand::Remove(args) => crate::mcp_edit::remove(args),
        McpCommand::Serve(args) => crate::serve_command::mcp_serve(*args).await,
    }
}

async fn list(args: ListArgs) -> Result<u8, CliError> {
    let options = agenthub::Options {
        mcp_config: args.mcp_config,
        ..crate::setup::options(
            args.workspace,
            Default::default(),
            Default::default(),
            args.trust,
        )
    };
    let assembly = Assembly::load(&options)?.start_mcp_servers().await?;
    crate::setup::print_warnings(&assembly);
    let servers = assembly.mcp_servers();
    let text = if servers.statuses().is_empty() {
        "no MCP servers are configured (add one with `agenthub mcp add NAME -- COMMAND ARGS…`)\n"
            .to_owned()
    } else {
        servers.statuses().iter().map(render).collect()
    };
    crate::output::print_stdout(&text);
    let failed = servers
        .statuses()
        .iter()
        .any(|status| matches!(status.state, ServerState::Failed(_)));
    servers.stop().await;
    // A server that did not start is a failure a script must see.
    Ok(u8::from(failed))
}

/// `NAME: STATE — COMMAND (FILE)`, then one line per tool.
fn render(status: &ServerStatus) -> String {
    let state = match &status.state {
        ServerState::Running => format!("running, {} tools", status.tools.len()),
        ServerState::Failed(_) => "failed (see the warning above)".to_owned(),
    };
    let plugin = agenthub::plugins::owning_plugin(&status.origin)
        .map(|name| format!("plugin:{name} "))
        .unwrap_or_default();
    let mut text = format!(
        "{}: {state} — {} ({plugin}{})\n",
        status.name,
        status.command,
        status.origin.display()
    );
    for tool in &status.tools {
        let _ = writeln!(text, "  {}  {}", tool.name, tool.description);
    }
    text
}
