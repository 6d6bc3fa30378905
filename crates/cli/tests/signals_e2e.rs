//! SIGTERM and SIGHUP end a run like Ctrl-C (SPEC §15): the pending call gets
//! `Error [cancelled]`, the Bash command's process group is killed (it does
//! not go on as an orphan), the outcome is written, and the exit status is
//! 128 + the signal (143, 129).

mod support;

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

/// Runs a Bash call that would touch `late-marker` after a while, sends
/// `signal` once it runs, and returns the exit code.
fn stopped_by(case: &Case, signal: &str) -> Option<i32> {
    case.script(json!([
        {"content": "waiting", "tool_calls": [
            call("call_1", "Bash", json!({"command": "echo started > started; sleep 1.5; touch late-marker"}))]},
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
        case.workspace().join("started").exists()
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
    // Long enough for an orphaned command to reach its `touch`.
    std::thread::sleep(Duration::from_millis(2000));
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
            case.workspace().join("late-marker").exists()
        ),
        (
            vec![tool_record("call_1", cancelled)],
            &json!("outcome"),
            &json!("cancelled"),
            false
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
