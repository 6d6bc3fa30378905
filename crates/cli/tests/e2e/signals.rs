//! SIGTERM and SIGHUP end a run like Ctrl-C (contract §15): the pending call gets
//! `Error [cancelled]`, the Bash command's process group is killed (it does
//! not go on as an orphan: its `sleep` is gone from /proc), the outcome is written, and the exit status is
//! 128 + the signal (143, 129).

use crate::support;

use serde_json::json;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::*;

fn wait_for(what: &str, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !ready() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A `sleep` argument no other process has: how the test finds the command.
fn unique_sleep(signal: &str) -> String {
    format!("30.{}{}", std::process::id(), signal.len())
}

/// Whether a process runs `sleep <seconds>` (read from /proc).
fn sleeping(seconds: &str) -> bool {
    let wanted = format!("sleep\0{seconds}\0");
    std::fs::read_dir("/proc").is_ok_and(|entries| {
        entries.flatten().any(|entry| {
            std::fs::read(entry.path().join("cmdline"))
                .is_ok_and(|cmdline| cmdline == wanted.as_bytes())
        })
    })
}

/// Runs a Bash call that sleeps, sends `signal` once it runs, and returns
/// the exit code; the sleep must be gone (killed, not orphaned) soon after.
fn stopped_by(case: &Case, signal: &str) -> Option<i32> {
    let seconds = unique_sleep(signal);
    let command = format!("echo started > started; sleep {seconds}");
    case.script(json!([
        {"content": "waiting", "tool_calls": [
            call("call_1", "Bash", json!({"command": command}))]},
        {"content": "never asked"}
    ]));
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("agenthub"))
        .args(["run", "--permission-mode=bypassPermissions", "--script"])
        .arg(case.script_path())
        .arg("--workspace")
        .arg(case.workspace())
        .arg("--transcript")
        .arg(case.transcript_path())
        .arg(PROMPT)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for("the Bash command to start", || {
        case.workspace().join("started").exists() && sleeping(&seconds)
    });
    let pid = child.id().to_string();
    assert!(Command::new("kill")
        .args([signal, &pid])
        .status()
        .unwrap()
        .success());
    let deadline = Instant::now() + Duration::from_secs(30);
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        assert!(Instant::now() < deadline, "agenthub did not end");
        std::thread::sleep(Duration::from_millis(20));
    };
    wait_for("the command to be killed", || !sleeping(&seconds));
    code
}

fn assert_ended_like_ctrl_c(case: &Case) {
    let cancelled =
        "Error [cancelled]: the tool was not run (or was interrupted): the run was cancelled";
    let outcome = case.outcome();
    assert_eq!(
        (
            case.messages()[2..].to_vec(),
            &outcome["type"],
            &outcome["status"],
        ),
        (
            vec![tool_record("call_1", cancelled)],
            &json!("outcome"),
            &json!("cancelled"),
        )
    );
}

#[test]
fn sigterm_cancels_the_run_kills_the_command_writes_the_outcome_and_exits_143() {
    let case = Case::new();
    assert_eq!(stopped_by(&case, "-TERM"), Some(143));
    assert_ended_like_ctrl_c(&case);
}

#[test]
fn sighup_cancels_the_run_kills_the_command_writes_the_outcome_and_exits_129() {
    let case = Case::new();
    assert_eq!(stopped_by(&case, "-HUP"), Some(129));
    assert_ended_like_ctrl_c(&case);
}
