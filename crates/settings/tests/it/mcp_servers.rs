//! `mcpServers` in settings files and the project's `.mcp.json` (contract §14):
//! kept raw with their file in precedence order; an untrusted workspace's
//! servers are set aside, never started.

use crate::support;

use agenthub_settings::*;
use serde_json::{json, Value};
use std::path::PathBuf;
use support::*;

fn servers(settings: &Settings) -> Vec<(PathBuf, Value)> {
    settings.mcp_servers.clone()
}

#[test]
fn servers_come_from_user_mcp_json_and_project_files_in_precedence_order() {
    let layout = layout();
    let mcp_json = layout.workspace.join(".mcp.json");
    write(
        &layout.user,
        &json!({"mcpServers": {"a": {"command": "user"}}}).to_string(),
    );
    write(
        &mcp_json,
        &json!({"mcpServers": {"a": {"command": "mcp-json"}}}).to_string(),
    );
    write(
        &layout.local(),
        &json!({"mcpServers": {"a": {"command": "local"}}}).to_string(),
    );
    assert_eq!(
        servers(&layout.load().unwrap()),
        vec![
            (layout.user.clone(), json!({"a": {"command": "user"}})),
            (mcp_json, json!({"a": {"command": "mcp-json"}})),
            (layout.local(), json!({"a": {"command": "local"}})),
        ]
    );
}

#[test]
fn an_untrusted_mcp_json_starts_nothing_and_each_server_is_set_aside() {
    let layout = layout();
    let mcp_json = layout.workspace.join(".mcp.json");
    write(
        &mcp_json,
        &json!({"mcpServers": {"files": {"command": "npx", "args": ["-y", "srv"]},
                               "web": {"type": "http", "url": "http://127.0.0.1:9/mcp"}}})
        .to_string(),
    );
    write(
        &layout.project(),
        &json!({"mcpServers": {"p": {"command": "./p.sh"}}}).to_string(),
    );
    let settings = Settings::load(&layout.sources(None), ProjectTrust::Untrusted).unwrap();
    let aside: Vec<(PathBuf, String)> = settings
        .set_aside
        .iter()
        .map(|entry| (entry.file.clone(), entry.item.clone()))
        .collect();
    assert_eq!(
        (servers(&settings), aside),
        (
            vec![],
            vec![
                (
                    layout.project(),
                    "MCP server p (./p.sh), not started".to_owned()
                ),
                (
                    mcp_json.clone(),
                    "MCP server files (npx -y srv), not started".to_owned()
                ),
                (
                    mcp_json,
                    "MCP server web (http://127.0.0.1:9/mcp), not started".to_owned()
                ),
            ]
        )
    );
}

#[test]
fn a_mcp_json_without_an_mcp_servers_object_is_an_error_naming_it() {
    let layout = layout();
    let mcp_json = layout.workspace.join(".mcp.json");
    write(&mcp_json, r#"{"servers": {}}"#);
    assert_eq!(
        layout.load().unwrap_err().to_string(),
        SettingsError::Invalid {
            file: mcp_json,
            path: "mcpServers".to_owned(),
            message: "the file has no mcpServers object".to_owned(),
        }
        .to_string()
    );
}

#[test]
fn mcp_servers_that_is_not_an_object_is_an_error() {
    let layout = layout();
    write(&layout.user, r#"{"mcpServers": []}"#);
    assert!(layout.load().is_err());
}
