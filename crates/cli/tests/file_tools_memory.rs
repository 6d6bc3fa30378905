//! Peak memory of the file tools on large files (issue 15), through the real
//! `agenthub run` binary: a Read of one line of a file that is one 100 MiB
//! line, and a Grep over a 100 MiB file. The peak is the children's
//! `ru_maxrss`; a forked child starts from its parent's resident size, so
//! this binary holds only these tests, run one at a time (every other
//! end-to-end test is in `e2e/`, whose children would count here).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

// This binary uses a few of the shared helpers.
#![allow(dead_code)]

#[path = "e2e/support/mod.rs"]
mod support;

use serde_json::{json, Value};
use std::io::Write as _;
use std::sync::Mutex;
use std::time::Duration;
use support::{call, Case};

/// What a scripted run may hold at its peak, whatever the files it reads
/// (a scripted run alone is about 24 MiB in a debug build).
const MAX_PEAK_RSS_KIB: i64 = 64 * 1024;

/// One test at a time: the peak is per process, not per child.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// One tool call, then a final answer.
fn one_call(case: &Case, name: &str, arguments: Value) {
    case.script(json!([
        {"content": "working", "tool_calls": [call("call_1", name, arguments)]},
        {"content": "done"}
    ]));
}

/// Runs the case with HOME and XDG folders inside `home`, within 60 s.
fn run_with_home(case: &Case, home: &std::path::Path) {
    case.run()
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_STATE_HOME", home.join(".local/state"))
        .timeout(Duration::from_secs(60))
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
    let status = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    assert_eq!(status, 0);
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
    let _one = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let case = Case::new();
    let home = tempfile::tempdir().unwrap();
    big_file(&case, "huge.txt", "first line\n", &vec![b'x'; 1 << 20], 100);
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
    let _one = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
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
