//! `agenthub acp`: AgentHub as an Agent Client Protocol agent on stdio
//! (contract §23), so that editors such as Zed drive it. The sessions are
//! `run`'s — the same settings, trust, hooks, rules, sandbox and transcript
//! — and the editor's permission dialog is the very ask `run` would make.
//!
//! This front door adds only its own I/O: the JSON-RPC lines (`rpc.rs`),
//! the ACP messages (`schema.rs`), the methods (`dispatch.rs`, their
//! answers in `replies.rs`), the updates
//! it streams (`updates.rs`, `shown.rs`) and the editor's approver
//! (`approver.rs`). Stdout carries protocol messages only; the audit lines
//! go to stderr.

mod approver;
mod dispatch;
mod replies;
pub mod rpc;
mod schema;
mod servers;
mod session;
mod shown;
mod updates;

use crate::args::RunArgs;
use crate::error::CliError;
use dispatch::AcpAgent;
use rpc::{Incoming, Peer};
pub use session::Flags;
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// Serves ACP on stdin and stdout until the client closes stdin.
pub async fn run(args: RunArgs) -> Result<u8, CliError> {
    let flags = flags(&args, ServedBy::Acp)?;
    let (peer, mut lines) = Peer::new();
    let writer = tokio::spawn(async move {
        let mut stdout = tokio::io::stdout();
        while let Some(line) = lines.recv().await {
            let written = async {
                stdout.write_all(line.as_bytes()).await?;
                stdout.write_all(b"\n").await?;
                stdout.flush().await
            };
            if written.await.is_err() {
                break;
            }
        }
    });
    let agent = Arc::new(AcpAgent::new(flags, peer.clone()));
    let mut input = BufReader::new(tokio::io::stdin()).lines();
    loop {
        let line = match input.next_line().await {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(error) => {
                crate::terminal::eprintln_neutral!("agenthub acp: cannot read stdin: {error}");
                break;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        take(&agent, &peer, &line);
    }
    agent.close();
    drop(agent);
    drop(peer);
    // The sessions end (SessionEnd hooks) and the last lines are written.
    let _ = tokio::time::timeout(std::time::Duration::from_secs(5), writer).await;
    Ok(0)
}

/// Acts on one line: a request runs on its own task (a prompt may take
/// long, and the answers to our questions must still be read meanwhile).
fn take(agent: &Arc<AcpAgent>, peer: &Peer, line: &str) {
    match rpc::parse(line) {
        Err(rejection) => peer.respond(rejection.id, Err(rejection.error)),
        Ok(Incoming::Response { id, outcome }) => peer.answered(&id, outcome),
        Ok(Incoming::Notification { method, params }) => agent.notification(&method, params),
        Ok(Incoming::Request { id, method, params }) => {
            let agent = agent.clone();
            tokio::spawn(async move { agent.answer(id, &method, params).await });
        }
    }
}

/// `run`'s flags as every session's options (for ACP the workspace is
/// each session's `cwd`); `mcp serve` uses them too.
pub fn flags(args: &RunArgs, door: ServedBy) -> Result<Flags, CliError> {
    refuse_unserved(args, door)?;
    let options = crate::setup::run_options(args)?;
    Ok(Flags {
        options,
        model: crate::setup::model_options(args),
        max_turns: args.max_turns,
    })
}

/// The front door serving sessions to another program, for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServedBy {
    /// `agenthub acp`: an editor's sessions.
    Acp,
    /// `agenthub mcp serve`: another agent's calls.
    McpServe,
}

/// Run's flags that mean nothing when a client drives the sessions are
/// refused, not ignored: the client sends the prompts, picks or loads the
/// sessions and reads the protocol's own output.
fn refuse_unserved(args: &RunArgs, door: ServedBy) -> Result<(), CliError> {
    let (name, sessions) = match door {
        ServedBy::Acp => (
            "agenthub acp",
            "the editor sends prompts and loads sessions (session/load)",
        ),
        ServedBy::McpServe => (
            "agenthub mcp serve",
            "each agenthub_run call is a new session with its own prompt",
        ),
    };
    let given = [
        (
            args.positional_prompt.is_some() || args.prompt.is_some(),
            "a prompt",
        ),
        (args.transcript.is_some(), "--transcript"),
        (args.resume.is_some(), "--resume"),
        (args.continue_latest, "--continue"),
        (args.fork_session, "--fork-session"),
        (
            args.output_format != crate::args::OutputFormat::Text,
            "--output-format",
        ),
    ];
    match given.iter().find(|(present, _)| *present) {
        Some((_, flag)) => Err(CliError::Usage(format!(
            "{name} does not take {flag}: {sessions}, and the protocol is its output"
        ))),
        None => Ok(()),
    }
}
