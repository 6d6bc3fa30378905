//! `agenthub mcp list | add | remove` (contract §14; `serve` is `serve_command.rs`): the configured MCP servers
//! started as a run starts them, each with its state and tools; and edits of
//! the user settings' or the project's `.mcp.json` `mcpServers`.

use crate::args::mcp::{ListArgs, McpArgs, McpCommand};
use crate::error::CliError;
use agenthub::{Assembly, ServerState, ServerStatus};
use std::fmt::Write;

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
        mcp_config: args.mcp_config.into_iter().map(Into::into).collect(),
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
        .any(|status| matches!(status.state, ServerState::Failed(_)) && !served_by_an_sdk(status));
    servers.stop().await;
    // A server that did not start is a failure a script must see; an Agent
    // SDK application's own server cannot start here and is none.
    Ok(u8::from(failed))
}

/// Whether the server is an Agent SDK application's in-process one (`type:
/// "sdk"`), which only a session that application starts can reach.
fn served_by_an_sdk(status: &ServerStatus) -> bool {
    matches!(
        status.state,
        ServerState::Failed(agenthub::McpError::NoSdkApplication { .. })
    )
}

/// `NAME: STATE — COMMAND (FILE)`, then one line per tool.
fn render(status: &ServerStatus) -> String {
    let state = match &status.state {
        ServerState::Running => format!("running, {} tools", status.tools.len()),
        ServerState::Failed(_) if served_by_an_sdk(status) => {
            "not started: it runs inside an Agent SDK application and starts only in its sessions"
                .to_owned()
        }
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
