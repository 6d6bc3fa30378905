//! `agenthub replay` through the real binary (contract §25): its flags
//! (`--deny`, `--with-hooks`, a transcript file in place of a session
//! id), the summary line, the JSON shape whole, and the exit code (0 when
//! nothing changed, 1 when something did, 2 for an unknown session). What
//! the decisions are under new rules and hooks, and that no tool runs, are
//! the replay crate's own tests (`crates/replay/tests/it/`).

use crate::support::home::Home;
use serde_json::{json, Value};
use std::process::Output;

/// Records a session: a Read (allowed by default), `git status` (allowed by
/// a user rule), `rm -rf build` (asked by default, refused with no one to
/// ask). Returns its id.
fn recorded(home: &Home) -> String {
    home.settings(json!({"permissions": {"allow": ["Bash(git status:*)"]}}));
    home.write("ws/README.md", "hello\n");
    let report = home.run_json(
        json!({"turns": [
            {"tool_calls": [
                {"id": "c1", "name": "Read", "arguments": {"file_path": "README.md"}},
                {"id": "c2", "name": "Bash", "arguments": {"command": "git status"}},
                {"id": "c3", "name": "Bash", "arguments": {"command": "rm -rf build"}},
            ]},
            {"content": "done"}
        ]}),
        &[],
        "tidy up",
    );
    assert_eq!(report["status"], "completed", "{report}");
    report["session_id"].as_str().unwrap().to_owned()
}

fn replay(home: &Home, args: &[&str]) -> Output {
    home.agenthub().arg("replay").args(args).output().unwrap()
}

fn json_of(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|_| {
        panic!(
            "not JSON: {}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

/// (call id, recorded decision, replayed decision, change) of every call.
fn changes(report: &Value) -> Vec<(String, String, String, String)> {
    report["sessions"][0]["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|call| {
            (
                call["tool_use_id"].as_str().unwrap().to_owned(),
                call["recorded"]["decision"].as_str().unwrap().to_owned(),
                call["replayed"]["decision"].as_str().unwrap().to_owned(),
                call["change"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn row(id: &str, recorded: &str, replayed: &str, change: &str) -> (String, String, String, String) {
    (id.into(), recorded.into(), replayed.into(), change.into())
}

#[test]
fn unchanged_settings_change_nothing_and_exit_0() {
    let home = Home::new();
    let id = recorded(&home);
    let output = replay(&home, &[&id]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.ends_with("3 calls in 1 session: 0 newly denied, 0 newly allowed, 0 changed, 3 unchanged, 0 skipped\n"),
        "{text}"
    );
}

#[test]
fn a_transcript_file_replays_as_its_session_id_does() {
    let home = Home::new();
    let id = recorded(&home);
    let transcript = home.transcript(&id);
    let output = replay(
        &home,
        &[transcript.to_str().unwrap(), "--output-format", "json"],
    );
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(json_of(&output)["sessions"][0]["session_id"], json!(id));
}

#[test]
fn a_new_deny_rule_newly_denies_the_call_it_matches_and_exits_1() {
    let home = Home::new();
    let id = recorded(&home);
    let transcript = home.transcript(&id);
    let output = replay(
        &home,
        &[&id, "--deny", "Bash(git:*)", "--output-format", "json"],
    );
    assert_eq!(
        output.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let user_settings = home.base.join("home/.config/agenthub/settings.json");
    assert_eq!(
        json_of(&output),
        json!({
            "sessions": [{
                "session_id": id,
                "transcript": transcript,
                "workspace": home.ws(),
                "calls": [
                    {"tool_use_id": "c1", "tool_name": "Read", "agent_id": null,
                     "recorded": {"decision": "allow", "by": "default", "approval": null},
                     "replayed": {"decision": "allow", "by": "default", "approval": null},
                     "change": "unchanged"},
                    {"tool_use_id": "c2", "tool_name": "Bash", "agent_id": null,
                     "recorded": {"decision": "allow", "by": format!("rule Bash(git status:*) ({})", user_settings.display()), "approval": null},
                     "replayed": {"decision": "deny", "by": "rule Bash(git:*) (command line)", "approval": null},
                     "change": "newly_denied"},
                    {"tool_use_id": "c3", "tool_name": "Bash", "agent_id": null,
                     "recorded": {"decision": "ask", "by": "default", "approval": {"decision": "deny", "by": "no one to ask"}},
                     "replayed": {"decision": "ask", "by": "default", "approval": null},
                     "change": "unchanged"},
                ],
                "skipped": [],
            }],
            "summary": {"calls": 3, "newly_denied": 1, "newly_allowed": 0, "changed": 1, "unchanged": 2, "skipped": 0},
            "changed": true,
        })
    );
}

#[test]
fn an_unknown_session_is_a_usage_error() {
    let home = Home::new();
    let output = replay(&home, &["no-such-session"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("no session no-such-session"), "{stderr}");
}

#[test]
fn a_recorded_hook_block_stands_until_hooks_run_again_without_that_hook() {
    let home = Home::new();
    let guard = home.base.join("guard.sh");
    home.write(
        "guard.sh",
        "#!/bin/sh\ncat > /dev/null\necho 'not here' >&2\nexit 2\n",
    );
    std::process::Command::new("chmod")
        .arg("+x")
        .arg(&guard)
        .status()
        .unwrap();
    home.settings(json!({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": guard}]}
    ]}}));
    let report = home.run_json(
        json!({"turns": [
            {"tool_calls": [{"id": "c1", "name": "Bash", "arguments": {"command": "make"}}]},
            {"content": "done"}
        ]}),
        &[],
        "build",
    );
    let id = report["session_id"].as_str().unwrap();
    let recorded_block =
        json!({"decision": "deny", "by": format!("hook {}", guard.display()), "approval": null});

    let kept = json_of(&replay(&home, &[id, "--output-format", "json"]));
    assert_eq!(
        (
            &kept["sessions"][0]["calls"][0]["recorded"],
            &kept["sessions"][0]["calls"][0]["replayed"],
            &kept["changed"]
        ),
        (&recorded_block, &recorded_block, &json!(false))
    );

    home.settings(json!({}));
    let output = replay(&home, &[id, "--with-hooks", "--output-format", "json"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        changes(&json_of(&output)),
        vec![row("c1", "deny", "ask", "now_asked")]
    );
}
