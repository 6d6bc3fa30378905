//! What hooks need from the application that assembles them: the settings'
//! `env`, the store SessionStart exports go to (`CLAUDE_ENV_FILE`), the model
//! that answers `prompt` hooks, the caller of `mcp_tool` hooks and the
//! application that answers `callback` hooks. Each is
//! optional; a hook whose service is missing counts as "could not run".

use super::callback::HookCallbackCaller;
use super::mcp::McpToolCaller;
use agenthub_model::ChatModel;
use agenthub_tools::ProcessEnv;
use std::sync::Arc;

/// The services hooks use; cloned into every hook.
#[derive(Clone, Default)]
pub struct HookServices {
    /// Variables every command hook gets (the settings' `env`).
    pub env: Vec<(String, String)>,
    /// Where `export NAME=value` lines of `CLAUDE_ENV_FILE` go: the
    /// variables of later Bash calls.
    pub process_env: ProcessEnv,
    /// The model `prompt` hooks ask.
    pub model: Option<Arc<dyn ChatModel>>,
    /// Calls the tools of configured MCP servers for `mcp_tool` hooks.
    pub mcp: Option<Arc<dyn McpToolCaller>>,
    /// Runs the application's hook callbacks for `callback` hooks (the
    /// Agent SDK's `hook_callback`).
    pub callbacks: Option<Arc<dyn HookCallbackCaller>>,
}

impl std::fmt::Debug for HookServices {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HookServices")
            .field("env", &self.env)
            .field("model", &self.model.is_some())
            .field("mcp", &self.mcp.is_some())
            .field("callbacks", &self.callbacks.is_some())
            .finish_non_exhaustive()
    }
}
