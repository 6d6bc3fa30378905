//! AgentHub as an Agent Client Protocol agent (contract §23; the CLI's
//! `agenthub acp` on stdio), so that editors such as Zed drive it. The sessions are
//! `run`'s — the same settings, trust, hooks, rules, sandbox and transcript
//! — and the editor's permission dialog is the very ask `run` would make.
//!
//! This front door adds only its own I/O: the JSON-RPC lines (`rpc.rs`),
//! the ACP messages (`schema.rs`), the methods (`dispatch.rs`, their
//! answers in `replies.rs`), the updates
//! it streams (`updates.rs`, `shown.rs`, `shown_call.rs`), the commands it
//! offers (`commands.rs`) and the editor's approver (`approver.rs`). The
//! writer carries protocol messages only; the audit lines go to the host's
//! observers.

mod approver;
mod commands;
mod dispatch;
mod list;
mod plan;
mod replies;
pub mod rpc;
mod schema;
mod servers;
mod session;
mod shown;
mod shown_call;
mod updates;

use crate::{Flags, Host, ServeError};
use dispatch::AcpAgent;
use rpc::{Incoming, Peer};
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};

/// Serves ACP on `input` and `output` until the client closes `input`; the
/// sessions then end (SessionEnd hooks) and the last lines are written. An
/// input that cannot be read ends them too, and is the error.
pub async fn serve<R, W>(
    flags: Flags,
    host: Arc<dyn Host>,
    input: R,
    mut output: W,
) -> Result<(), ServeError>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (peer, mut lines) = Peer::new();
    let writer = tokio::spawn(async move {
        while let Some(line) = lines.recv().await {
            let written = async {
                output.write_all(line.as_bytes()).await?;
                output.write_all(b"\n").await?;
                output.flush().await
            };
            if written.await.is_err() {
                break;
            }
        }
    });
    let agent = Arc::new(AcpAgent::new(flags, host, peer.clone()));
    let mut input = BufReader::new(input).lines();
    let mut failed = None;
    loop {
        let line = match input.next_line().await {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(error) => {
                failed = Some(ServeError::Input(error));
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
    failed.map_or(Ok(()), Err)
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
