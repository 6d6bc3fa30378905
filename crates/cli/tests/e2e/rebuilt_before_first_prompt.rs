//! A session whose agent is rebuilt (a mode change) before its first prompt
//! still starts at that prompt (contract §12, §31): its transcript begins
//! with its `session` record, naming its id and workspace, so it can be
//! resumed. `agenthub acp` is tested in `acp_sessions`; these are the
//! interactive session (`/permissions MODE`) and the Agent SDK's front door
//! (`--input-format stream-json`), which carry a session across a rebuild
//! the same way.

use crate::support::chat_place::{Place, TWO_ANSWERS};
use crate::support::home::Home;
use serde_json::{json, Value};

#[test]
fn a_chat_mode_change_before_the_first_prompt_leaves_the_session_record_first() {
    let place = Place::new(TWO_ANSWERS);
    let mut terminal = place.chat(&[], &[]);
    terminal.wait_for_prompt();
    terminal.type_line("/permissions acceptEdits");
    terminal.wait_for_prompt();
    terminal.type_line("remember this");
    terminal.wait_for("First answer.");
    terminal.type_line("/exit");
    assert_eq!(terminal.wait_exit(), 0);
    // The lines as written (`place.transcripts()` reads them as history).
    let folder = place.base.join("home/.local/state/agenthub/transcripts");
    let file = std::fs::read_dir(folder).unwrap().next().unwrap().unwrap();
    let records: Vec<Value> = std::fs::read_to_string(file.path())
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let id = records[0]["session_id"].clone();
    assert_eq!(
        (
            json!([records[0]["type"], records[0]["workspace"]]),
            json!([records[1]["sessionId"], records[1]["cwd"]]),
        ),
        (
            json!(["session", place.workspace()]),
            json!([id, place.workspace()])
        )
    );
}

#[test]
fn an_sdk_mode_change_before_the_first_message_leaves_the_session_record_first() {
    let home = Home::new();
    let script = home.base.join("script.json");
    std::fs::write(&script, json!({"turns": [{"content": "ok"}]}).to_string()).unwrap();
    let mode = json!({"type": "control_request", "request_id": "req_1",
        "request": {"subtype": "set_permission_mode", "mode": "acceptEdits"}});
    let user = json!({"type": "user", "message": {"role": "user", "content": "hello"}});
    let output = home
        .agenthub()
        .args([
            "--input-format",
            "stream-json",
            "--output-format",
            "stream-json",
        ])
        .args(["--script", script.to_str().unwrap()])
        .write_stdin(format!("{mode}\n{user}\n"))
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let lines: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let result = lines.iter().find(|line| line["type"] == "result").unwrap();
    let id = result["session_id"].as_str().unwrap();
    let records = home.records(id);
    assert_eq!(
        (
            json!([
                records[0]["type"],
                records[0]["session_id"],
                records[0]["workspace"]
            ]),
            json!([records[1]["sessionId"], records[1]["cwd"]]),
        ),
        (json!(["session", id, home.ws()]), json!([id, home.ws()]))
    );
}
