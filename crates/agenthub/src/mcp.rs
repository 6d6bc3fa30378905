//! The MCP servers of a configuration (SPEC §14): the settings files'
//! `mcpServers` (the project's `.mcp.json` only when trusted), then each
//! `--mcp-config` file, with `${VAR}` expanded from the environment. Reading
//! the configuration starts nothing; [`crate::Assembly::start_mcp_servers`] does.

use crate::{Configuration, SetupError};
use agenthub_mcp::McpConfig;
use agenthub_settings::parse_project_file;

/// Every configured server of `configuration`, later files winning by name;
/// an entry that cannot be read is in [`McpConfig::problems`], not an error.
pub fn mcp_config(configuration: &Configuration) -> Result<McpConfig, SetupError> {
    let mut sections = configuration.settings().mcp_servers.clone();
    for file in &configuration.options().mcp_config {
        sections.push((file.clone(), parse_project_file(file)?));
    }
    Ok(McpConfig::from_sections(&sections, &|name| {
        std::env::var(name).ok()
    }))
}
