//! MCP servers that live inside the application that started AgentHub: the
//! Claude Agent SDKs' in-process servers (TypeScript `createSdkMcpServer`,
//! Python `create_sdk_mcp_server`), configured as `{"type": "sdk"}` entries.
//! Each JSON-RPC message for such a server travels to the application and
//! back through an [`SdkMcpBridge`] (the CLI's `mcp_message` control
//! request); this module only names that seam.
//!
//! It never speaks the Agent SDK's control protocol itself: the front end
//! that reads the SDK's stdin and writes its stdout implements the bridge.

use futures::future::BoxFuture;
use serde_json::Value;
use thiserror::Error;

/// The application's side of its in-process MCP servers: the front end
/// that the Agent SDK started implements it over its control channel.
///
/// # Example
///
/// A bridge that answers every request with an empty result (a real one
/// sends an `mcp_message` control request and returns its `mcp_response`):
///
/// ```
/// use agenthub_mcp::{SdkBridgeError, SdkMcpBridge};
/// use futures::future::BoxFuture;
/// use serde_json::{json, Value};
///
/// struct Empty;
///
/// impl SdkMcpBridge for Empty {
///     fn send<'a>(&'a self, _server: &'a str, message: Value)
///         -> BoxFuture<'a, Result<Value, SdkBridgeError>> {
///         Box::pin(async move {
///             Ok(json!({"jsonrpc": "2.0", "id": message["id"], "result": {}}))
///         })
///     }
/// }
/// ```
pub trait SdkMcpBridge: Send + Sync {
    /// Delivers one JSON-RPC message to the application's server `server`; Ok is its JSON-RPC answer.
    fn send<'a>(
        &'a self,
        server: &'a str,
        message: Value,
    ) -> BoxFuture<'a, Result<Value, SdkBridgeError>>;
}

/// Why a message did not reach the application's server, or came back
/// without an answer. A request that fails so fails its call with this
/// text; it never leaves the call waiting.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SdkBridgeError {
    /// The application answered the control request with an error.
    #[error("the application answered with an error: {0}")]
    Application(String),
    /// The channel to the application is gone (its stdin or stdout closed).
    #[error("the channel to the application is closed")]
    Closed,
}

/// What `mcp list` and error messages show for an `sdk` server.
pub(crate) const SDK_DESCRIPTION: &str = "sdk, served by the application";
