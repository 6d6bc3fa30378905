//! `agenthub mcp serve` offers what a session would offer (contract §33): a
//! built-in tool a deny rule names whole is withheld from the client's
//! `tools/list`, as it is from the model.

use crate::support::home::Home;
use serde_json::{json, Value};

#[test]
fn a_tool_a_deny_rule_names_whole_is_not_listed() {
    let home = Home::new();
    home.settings(json!({"permissions": {"deny": ["Write", "Bash"]}}));
    let requests = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
    ];
    let lines: String = requests
        .iter()
        .map(|request| format!("{request}\n"))
        .collect();
    let output = home
        .agenthub()
        .args(["mcp", "serve"])
        .write_stdin(lines)
        .output()
        .unwrap();
    let listed: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .filter(|reply| reply["id"] == 2)
        .flat_map(|reply| reply["result"]["tools"].as_array().unwrap().clone())
        .map(|tool| tool["name"].clone())
        .collect();
    assert_eq!(
        listed,
        [
            "Read",
            "Edit",
            "Glob",
            "Grep",
            "TodoWrite",
            "WebFetch",
            "agenthub_run"
        ]
        .map(|name| json!(name))
    );
}
