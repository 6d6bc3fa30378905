//! Servers shared by the sessions of one process (the local batch): a server
//! whose configuration — name, command, arguments, environment, URL, headers
//! and the file it came from, all after `${VAR}` expansion — is the same for
//! several sessions starts once, and its outcome (tools, or why it failed)
//! is every such session's. Two hundred tasks with one user-level server pay
//! its start once, not two hundred times.
//!
//! It never shares a server whose configuration differs in anything: a
//! project's `.mcp.json` in another workspace, or a task's own settings,
//! give another origin and so their own server. The shared servers live
//! until the last [`SharedServers`] handle and the sessions' tools are
//! dropped; a server that dies is restarted by the next call, whichever
//! session makes it.

use crate::server::Server;
use crate::{McpError, ServerConfig, Timeouts};
use rmcp::model::Tool as RemoteTool;
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::OnceCell;

/// The servers started so far for this process's sessions, by configuration.
#[derive(Default)]
pub struct SharedServers {
    entries: Mutex<Vec<(ServerConfig, Arc<SharedStart>)>>,
}

/// One shared server and the outcome of its one start.
pub(crate) struct SharedStart {
    pub(crate) server: Arc<Server>,
    started: OnceCell<Result<Vec<RemoteTool>, McpError>>,
}

impl SharedServers {
    /// No server started yet.
    pub fn new() -> SharedServers {
        SharedServers::default()
    }

    /// The shared server of `config`, created (not started) on first use.
    pub(crate) fn entry(&self, config: &ServerConfig, timeouts: Timeouts) -> Arc<SharedStart> {
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((_, found)) = entries.iter().find(|(known, _)| known == config) {
            return found.clone();
        }
        let entry = Arc::new(SharedStart {
            server: Arc::new(Server::new(config.clone(), timeouts)),
            started: OnceCell::new(),
        });
        entries.push((config.clone(), entry.clone()));
        entry
    }

    /// How many distinct servers were asked for.
    pub fn len(&self) -> usize {
        self.entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// Whether no server was asked for yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl SharedStart {
    /// The server's tools, started by the first session that asks; the
    /// others wait for that start and share its outcome.
    pub(crate) async fn start(&self) -> Result<Vec<RemoteTool>, McpError> {
        self.started
            .get_or_init(|| self.server.start())
            .await
            .clone()
    }
}

impl std::fmt::Debug for SharedServers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedServers")
            .field("servers", &self.len())
            .finish()
    }
}
