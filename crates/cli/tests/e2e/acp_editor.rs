//! What an editor shows of `agenthub acp` (contract §31), through the
//! official ACP TypeScript SDK (`clients/acp_editor_client.mjs`), every
//! message checked against the SDK's own schema: the modes by name, the
//! custom commands and skills offered after `/` (and a command typed there
//! expanded), each call's kind and files, a Write's and an Edit's diff in the
//! `tool_call` and in the permission question, Bash's command in its question.

use crate::editors::client;
use crate::support::history::history_records;
use crate::support::home::Home;
use serde_json::{json, Value};
use std::path::Path;

fn call(id: &str, name: &str, arguments: Value) -> Value {
    json!({"content": null, "tool_calls": [{"id": id, "name": name, "arguments": arguments}]})
}

/// A session with a user command and a user skill, a file to read and
/// edit, and a script that reads, writes, edits and runs a command.
fn editor_home() -> (Home, String) {
    let home = Home::new();
    home.write(
        "home/.claude/commands/review.md",
        "---\ndescription: Review a file\nargument-hint: <file>\n---\nReview $ARGUMENTS with care.\n",
    );
    home.write(
        "home/.claude/skills/pdf/SKILL.md",
        "---\nname: pdf\ndescription: Reads PDF files\n---\nUse pdftotext.\n",
    );
    home.write("ws/notes.txt", "one\ntwo\nthree\n");
    let script = home.base.join("script.json");
    let turns = json!({"turns": [
        call("call_1", "Read", json!({"file_path": "notes.txt", "offset": 2})),
        call("call_2", "Write", json!({"file_path": "new.txt", "content": "fresh\n"})),
        call("call_3", "Edit", json!({"file_path": "notes.txt", "old_string": "two", "new_string": "2"})),
        call("call_4", "Bash", json!({"command": "printf hello"})),
        {"content": "done"}
    ]});
    std::fs::write(&script, turns.to_string()).unwrap();
    (home, script.display().to_string())
}

fn text(text: &str) -> Value {
    json!({"type": "content", "content": {"type": "text", "text": text}})
}

fn status(id: &str, status: &str) -> Value {
    json!({"sessionUpdate": "tool_call_update", "toolCallId": id, "status": status})
}

fn done(id: &str, content: Value) -> Value {
    json!({"sessionUpdate": "tool_call_update", "toolCallId": id, "status": "completed", "content": content})
}

/// A permission question as the editor received it.
fn asked(call: &Value, content: Value) -> Value {
    let mut shown = call.clone();
    let fields = shown.as_object_mut().unwrap();
    fields.remove("sessionUpdate");
    fields.insert("content".to_owned(), content);
    json!({"asked": shown, "options": ["allow_once", "allow_always", "reject_once"]})
}

fn diff(path: &Path, old: Option<&str>, new: &str) -> Value {
    json!({"type": "diff", "path": path, "oldText": old, "newText": new})
}

#[test]
fn an_editor_is_shown_modes_commands_kinds_files_diffs_and_commands_through_the_acp_sdk() {
    let (home, script) = editor_home();
    let printed = client(&home, "acp_editor_client.mjs", &["--script", &script]);
    let ws = home.ws();
    let (notes, new) = (ws.join("notes.txt"), ws.join("new.txt"));
    let commands = json!({"sessionUpdate": "available_commands_update", "availableCommands": [
        {"name": "review", "description": "Review a file", "input": {"hint": "<file>"}},
        {"name": "pdf", "description": "Reads PDF files"},
    ]});
    let read = json!({"sessionUpdate": "tool_call", "toolCallId": "call_1", "title": "Read: notes.txt",
        "kind": "read", "status": "pending", "locations": [{"path": notes, "line": 2}],
        "rawInput": {"file_path": "notes.txt", "offset": 2}});
    let new_diff = diff(&new, None, "fresh\n");
    let write = json!({"sessionUpdate": "tool_call", "toolCallId": "call_2", "title": "Write: new.txt",
        "kind": "edit", "status": "pending", "content": [new_diff], "locations": [{"path": new}],
        "rawInput": {"file_path": "new.txt", "content": "fresh\n"}});
    let notes_diff = diff(&notes, Some("one\ntwo\nthree\n"), "one\n2\nthree\n");
    let edit = json!({"sessionUpdate": "tool_call", "toolCallId": "call_3", "title": "Edit: notes.txt",
        "kind": "edit", "status": "pending", "content": [notes_diff], "locations": [{"path": notes}],
        "rawInput": {"file_path": "notes.txt", "old_string": "two", "new_string": "2"}});
    let command = text("```sh\nprintf hello\n```");
    let bash = json!({"sessionUpdate": "tool_call", "toolCallId": "call_4", "title": "Bash: printf hello",
        "kind": "execute", "status": "pending", "content": [command],
        "rawInput": {"command": "printf hello"}});
    let asks = |tool: &str| text(&format!("needs approval (default): {tool} asks by default"));
    let mode = |id: &str, name: &str, description: &str| json!({"id": id, "name": name, "description": description});
    let session_id = printed["sessionId"].as_str().unwrap_or_default().to_owned();
    assert_eq!(
        printed,
        json!({
            "sessionId": session_id,
            "modes": {"currentModeId": "default", "availableModes": [
                mode("default", "Default", "Reads run; anything with side effects asks"),
                mode("acceptEdits", "Accept Edits", "Edits inside the workspace run without asking"),
                mode("plan", "Plan Mode", "Nothing with side effects runs"),
                mode("dontAsk", "Don't Ask", "Nobody is asked: what would ask is denied"),
                mode("bypassPermissions", "Bypass Permissions",
                    "Nothing asks; deny rules and the boundary still hold"),
            ]},
            "opening": [commands],
            "stopReason": "end_turn",
            "turn": [
                read,
                status("call_1", "in_progress"),
                done("call_1", json!([text("     2\ttwo\n     3\tthree\n")])),
                write,
                asked(&write, json!([new_diff, asks("Write")])),
                status("call_2", "in_progress"),
                done("call_2", json!([new_diff, text(&format!("Wrote 6 bytes to {}", new.display()))])),
                edit,
                asked(&edit, json!([notes_diff, asks("Edit")])),
                status("call_3", "in_progress"),
                done("call_3", json!([notes_diff, text(&format!("Replaced 1 occurrence in {}", notes.display()))])),
                bash,
                asked(&bash, json!([command, text("needs approval (default): `printf hello` \
                    matches no allow rule; Bash asks by default")])),
                status("call_4", "in_progress"),
                done("call_4", json!([text("[exit code: 0]\nhello")])),
                {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "done"}},
            ],
            "loaded": commands,
            "invalid": [],
            "exits": [0, 0],
        })
    );
    let prompt = history_records(&home.records(&session_id))
        .into_iter()
        .find(|record| record["message"]["role"] == "user")
        .map(|record| record["message"]["content"].clone());
    assert_eq!(
        prompt,
        Some(json!("Review notes.txt with care.")),
        "the command typed in the editor was expanded"
    );
}
