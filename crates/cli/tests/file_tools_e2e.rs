//! End-to-end tests of the file tools on large and hostile trees (issue 15),
//! through the real `agenthub run` binary: peak memory of a Read slice and a
//! Grep of a large file, a FIFO that must not hang the run, and `~` in a
//! Write path. HOME and the XDG folders point into the case's temp folder.

mod support;

use serde_json::{json, Value};
use std::io::Write as _;
use std::time::Duration;
use support::{call, Case};

/// What a scripted run may hold at its peak, whatever the files it reads.
const MAX_PEAK_RSS_KIB: i64 = 64 * 1024;

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

/// The largest peak RSS of any child this test process has waited for, in KiB.
fn children_peak_rss_kib() -> i64 {
    // SAFETY: an all-zero rusage is a valid value of this plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is a valid, writable struct for the call.
    assert_eq!(
        unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) },
        0
    );
    usage.ru_maxrss
}

/// Writes `name` in the workspace: `head`, then `repeat` written `times` times.
fn big_file(case: &Case, name: &str, head: &str, repeat: &[u8], times: usize) {
    let path = case.workspace().join(name);
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    file.write_all(head.as_bytes()).unwrap();
    for _ in 0..times {
        file.write_all(repeat).unwrap();
    }
    file.flush().unwrap();
}

#[test]
fn read_of_one_line_of_a_huge_file_stays_small_in_memory() {
    let case = Case::new();
    let home = tempfile::tempdir().unwrap();
    big_file(&case, "huge.txt", "first line\n", &[b'x'; 1 << 20], 100);
    one_call(&case, "Read", json!({"file_path": "huge.txt", "limit": 1}));
    run_with_home(&case, home.path());
    assert_eq!(
        (
            tool_result(&case),
            children_peak_rss_kib() < MAX_PEAK_RSS_KIB
        ),
        (
            "     1\tfirst line\n[lines 1-1 of 2; pass offset 2 to read on]\n".to_owned(),
            true
        )
    );
}

#[test]
fn grep_of_a_large_file_stays_small_in_memory() {
    let case = Case::new();
    let home = tempfile::tempdir().unwrap();
    let line = b"an ordinary line of a large log file, nothing to see here\n";
    big_file(&case, "big.log", "", line, 100 * 1024 * 1024 / line.len());
    std::fs::write(case.workspace().join("needle.txt"), "needle\n").unwrap();
    one_call(&case, "Grep", json!({"pattern": "needle|nothing to find"}));
    run_with_home(&case, home.path());
    assert_eq!(
        (
            tool_result(&case),
            children_peak_rss_kib() < MAX_PEAK_RSS_KIB
        ),
        (format!("Found 1 file\n{}", case.path("needle.txt")), true)
    );
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
                "Error [permission_denied]: {} is outside the workspace ({})",
                home_path.join("notes.txt").display(),
                case.workspace().display()
            ),
            false,
            false
        )
    );
}
