//! MCP servers as AgentHub tools (contract §14). The configured servers — Claude
//! Code's `mcpServers` format, stdio, streamable HTTP, or `sdk` (a server
//! inside the Agent SDK application that started AgentHub, reached through
//! its [`SdkMcpBridge`]) — start in parallel
//! with a start-up timeout; each tool a server lists becomes a tool named
//! `mcp__<server>__<tool>` in the [`agenthub_tools::ToolRegistry`], with the
//! server's JSON Schema compiled once. A server that dies is restarted on its
//! next call; the servers' process groups are killed when [`McpServers`] is
//! dropped.
//!
//! The protocol itself is the official SDK's (`rmcp`); this crate never
//! hand-writes a message. It never decides whether a call may run either:
//! its tools pass the one pipeline (schema, hooks, permission, approval)
//! like any other, and an MCP tool asks by default ([`agenthub_tools::ToolEffect::SideEffects`]).

#![warn(missing_docs)]

mod config;
mod connection;
mod error;
mod expand;
mod line_cap;
mod output_limit;
mod oversized;
mod result;
mod sdk;
mod sdk_pump;
mod server;
mod servers;
mod shared;
mod stderr;
mod tool;

pub use config::{McpConfig, ServerConfig, Transport};
pub use error::{ConfigError, McpError};
pub use expand::{expand, ExpandError};
pub use output_limit::{
    max_output_tokens, BadOutputLimit, CHARS_PER_TOKEN, DEFAULT_MAX_MCP_OUTPUT_TOKENS,
};
pub use result::McpCallResult;
pub use sdk::{SdkBridgeError, SdkMcpBridge};
pub use servers::{
    BadTimeout, McpServers, ServerState, ServerStatus, Startup, Timeouts, ToolSummary,
};
pub use shared::SharedServers;
pub use tool::{tool_name, TOOL_PREFIX};
