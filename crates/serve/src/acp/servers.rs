//! The MCP servers an editor hands a session (`mcpServers` of `session/new`
//! and `session/load`) join the session's configured ones through the same
//! door as `--mcp-config`: a `{"mcpServers": {...}}` file in Claude Code's
//! format, private to this process and removed with the session.

use super::schema::{McpServer, NameValue};
use serde_json::{json, Map, Value};
use std::io::Write;

/// The configuration file for `servers`; `None` when there are none. An SSE
/// server (not announced in the capabilities) is left out.
pub fn configuration_file(
    servers: &[McpServer],
) -> std::io::Result<Option<tempfile::NamedTempFile>> {
    let entries = configuration(servers);
    if entries.is_empty() {
        return Ok(None);
    }
    let text = json!({"mcpServers": entries}).to_string();
    let mut file = tempfile::Builder::new()
        .prefix("agenthub-acp-servers-")
        .suffix(".json")
        .tempfile()?;
    file.write_all(text.as_bytes())?;
    Ok(Some(file))
}

/// The servers as Claude Code's `mcpServers` entries, by name.
pub fn configuration(servers: &[McpServer]) -> Map<String, Value> {
    let mut entries = Map::new();
    for server in servers {
        match server {
            McpServer::Stdio(stdio) => {
                entries.insert(
                    stdio.name.clone(),
                    json!({"command": stdio.command, "args": stdio.args, "env": pairs(&stdio.env)}),
                );
            }
            McpServer::Remote(remote) if remote.transport == "http" => {
                entries.insert(
                    remote.name.clone(),
                    json!({"type": "http", "url": remote.url, "headers": pairs(&remote.headers)}),
                );
            }
            McpServer::Remote(_) => {}
        }
    }
    entries
}

fn pairs(list: &[NameValue]) -> Map<String, Value> {
    list.iter()
        .map(|pair| (pair.name.clone(), Value::String(pair.value.clone())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn servers(value: Value) -> Vec<McpServer> {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn stdio_and_http_servers_become_claude_code_entries_and_sse_is_left_out() {
        let given = servers(json!([
            {"name": "files", "command": "npx", "args": ["-y", "server"],
                "env": [{"name": "TOKEN", "value": "t"}]},
            {"type": "http", "name": "docs", "url": "https://example.test/mcp",
                "headers": [{"name": "Authorization", "value": "Bearer x"}]},
            {"type": "sse", "name": "old", "url": "https://example.test/sse", "headers": []}
        ]));
        assert_eq!(
            Value::Object(configuration(&given)),
            json!({
                "files": {"command": "npx", "args": ["-y", "server"], "env": {"TOKEN": "t"}},
                "docs": {"type": "http", "url": "https://example.test/mcp",
                    "headers": {"Authorization": "Bearer x"}}
            })
        );
    }

    #[test]
    fn no_servers_need_no_file() {
        assert!(configuration_file(&[]).unwrap().is_none());
    }
}
