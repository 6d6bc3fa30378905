//! Claude Code's name for an MCP server's tool, `mcp__<server>__<tool>`,
//! written and read in one place: the tool registry, permission rules
//! (`mcp__server`, `mcp__server__tool`), `mcp_tool` hooks, traces and
//! `permissions explain` all go through it, so none spells the prefix.

/// What every MCP tool's name starts with.
pub const MCP_TOOL_PREFIX: &str = "mcp__";

/// `mcp__<server>__<tool>`.
///
/// ```
/// assert_eq!(agenthub_protocol::mcp_tool_name("github", "create_issue"), "mcp__github__create_issue");
/// ```
pub fn mcp_tool_name(server: &str, tool: &str) -> String {
    format!("{MCP_TOOL_PREFIX}{server}__{tool}")
}

/// What follows the prefix when `name` is an MCP name (`github__create_issue`,
/// or `github` in the rule `mcp__github`); `None` for any other name.
pub fn mcp_name_rest(name: &str) -> Option<&str> {
    name.strip_prefix(MCP_TOOL_PREFIX)
}

/// The server `name` (an MCP tool's name) belongs to.
///
/// ```
/// use agenthub_protocol::mcp_server_of;
/// assert_eq!(mcp_server_of("mcp__github__create_issue"), Some("github"));
/// assert_eq!(mcp_server_of("Bash"), None);
/// ```
pub fn mcp_server_of(name: &str) -> Option<&str> {
    mcp_name_rest(name)
        .and_then(|rest| rest.split_once("__"))
        .map(|(server, _)| server)
}

/// Whether `name` is a tool of MCP server `server`.
pub fn is_tool_of_mcp_server(name: &str, server: &str) -> bool {
    mcp_name_rest(name)
        .and_then(|rest| rest.strip_prefix(server))
        .is_some_and(|rest| rest.starts_with("__"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_belongs_to_its_own_server_only() {
        let table = [
            ("mcp__github__create_issue", "github", true),
            ("mcp__github__create_issue", "git", false),
            ("mcp__githubx__create_issue", "github", false),
            ("mcp__github", "github", false),
            ("Bash", "github", false),
        ];
        for (name, server, expected) in table {
            assert_eq!(
                is_tool_of_mcp_server(name, server),
                expected,
                "{name} {server}"
            );
        }
    }
}
