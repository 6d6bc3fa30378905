//! Ctrl-C (SIGINT) cancels a run: the pending call still gets its result
//! (`Error [cancelled]`), the Bash command's process group is killed, the
//! transcript ends with the outcome, and the exit status is 130.

use crate::support;

use serde_json::{json, Value};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use support::*;

fn wait_for(what: &str, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !ready() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn transcript_has_permission_record(case: &Case) -> bool {
    std::fs::read_to_string(case.transcript_path())
        .map(|text| text.contains(r#""type":"permission""#))
        .unwrap_or(false)
}

fn wait_with_deadline(child: &mut Child) -> i32 {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code().unwrap_or(-1);
        }
        assert!(
            Instant::now() < deadline,
            "agenthub did not end after SIGINT"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn ctrl_c_cancels_a_running_bash_call_and_pairs_it() {
    let case = Case::new();
    case.script(json!([
        {"content": "waiting", "tool_calls": [
            call("call_1", "Bash", json!({"command": "sleep 30; touch late-marker"})),
            call("call_2", "Echo", json!({"text": "never"}))]},
        {"content": "never asked"}
    ]));
    let program = assert_cmd::cargo::cargo_bin("agenthub");
    let mut child = Command::new(program)
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
    wait_for("the Bash call to be allowed", || {
        transcript_has_permission_record(&case)
    });
    std::thread::sleep(Duration::from_millis(200));
    let pid = child.id().to_string();
    assert!(Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap()
        .success());
    assert_eq!(wait_with_deadline(&mut child), 130);
    let cancelled =
        "Error [cancelled]: the tool was not run (or was interrupted): the run was cancelled";
    let messages = case.messages();
    assert_eq!(
        messages[2..].to_vec(),
        vec![
            tool_record("call_1", cancelled),
            tool_record("call_2", cancelled)
        ]
    );
    let outcome: Value = case.outcome();
    assert_eq!(
        (&outcome["type"], &outcome["status"], &outcome["turns"]),
        (&json!("outcome"), &json!("cancelled"), &json!(1))
    );
    assert!(!case.workspace().join("late-marker").exists());
}
