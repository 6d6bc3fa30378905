//! End-to-end tests of the file tools on hostile trees (issue 15), through
//! the real `agenthub run` binary: a FIFO that must not hang the run, and `~`
//! in a Write path. HOME and the XDG folders point into a temp folder.

mod support;

use serde_json::{json, Value};
use std::time::Duration;
use support::{call, Case};

/// One tool call, then a final answer.
fn one_call(case: &Case, name: &str, arguments: Value) {
    case.script(json!([
        {"content": "working", "tool_calls": [call("call_1", name, arguments)]},
        {"content": "done"}
    ]));
}

/// Runs the case with HOME and XDG folders inside `home`, within 30 s.
fn run_with_home(case: &Case, home: &std::path::Path) {
    case.run()
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_STATE_HOME", home.join(".local/state"))
        .timeout(Duration::from_secs(30))
        .assert()
        .code(0);
}

/// The content of the run's one tool result.
fn tool_result(case: &Case) -> String {
    let tool = case
        .messages()
        .into_iter()
        .find(|record| record["message"]["role"] == "tool")
        .expect("a tool result");
    tool["message"]["content"].as_str().unwrap().to_owned()
}

#[test]
fn a_fifo_read_is_refused_and_the_run_finishes() {
    let case = Case::new();
    let home = tempfile::tempdir().unwrap();
    let pipe = case.workspace().join("pipe");
    let name = std::ffi::CString::new(pipe.to_str().unwrap()).unwrap();
    // SAFETY: a NUL-terminated path that outlives the call.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
    one_call(&case, "Read", json!({"file_path": "pipe"}));
    run_with_home(&case, home.path());
    assert_eq!(
        tool_result(&case),
        format!(
            "Error [tool_error]: {} is a FIFO (named pipe), not a regular file; file tools only read and write regular files",
            pipe.display()
        )
    );
}

#[test]
fn a_write_to_a_tilde_path_is_outside_the_workspace_and_creates_no_tilde_folder() {
    let case = Case::new();
    let home = tempfile::tempdir().unwrap();
    let home_path = home.path().canonicalize().unwrap();
    one_call(
        &case,
        "Write",
        json!({"file_path": "~/notes.txt", "content": "x"}),
    );
    run_with_home(&case, &home_path);
    assert_eq!(
        (
            tool_result(&case),
            case.workspace().join("~").exists(),
            home_path.join("notes.txt").exists()
        ),
        (
            format!(
                "Error [permission_denied]: the tool was not run: permission denied: {} is outside the workspace ({})",
                home_path.join("notes.txt").display(),
                case.workspace().display()
            ),
            false,
            false
        )
    );
}
