//! What an editor is shown (contract §31) through a second client written by
//! others, the Python ACP SDK `agent-client-protocol` (strict pydantic models
//! parse every message): mode names, the custom commands, a TodoWrite list as
//! a `plan`, a Write's permission question with its diff and location, and
//! each call's kind. The client is `clients/acp_editor.py`.

use crate::acp_sessions::{client, root};
use crate::support::home::Home;
use serde_json::json;
use std::process::Command;

#[test]
fn the_python_sdk_is_shown_modes_commands_the_plan_and_a_writes_diff() {
    let site = root().join("tests/python/site");
    assert!(
        site.join("acp").is_dir(),
        "the Python ACP SDK is not installed in {}: run scripts/test",
        site.display()
    );
    let home = Home::new();
    home.write(
        "home/.claude/commands/greet.md",
        "---\ndescription: Greets\nargument-hint: NAME\n---\nSay hello to $ARGUMENTS\n",
    );
    let script = home.base.join("script.json");
    let todos =
        json!([{"content": "Write notes", "status": "in_progress", "activeForm": "Writing notes"}]);
    std::fs::write(
        &script,
        json!({"turns": [
            {"content": null, "tool_calls": [
                {"id": "t1", "name": "TodoWrite", "arguments": {"todos": todos}},
                {"id": "w1", "name": "Write", "arguments": {"file_path": "notes.txt", "content": "hello\n"}}
            ]},
            {"content": "done"}
        ]})
        .to_string(),
    )
    .unwrap();
    let mut python = Command::new("python3");
    python.env("PYTHONPATH", &site);
    let printed = client(
        &home,
        python,
        root()
            .join("crates/cli/tests/e2e/clients/acp_editor.py")
            .to_str()
            .unwrap(),
        &["--script", script.to_str().unwrap()],
    );
    let notes = home.ws().join("notes.txt");
    assert_eq!(
        printed,
        json!({
            "modes": [["default", "Default"], ["acceptEdits", "Accept Edits"], ["plan", "Plan Mode"],
                      ["dontAsk", "Don't Ask"], ["bypassPermissions", "Bypass Permissions"]],
            "commands": ["greet"],
            "plan": [{"sessionUpdate": "plan", "entries": [
                {"content": "Write notes", "priority": "medium", "status": "in_progress"}]}],
            "asked": [{
                "toolCall": {
                    "toolCallId": "w1", "kind": "edit", "status": "pending",
                    "title": "Write: notes.txt",
                    "content": [
                        {"type": "diff", "path": notes, "newText": "hello\n"},
                        {"type": "content", "content": {"type": "text",
                            "text": "needs approval (default): Write asks by default"}}
                    ],
                    "locations": [{"path": notes}],
                    "rawInput": {"file_path": "notes.txt", "content": "hello\n"}
                },
                "options": ["allow_once", "allow_always", "reject_once"]
            }],
            "calls": [
                {"title": "TodoWrite", "kind": "think", "locations": []},
                {"title": "Write: notes.txt", "kind": "edit", "locations": [{"path": notes}]}
            ],
            "stopReason": "end_turn",
            "exit": 0
        })
    );
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "hello\n");
}
