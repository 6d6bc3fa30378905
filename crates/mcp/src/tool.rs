//! A server's tool as an AgentHub tool: named `mcp__<server>__<tool>`, the
//! server's input schema as given (compiled once by the registry), and an
//! effect of [`ToolEffect::SideEffects`], so it asks by default — a server's
//! own `readOnlyHint` is the server's claim, not the user's grant.

use crate::oversized::TooLong;
use crate::server::Server;
use crate::McpError;
use agenthub_tools::{
    DynamicTool, ToolCapabilities, ToolContext, ToolEffect, ToolError, ToolOutput,
};
use futures::future::BoxFuture;
use serde_json::Value;
use std::sync::Arc;

/// What every MCP tool's name starts with.
pub use agenthub_protocol::MCP_TOOL_PREFIX as TOOL_PREFIX;

/// The longest tool name the model providers accept.
const MAX_NAME_CHARS: usize = 64;

/// The registry name of `tool` of `server`, or why it cannot be one (a name
/// the model providers would refuse).
///
/// ```
/// assert_eq!(agenthub_mcp::tool_name("github", "create_issue"), Ok("mcp__github__create_issue".to_owned()));
/// assert!(agenthub_mcp::tool_name("github", "create issue").is_err());
/// ```
pub fn tool_name(server: &str, tool: &str) -> Result<String, String> {
    let name = agenthub_protocol::mcp_tool_name(server, tool);
    let valid_chars = |text: &str| {
        text.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    };
    if tool.is_empty() || !valid_chars(tool) {
        return Err(format!(
            "tool {tool:?} of MCP server {server} is skipped: a tool name may hold only letters, digits, '_' and '-'"
        ));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(format!(
            "tool {tool:?} of MCP server {server} is skipped: {name} is longer than {MAX_NAME_CHARS} characters"
        ));
    }
    Ok(name)
}

/// One tool of one server, registered in the tool registry.
pub(crate) struct McpTool {
    pub(crate) server: Arc<Server>,
    pub(crate) name: String,
    pub(crate) remote_name: String,
    pub(crate) description: String,
    pub(crate) schema: Value,
    /// The most characters of a result the model reads.
    pub(crate) output_cap: usize,
}

impl DynamicTool for McpTool {
    fn name(&self) -> &str {
        &self.name
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn input_schema(&self) -> &Value {
        &self.schema
    }

    fn effect(&self) -> ToolEffect {
        ToolEffect::SideEffects
    }

    fn capabilities(&self) -> ToolCapabilities {
        ToolCapabilities::none().with_output_cap(self.output_cap)
    }

    fn call(
        &self,
        input: Value,
        context: ToolContext,
    ) -> BoxFuture<'_, Result<ToolOutput, ToolError>> {
        Box::pin(async move {
            let answer = self
                .server
                .call(&self.remote_name, input, &context.cancel)
                .await;
            match answer {
                Ok(answer) => answer.into_tool_output(),
                // Too long to read, but saved: its start and where it is whole (§31).
                Err(McpError::Oversized {
                    bytes,
                    limit,
                    file: Ok(file),
                    ..
                }) => {
                    let too_long = TooLong {
                        tool: &self.name,
                        bytes,
                        limit,
                    };
                    let outputs = context.workspace.outputs_folder();
                    Ok(too_long
                        .cut_with_note(&file, outputs, self.output_cap)
                        .into())
                }
                Err(error) => Err(ToolError::new(error.to_string())),
            }
        })
    }
}
