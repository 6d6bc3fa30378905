//! Peak memory of the file tools on large files (issue 15), through the real
//! `agenthub run` binary: a Read of one line of a file that is one 100 MiB
//! line, and a Grep over a 100 MiB file.
//!
//! The peak is read where nothing else can add to it: a small python3 parent
//! starts `agenthub`, waits for it and prints its children's `ru_maxrss`. A
//! child started from this test binary directly would carry the binary's own
//! resident size into its peak (exec keeps the larger of the old image's and
//! the new one's), and the binary runs many tests at once.

use crate::support::{call, Case, PROMPT};
use serde_json::{json, Value};
use std::io::Write as _;
use std::process::Command;

/// What a scripted run may hold at its peak, whatever the files it reads
/// (a scripted run alone is about 36 MiB in a debug build).
const MAX_PEAK_RSS_KIB: i64 = 64 * 1024;

/// Runs argv[1:], then prints the peak RSS of what it ran (KiB) and exits with its code.
const MEASURE: &str = "import resource, subprocess, sys
code = subprocess.run(sys.argv[1:]).returncode
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(code)";

/// One tool call, then a final answer.
fn one_call(case: &Case, name: &str, arguments: Value) {
    case.script(json!([
        {"content": "working", "tool_calls": [call("call_1", name, arguments)]},
        {"content": "done"}
    ]));
}

/// Runs the case with HOME and XDG folders inside `home` and returns the
/// run's peak RSS in KiB; the run must succeed.
fn peak_rss_of_run_kib(case: &Case, home: &std::path::Path) -> i64 {
    let output = Command::new("python3")
        .arg("-c")
        .arg(MEASURE)
        .arg(assert_cmd::cargo::cargo_bin("agenthub"))
        .args(["run", "--permission-mode=bypassPermissions", "--script"])
        .arg(case.script_path())
        .arg("--workspace")
        .arg(case.workspace())
        .arg("--transcript")
        .arg(case.transcript_path())
        .arg(PROMPT)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_STATE_HOME", home.join(".local/state"))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .last()
        .unwrap()
        .trim()
        .parse()
        .unwrap()
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
    big_file(&case, "huge.txt", "first line\n", &vec![b'x'; 1 << 20], 100);
    one_call(&case, "Read", json!({"file_path": "huge.txt", "limit": 1}));
    let peak = peak_rss_of_run_kib(&case, home.path());
    assert_eq!(
        (tool_result(&case), peak < MAX_PEAK_RSS_KIB),
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
    let peak = peak_rss_of_run_kib(&case, home.path());
    assert_eq!(
        (tool_result(&case), peak < MAX_PEAK_RSS_KIB),
        (format!("Found 1 file\n{}", case.path("needle.txt")), true)
    );
}
