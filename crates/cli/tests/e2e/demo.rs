//! `agenthub demo` end to end: each experiment prints the path a reader of the
//! source articles recognises, and the transcript records it.

use crate::support::history;

use assert_cmd::Command;
use serde_json::{json, Value};
use std::path::Path;

fn demo(flags: &[&str], transcript: &Path) -> (String, String, i32) {
    let output = Command::cargo_bin("agenthub")
        .unwrap()
        .arg("demo")
        .args(flags)
        .arg("--transcript")
        .arg(transcript)
        .output()
        .unwrap();
    (
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
        output.status.code().unwrap_or(-1),
    )
}

fn records(transcript: &Path, kind: &str) -> Vec<Value> {
    std::fs::read_to_string(transcript)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .map(history::as_history)
        .filter(|record| record["type"] == kind)
        .collect()
}

fn bracket_lines(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|line| line.starts_with("[Hook]") || line.starts_with("[Permission]"))
        .collect()
}

#[test]
fn demo_shows_the_four_hook_points_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let transcript = dir.path().join("t.jsonl");
    let (stdout, stderr, code) = demo(&[], &transcript);
    assert_eq!((stdout.as_str(), code), ("Echo returned: hello world\n", 0));
    assert_eq!(
        bracket_lines(&stderr),
        vec![
            "[Hook] UserPromptSubmit (log-prompt)",
            "[Hook] PreToolUse: Echo (log-pre)",
            "[Permission] Echo: allow (default) - Echo is read-only and allowed by default",
            "[Hook] PostToolUse: Echo -> ok (log-post)",
            "[Hook] Stop (log-stop)",
        ]
    );
}

#[test]
fn demo_block_keeps_echo_from_running_and_reports_it() {
    let dir = tempfile::tempdir().unwrap();
    let transcript = dir.path().join("t.jsonl");
    let (stdout, stderr, code) = demo(&["--block"], &transcript);
    let blocked = "Error [hook_blocked]: the demo's PreToolUse hook blocks every Echo call";
    assert_eq!((stdout, code), (format!("Echo returned: {blocked}\n"), 0));
    assert_eq!(
        bracket_lines(&stderr),
        vec![
            "[Hook] UserPromptSubmit (log-prompt)",
            "[Hook] PreToolUse: Echo [blocked] (log-pre)",
            "[Hook] Stop (log-stop)"
        ]
    );
    let messages: Vec<Value> = records(&transcript, "message")
        .into_iter()
        .map(|record| record["message"].clone())
        .collect();
    // After the system prompt, the prompt and the call.
    assert_eq!(
        messages[3],
        json!({"role": "tool", "tool_call_id": "call_1", "content": blocked})
    );
}

#[test]
fn demo_post_error_keeps_the_real_echo_output_and_warns() {
    let dir = tempfile::tempdir().unwrap();
    let transcript = dir.path().join("t.jsonl");
    let (stdout, stderr, code) = demo(&["--post-error"], &transcript);
    assert_eq!((stdout.as_str(), code), ("Echo returned: hello world\n", 0));
    assert!(stderr.contains(
        "[Warning] hook_execution_error: PostToolUse hook \"log-post\" failed: simulated log write failure (the tool had already run; its result is kept)"
    ));
    let post = records(&transcript, "hook")
        .into_iter()
        .find(|record| record["event"] == "PostToolUse")
        .unwrap();
    assert_eq!(
        (&post["outcome"], &post["handler_ran"], &post["error"]),
        (
            &json!("hook_execution_error"),
            &json!(true),
            &json!("simulated log write failure")
        )
    );
}

#[test]
fn demo_post_error_names_hook_execution_error_on_every_failure_line_of_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let transcript = dir.path().join("t.jsonl");
    let (_, stderr, _) = demo(&["--post-error"], &transcript);
    let failure_lines: Vec<&str> = stderr
        .lines()
        .filter(|line| line.contains("simulated log write failure"))
        .collect();
    assert_eq!(
        failure_lines,
        vec![
            "[Hook] PostToolUse: Echo -> ok [hook_execution_error] (log-post): simulated log write failure",
            "[Warning] hook_execution_error: PostToolUse hook \"log-post\" failed: simulated log write failure (the tool had already run; its result is kept)",
        ]
    );
}

#[test]
fn demo_stop_continue_forces_exactly_one_more_turn() {
    let dir = tempfile::tempdir().unwrap();
    let transcript = dir.path().join("t.jsonl");
    let (stdout, stderr, code) = demo(&["--stop-continue"], &transcript);
    assert_eq!(
        (stdout.as_str(), code),
        (
            "Checked the tool feedback again. Echo returned: hello world\n",
            0
        )
    );
    let stop_lines: Vec<&str> = stderr
        .lines()
        .filter(|line| line.contains("Stop") && !line.starts_with("[Demo] experiment"))
        .collect();
    assert_eq!(
        stop_lines,
        vec![
            "[Demo] Stop hook sees stop_hook_active = false",
            "[Hook] Stop [force_continue] (log-stop)",
            "[Demo] Stop hook sees stop_hook_active = true",
            "[Hook] Stop [force_continue_dropped] (log-stop)",
            "[Warning] Stop hook \"log-stop\" asked to continue again; dropped (at most 1 forced continuation per run)",
        ]
    );
    let outcome = records(&transcript, "outcome").remove(0);
    assert_eq!(
        (&outcome["status"], &outcome["turns"]),
        (&json!("completed"), &json!(3))
    );
}

#[test]
fn the_demo_names_the_system_prompt_in_one_line_instead_of_printing_it() {
    let dir = tempfile::TempDir::new().unwrap();
    let transcript = dir.path().join("t.jsonl");
    let (_, stderr, code) = demo(&[], &transcript);
    let system = records(&transcript, "message")
        .into_iter()
        .find(|record| record["message"]["role"] == "system")
        .unwrap();
    let lines = system["message"]["content"]
        .as_str()
        .unwrap()
        .lines()
        .count();
    let shown: Vec<&str> = stderr
        .lines()
        .filter(|line| line.starts_with("[System]") || line.starts_with("[Context]"))
        .collect();
    assert_eq!(
        (code, shown),
        (
            0,
            vec![format!(
                "[System] the system prompt ({lines} lines; the transcript has it whole)"
            )
            .as_str()]
        )
    );
}
