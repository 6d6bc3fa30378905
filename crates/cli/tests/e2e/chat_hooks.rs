//! The interactive session's own hook events: Notification (an approval,
//! the idle prompt) and SessionEnd's reason (`clear`, `prompt_input_exit`),
//! heard by real command hooks that log their stdin.

use crate::support::chat_place;

use chat_place::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A settings file beside the workspace whose Notification and SessionEnd
/// hooks append their stdin to `events.jsonl`.
fn logging_hooks(place: &Place) -> (PathBuf, PathBuf) {
    let log = place.base.join("events.jsonl");
    let hook = serde_json::json!({"type": "command", "command": format!("cat >> {} && echo >> {}", log.display(), log.display())});
    let settings = serde_json::json!({"hooks": {
        "Notification": [{"hooks": [hook.clone()]}],
        "SessionEnd": [{"hooks": [hook]}],
    }});
    let file = place.base.join("hooks.json");
    std::fs::write(&file, settings.to_string()).unwrap();
    (file, log)
}

/// The `hook_event_name`, and `notification_type` or `reason`, of each logged payload.
fn logged_events(log: &Path) -> Vec<(String, String)> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let payload: Value = serde_json::from_str(line).unwrap();
            let detail = payload
                .get("notification_type")
                .or_else(|| payload.get("reason"))
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            (
                payload["hook_event_name"].as_str().unwrap().to_owned(),
                detail,
            )
        })
        .collect()
}

#[test]
fn notification_hooks_hear_the_approval_and_the_idle_prompt_and_session_end_hears_the_exit() {
    let place = Place::new(BASH);
    let (settings, log) = logging_hooks(&place);
    let mut terminal = place.chat(&["--settings", settings.to_str().unwrap()], &[]);
    terminal.wait_for_prompt();
    terminal.type_line("run it");
    terminal.wait_for("[y] allow once");
    terminal.send(b"y");
    terminal.wait_for("Result: [exit code: 0]");
    terminal.wait_for_prompt();
    terminal.type_line("/exit");
    assert_eq!(terminal.wait_exit(), 0);
    let pairs = |items: &[(&str, &str)]| -> Vec<(String, String)> {
        items
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    assert_eq!(
        logged_events(&log),
        pairs(&[
            ("Notification", "permission_prompt"),
            ("Notification", "idle_prompt"),
            ("SessionEnd", "prompt_input_exit"),
        ])
    );
}

#[test]
fn clear_ends_the_session_with_reason_clear() {
    let place = Place::new(TWO_ANSWERS);
    let (settings, log) = logging_hooks(&place);
    let mut terminal = place.chat(&["--settings", settings.to_str().unwrap()], &[]);
    terminal.wait_for_prompt();
    terminal.type_line("/clear");
    terminal.wait_for_prompt();
    terminal.type_line("/exit");
    assert_eq!(terminal.wait_exit(), 0);
    let ends: Vec<String> = logged_events(&log)
        .into_iter()
        .filter(|(event, _)| event == "SessionEnd")
        .map(|(_, reason)| reason)
        .collect();
    assert_eq!(ends, ["clear", "prompt_input_exit"]);
}
