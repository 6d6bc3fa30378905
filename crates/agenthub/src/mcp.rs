//! The MCP servers of a configuration (contract §14): the settings files'
//! `mcpServers` (the project's `.mcp.json` only when trusted), then each
//! `--mcp-config` file, with `${VAR}` expanded from the environment. Reading
//! the configuration starts nothing; [`crate::Assembly::start_mcp_servers`] does.

use crate::{Configuration, SetupError};
use agenthub_hooks::{McpHookCallError, McpToolCaller};
use agenthub_mcp::McpConfig;
use agenthub_settings::parse_project_file;

/// Every configured server of `configuration`, later files winning by name;
/// an entry that cannot be read is in [`McpConfig::problems`], not an error.
pub fn mcp_config(configuration: &Configuration) -> Result<McpConfig, SetupError> {
    let mut sections = configuration.settings().mcp_servers.clone();
    for plugin in configuration.plugins() {
        // A plugin's servers that cannot be read: the plugin's other parts still join.
        if let Ok(Some(section)) = plugin.mcp_servers() {
            sections.push(section);
        }
    }
    for file in &configuration.options().mcp_config {
        sections.push((file.clone(), parse_project_file(file)?));
    }
    Ok(McpConfig::from_sections(&sections, &|name| {
        std::env::var(name).ok()
    }))
}

/// The started servers answering `mcp_tool` hooks (docs/hooks.md,
/// Handler types): the hook's call starts or restarts the server as a
/// tool call would, and the tool's text is what the hook reads as stdout.
pub(crate) struct ServersAnswerHooks(pub(crate) std::sync::Arc<agenthub_mcp::McpServers>);

impl McpToolCaller for ServersAnswerHooks {
    fn call<'a>(
        &'a self,
        server: &'a str,
        tool: &'a str,
        arguments: serde_json::Value,
    ) -> futures::future::BoxFuture<'a, Result<serde_json::Value, McpHookCallError>> {
        Box::pin(async move {
            let cancel = tokio_util::sync::CancellationToken::new();
            match self.0.call_tool(server, tool, arguments, cancel).await {
                Ok(result) if result.is_error => Err(McpHookCallError::ToolFailed(result.text)),
                Ok(result) => Ok(serde_json::Value::String(result.text)),
                Err(error) => Err(McpHookCallError::NotCalled(Box::new(error))),
            }
        })
    }
}
