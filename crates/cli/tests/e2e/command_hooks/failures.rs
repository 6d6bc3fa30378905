//! Hooks that go wrong: hangs, floods, and what `onFailure` makes of them.

use super::support::*;
use serde_json::json;
use std::time::{Duration, Instant};

fn alive(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{}/stat", pid.trim())) {
        Ok(stat) => !stat.contains(") Z "),
        Err(_) => false,
    }
}

#[test]
fn a_hanging_hook_is_killed_at_its_timeout_with_its_grandchild_and_blocks_the_call() {
    let case = Case::new();
    let hook = case.hook(
        "hang.sh",
        "sleep 300 &\necho $! > .agenthub/grandchild.pid\nwait",
    );
    let mut spec = command(&hook);
    spec["timeout"] = json!(1);
    case.hooks(&[("PreToolUse", None, spec)]);
    case.echo_script("hello");
    let started = Instant::now();
    case.report();
    let grandchild = case.wait_for(".agenthub/grandchild.pid");
    std::thread::sleep(Duration::from_millis(200));
    let result = "Error [hook_execution_error]: the tool was not run: PreToolUse hook \"./.agenthub/hooks/hang.sh\" failed: timed out after 1s; its process group was killed";
    assert_eq!(
        (
            case.messages(),
            alive(&grandchild),
            started.elapsed() < Duration::from_secs(10)
        ),
        (echo_history("hello", result), false, true)
    );
}

#[test]
fn a_timed_out_hook_with_on_failure_continue_lets_the_call_through() {
    let case = Case::new();
    let hook = case.hook("slow.sh", "sleep 30");
    let mut spec = command(&hook);
    spec["timeout"] = json!(0.5);
    spec["onFailure"] = json!("continue");
    case.hooks(&[("PreToolUse", None, spec)]);
    case.echo_script("hello");
    case.report();
    assert_eq!(case.messages(), echo_history("hello", "hello"));
}

#[test]
fn a_hook_printing_five_megabytes_is_a_failure() {
    let case = Case::new();
    let hook = case.hook("flood.sh", "head -c 5000000 /dev/zero | tr '\\0' x");
    case.hooks(&[("PreToolUse", None, command(&hook))]);
    case.echo_script("hello");
    case.report();
    let result = "Error [hook_execution_error]: the tool was not run: PreToolUse hook \"./.agenthub/hooks/flood.sh\" failed: wrote more than 1048576 bytes to stdout; its process group was killed";
    assert_eq!(case.messages(), echo_history("hello", result));
}

#[test]
fn a_post_tool_use_hook_that_could_not_run_keeps_the_real_result() {
    let case = Case::new();
    case.hooks(&[("PostToolUse", None, command("./.agenthub/hooks/missing.sh"))]);
    case.echo_script("hello");
    let (report, _) = case.report();
    assert_eq!(
        (
            report["status"].clone(),
            case.hook_records()[0]["handler_ran"].clone(),
            case.messages()
        ),
        (
            json!("completed"),
            json!(true),
            echo_history("hello", "hello")
        )
    );
}
