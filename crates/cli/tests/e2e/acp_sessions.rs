//! An editor's past threads (contract §31), each through a real client
//! written by others: the official ACP TypeScript SDK (tests/npm) and the
//! Python SDK `agent-client-protocol` (tests/python, strict pydantic
//! models). `session/list` gives the workspace's sessions whole,
//! `session/load` comes back in the mode the session used last — also when
//! it was set before the first prompt — and `session/set_mode` keeps the
//! session's MCP server running (its state survives). The clients are
//! `clients/acp_sessions.mjs` and `clients/acp_sessions.py`.

use crate::support::home::Home;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `program` on the client script `name` against the agenthub binary
/// with `args`, in the workspace; its JSON output.
pub(crate) fn client(home: &Home, mut program: Command, name: &str, args: &[&str]) -> Value {
    let output = program
        .arg(name)
        .arg(assert_cmd::cargo::cargo_bin("agenthub"))
        .arg(home.ws())
        .arg("--")
        .args(args)
        .env("HOME", home.base.join("home"))
        .env("XDG_CONFIG_HOME", home.base.join("home/.config"))
        .env("XDG_STATE_HOME", home.base.join("home/.local/state"))
        .current_dir(home.ws())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{name} failed: {}\n{}",
        String::from_utf8_lossy(&output.stderr),
        String::from_utf8_lossy(&output.stdout)
    );
    serde_json::from_slice(&output.stdout).unwrap_or_else(|_| {
        panic!(
            "{name} printed no JSON: {}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

/// When session `id`'s transcript was last written, as `session/list` says.
fn updated_at(home: &Home, id: &str) -> String {
    let modified = std::fs::metadata(home.transcript(id))
        .unwrap()
        .modified()
        .unwrap();
    agenthub::utc_time(modified)
}

fn toggle(id: &str) -> Value {
    json!({"content": null, "tool_calls": [{"id": id,
        "name": "mcp__everything__toggle-subscriber-updates", "arguments": {}}]})
}

#[test]
fn the_typescript_sdk_lists_loads_in_the_last_mode_and_keeps_the_mcp_server_across_set_mode() {
    let modules = root().join("tests/npm/node_modules");
    assert!(
        modules.join("@agentclientprotocol/sdk").exists(),
        "the ACP SDK is missing from {}: run the tests with `scripts/test`",
        modules.display()
    );
    let home = Home::new();
    let script = home.base.join("script.json");
    let turns = json!({"turns": [
        toggle("call_1"), {"content": "{{last_tool_result}}"},
        toggle("call_2"), {"content": "{{last_tool_result}}"},
    ]});
    std::fs::write(&script, turns.to_string()).unwrap();
    // Node resolves the SDK from the script's folder upwards.
    let place = home.base.join("client");
    std::fs::create_dir_all(&place).unwrap();
    std::os::unix::fs::symlink(&modules, place.join("node_modules")).unwrap();
    std::fs::copy(
        root().join("crates/cli/tests/e2e/clients/acp_sessions.mjs"),
        place.join("acp_sessions.mjs"),
    )
    .unwrap();
    let mut node = Command::new("node");
    node.env(
        "EVERYTHING_SERVER",
        modules.join(".bin/mcp-server-everything"),
    );
    let allow = "mcp__everything__toggle-subscriber-updates";
    let printed = client(
        &home,
        node,
        place.join("acp_sessions.mjs").to_str().unwrap(),
        &["--script", script.to_str().unwrap(), "--allow", allow],
    );
    let (with_server, early) = (
        printed["withServer"].as_str().unwrap(),
        printed["early"].as_str().unwrap(),
    );
    let results: Vec<Value> = home
        .records(with_server)
        .into_iter()
        .filter(|record| record["type"] == "assistant")
        .filter_map(|record| {
            record["message"]["content"][0]["text"]
                .as_str()
                .map(Value::from)
        })
        .collect();
    assert_eq!(
        results,
        vec![
            json!("Started simulated resource updated notifications for session undefined at a 5 second pace. Client will receive updates for any resources the it is subscribed to."),
            json!("Stopped simulated resource updates for session undefined"),
        ],
        "the server that answers after set_mode is the one that answered before"
    );
    let mut sessions = vec![
        json!({"sessionId": with_server, "cwd": home.ws(), "title": "toggle the updates",
            "updatedAt": updated_at(&home, with_server)}),
        json!({"sessionId": early, "cwd": home.ws(), "title": "a plan first",
            "updatedAt": updated_at(&home, early)}),
    ];
    // Most recently written first; two written in the same second may come
    // in either order.
    if printed["listed"]["sessions"][0]["sessionId"] == early {
        sessions.reverse();
    }
    assert_eq!(
        json!({
            "sessionCapabilities": printed["sessionCapabilities"],
            "earlyStop": printed["earlyStop"],
            "listed": printed["listed"],
            "loaded": printed["loaded"],
            "exits": printed["exits"],
        }),
        json!({
            "sessionCapabilities": {"list": {}},
            "earlyStop": "end_turn",
            "listed": {"sessions": sessions},
            "loaded": {with_server: "acceptEdits", early: "plan"},
            "exits": [0, 0],
        })
    );
    let first = &home.records(early)[0];
    assert_eq!(
        (first["type"].clone(), first["session_id"].clone()),
        (json!("session"), json!(early)),
        "a mode set before the first prompt leaves the session record first"
    );
}

#[test]
fn the_python_sdk_lists_the_session_and_loads_it_in_the_mode_set_before_its_first_prompt() {
    let site = root().join("tests/python/site");
    assert!(
        site.join("acp").is_dir(),
        "the Python ACP SDK is not installed in {}: run scripts/test (it installs \
         tests/python/requirements.txt)",
        site.display()
    );
    let home = Home::new();
    let script = home.base.join("script.json");
    std::fs::write(&script, json!({"turns": [{"content": "ok"}]}).to_string()).unwrap();
    let mut python = Command::new("python3");
    python.env("PYTHONPATH", &site);
    let printed = client(
        &home,
        python,
        root()
            .join("crates/cli/tests/e2e/clients/acp_sessions.py")
            .to_str()
            .unwrap(),
        &["--script", script.to_str().unwrap()],
    );
    let id = printed["first"]["sessionId"].as_str().unwrap();
    assert_eq!(
        printed,
        json!({
            "first": {"sessionCapabilities": {"list": {}}, "sessionId": id,
                "stopReason": "end_turn", "exit": 0},
            "second": {
                "listed": {"sessions": [{"sessionId": id, "cwd": home.ws(),
                    "title": "from python", "updatedAt": updated_at(&home, id)}]},
                "loadedMode": "dontAsk",
                "exit": 0,
            },
        })
    );
}
