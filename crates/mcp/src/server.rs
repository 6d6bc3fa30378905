//! One configured server over the session: started at session start,
//! restarted on the next call after it died, and each call bounded by
//! `MCP_TOOL_TIMEOUT` and the run's cancellation. Dropping a call's future
//! (timeout, Ctrl-C) makes the SDK send the protocol's `notifications/cancelled`.

use crate::connection::Connection;
use crate::line_cap::{Oversized, MAX_MESSAGE_BYTES};
use crate::result::McpCallResult;
use crate::{McpError, SdkMcpBridge, ServerConfig, Timeouts};
use rmcp::model::{CallToolRequestParams, Tool as RemoteTool};
use rmcp::service::ServiceError;
use serde_json::Value;
use std::sync::Arc;
use tokio::sync::{watch, Mutex};
use tokio_util::sync::CancellationToken;

/// A server and its current connection, if any. Dropping it drops the
/// connection, which kills the server's process group.
pub(crate) struct Server {
    pub(crate) config: ServerConfig,
    timeouts: Timeouts,
    /// The application serving an `sdk` server (its session's own).
    sdk_bridge: Option<Arc<dyn SdkMcpBridge>>,
    connection: Mutex<Option<Arc<Connection>>>,
}

impl Server {
    pub(crate) fn new(config: ServerConfig, timeouts: Timeouts) -> Server {
        Server {
            config,
            timeouts,
            sdk_bridge: None,
            connection: Mutex::new(None),
        }
    }

    /// The server reaching its application through `bridge` (an `sdk` server).
    pub(crate) fn with_sdk_bridge(mut self, bridge: Option<Arc<dyn SdkMcpBridge>>) -> Server {
        self.sdk_bridge = bridge;
        self
    }

    /// Starts the server now; its tools as listed, or why it did not start.
    pub(crate) async fn start(&self) -> Result<Vec<RemoteTool>, McpError> {
        let connection = self.connection().await?;
        Ok(connection.tools.clone())
    }

    /// Whether a live connection is open.
    pub(crate) async fn is_running(&self) -> bool {
        let slot = self.connection.lock().await;
        slot.as_ref()
            .is_some_and(|connection| connection.is_alive())
    }

    /// Kills the server's process group now, even while a call holds the
    /// connection (that call ends as "exited").
    pub(crate) async fn stop(&self) {
        if let Some(connection) = self.connection.lock().await.take() {
            connection.kill();
        }
    }

    /// The live connection, started (again) if there is none.
    async fn connection(&self) -> Result<Arc<Connection>, McpError> {
        let mut slot = self.connection.lock().await;
        if let Some(connection) = slot.as_ref().filter(|connection| connection.is_alive()) {
            return Ok(connection.clone());
        }
        slot.take();
        let connection = Arc::new(
            Connection::open(&self.config, self.timeouts.start, self.sdk_bridge.as_ref()).await?,
        );
        *slot = Some(connection.clone());
        Ok(connection)
    }

    /// Calls `tool` with `arguments`, starting the server first if it is not
    /// running; cancelled by `cancel` or after `MCP_TOOL_TIMEOUT`.
    pub(crate) async fn call(
        &self,
        tool: &str,
        arguments: Value,
        cancel: &CancellationToken,
    ) -> Result<McpCallResult, McpError> {
        let connection = tokio::select! {
            connection = self.connection() => connection?,
            () = cancel.cancelled() => return Err(McpError::Cancelled(self.config.name.clone())),
        };
        let mut params = CallToolRequestParams::new(tool.to_owned());
        params.arguments = match arguments {
            Value::Object(object) => Some(object),
            Value::Null => None,
            other => {
                return Err(McpError::Protocol {
                    server: self.config.name.clone(),
                    message: format!("tool arguments must be a JSON object, not {other}"),
                })
            }
        };
        let mut oversized = connection.oversized.clone();
        if let Some(receiver) = oversized.as_mut() {
            receiver.borrow_and_update();
        }
        let call = connection.client.call_tool(params);
        let answer = tokio::select! {
            answer = tokio::time::timeout(self.timeouts.call, call) => answer,
            () = cancel.cancelled() => return Err(McpError::Cancelled(self.config.name.clone())),
            found = next_oversized(oversized.as_mut()) => return Err(self.oversized(found)),
        };
        match answer {
            Ok(Ok(result)) => Ok(McpCallResult::from_result(result)),
            Ok(Err(error)) => Err(self.failed(&connection, error).await),
            Err(_) => Err(McpError::Timeout {
                server: self.config.name.clone(),
                tool: tool.to_owned(),
                seconds: self.timeouts.call.as_secs_f64(),
            }),
        }
    }

    /// The error of a call whose answer was too long to read.
    fn oversized(&self, found: Oversized) -> McpError {
        McpError::Oversized {
            server: self.config.name.clone(),
            bytes: found.bytes,
            limit: MAX_MESSAGE_BYTES,
            file: found.saved,
        }
    }

    /// What a failed call means: a closed transport is a server that exited
    /// (restarted on the next call); anything else is the server's error.
    async fn failed(&self, connection: &Arc<Connection>, error: ServiceError) -> McpError {
        match error {
            ServiceError::McpError(error) => McpError::Protocol {
                server: self.config.name.clone(),
                message: error.message.to_string(),
            },
            ServiceError::TransportClosed | ServiceError::TransportSend(_) => {
                connection.mark_dead();
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                McpError::Exited {
                    server: self.config.name.clone(),
                    stderr: connection.stderr.text(),
                }
            }
            other => McpError::Protocol {
                server: self.config.name.clone(),
                message: other.to_string(),
            },
        }
    }
}

/// The next message too long to read on this connection; never over HTTP
/// (only stdio is read through a [`crate::line_cap::LineCap`]) or once the
/// reader is gone.
async fn next_oversized(receiver: Option<&mut watch::Receiver<Option<Oversized>>>) -> Oversized {
    let Some(receiver) = receiver else {
        return std::future::pending().await;
    };
    loop {
        if receiver.changed().await.is_err() {
            return std::future::pending().await;
        }
        if let Some(found) = receiver.borrow_and_update().clone() {
            return found;
        }
    }
}
