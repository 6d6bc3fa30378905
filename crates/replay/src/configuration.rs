//! What a replay needs of a configuration, and no more: its workspace,
//! policy engine and hooks, and a way to prepare a call as its tool registry
//! would. The facade's `Assembly` is one; this crate never builds one itself,
//! so it cannot depend on the crate that assembles.

use agenthub_hooks::HookRegistry;
use agenthub_policy::PolicyEngine;
use agenthub_tools::{PreparedCall, Workspace};
use serde_json::Value;

/// A configuration that recorded calls are decided again under.
pub trait Configuration: Sync {
    /// The workspace whose settings decided.
    fn workspace(&self) -> &Workspace;
    /// The policy engine a run would ask.
    fn policy(&self) -> &PolicyEngine;
    /// The hooks a run would call.
    fn hooks(&self) -> HookRegistry;
    /// The call as a run would prepare it (an MCP tool that is not running
    /// gets a stand-in), or why it cannot be.
    fn prepare(&self, id: &str, tool: &str, input: &Value) -> Result<PreparedCall, Unprepared>;
}

/// Why a recorded call cannot be prepared under a configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unprepared {
    /// No tool has its name (and it is not an MCP tool name).
    UnknownTool,
    /// The call is refused before permission; the text says why.
    Refused(String),
}
