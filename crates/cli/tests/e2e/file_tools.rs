//! End-to-end tests of the file tools on hostile trees (issue 15), through
//! the real `agenthub run` binary: a FIFO that must not hang the run, and `~`
//! in a Write path. HOME and the XDG folders point into a temp folder.

use crate::support;

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

/// A sparse file of `size` bytes starting with `start`; the rest reads as zeros.
fn sparse_file(case: &Case, name: &str, start: &[u8], size: u64) -> std::path::PathBuf {
    use std::io::Write;
    let path = case.workspace().join(name);
    let mut file = std::fs::File::create(&path).unwrap();
    file.write_all(start).unwrap();
    file.set_len(size).unwrap();
    path
}

#[test]
fn line_1_of_a_10_gb_sparse_file_is_judged_binary_from_its_start() {
    let case = Case::new();
    let home = tempfile::tempdir().unwrap();
    let path = sparse_file(&case, "sparse.img", b"header\n", 10 << 30);
    one_call(
        &case,
        "Read",
        json!({"file_path": "sparse.img", "limit": 1}),
    );
    run_with_home(&case, home.path());
    assert_eq!(
        tool_result(&case),
        format!(
            "Error [tool_error]: {} is not a UTF-8 text file (it looks binary); only text files can be read or edited",
            path.display()
        )
    );
}

#[test]
fn the_lines_of_a_huge_file_past_the_window_are_not_counted_without_end() {
    let case = Case::new();
    let home = tempfile::tempdir().unwrap();
    sparse_file(
        &case,
        "huge.log",
        "a\n".repeat(8 * 1024).as_bytes(),
        1 << 30,
    );
    one_call(&case, "Read", json!({"file_path": "huge.log", "limit": 1}));
    run_with_home(&case, home.path());
    assert_eq!(
        tool_result(&case),
        "     1\ta\n[lines 1-1 shown; the file is too large to count its lines (more than 256 MiB left, \
         or a line over 1024 KiB); pass offset 2 to read on]\n"
    );
}
