//! Hooks that go wrong: hangs, floods, and what `onFailure` makes of them.

use crate::support::*;
use serde_json::json;
use std::time::{Duration, Instant};

#[tokio::test]
async fn a_hanging_hook_is_killed_at_its_timeout_with_its_grandchild_and_blocks_the_call() {
    let case = Case::new();
    let hook = case.hook(
        "hang.sh",
        "sleep 300 &\necho $! > .agenthub/grandchild.pid\nwait",
    );
    let mut spec = command(&hook);
    spec["timeout"] = json!(1);
    let registry = case.registry(&[("PreToolUse", None, spec)]);
    let started = Instant::now();
    let run = case.pre_tool_use(&registry, echo("hello")).await;
    let grandchild = case.wait_for(".agenthub/grandchild.pid");
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(
        (
            pre_tool_use(&run.verdict),
            alive(&grandchild),
            started.elapsed() < Duration::from_secs(10)
        ),
        (
            json!({"execution_error": "PreToolUse hook \"./.agenthub/hooks/hang.sh\" failed: timed out after 1s; its process group was killed", "context": []}),
            false,
            true
        )
    );
}

#[tokio::test]
async fn a_timed_out_hook_with_on_failure_continue_lets_the_call_through() {
    let case = Case::new();
    let hook = case.hook("slow.sh", "sleep 30");
    let mut spec = command(&hook);
    spec["timeout"] = json!(0.5);
    spec["onFailure"] = json!("continue");
    let registry = case.registry(&[("PreToolUse", None, spec)]);
    let run = case.pre_tool_use(&registry, echo("hello")).await;
    assert_eq!(pre_tool_use(&run.verdict), proceeds("hello"));
}

#[tokio::test]
async fn a_hook_printing_five_megabytes_is_a_failure() {
    let case = Case::new();
    let hook = case.hook("flood.sh", "head -c 5000000 /dev/zero | tr '\\0' x");
    let registry = case.registry(&[("PreToolUse", None, command(&hook))]);
    let run = case.pre_tool_use(&registry, echo("hello")).await;
    assert_eq!(
        pre_tool_use(&run.verdict),
        json!({"execution_error": "PreToolUse hook \"./.agenthub/hooks/flood.sh\" failed: wrote more than 1048576 bytes to stdout; its process group was killed", "context": []})
    );
}

#[tokio::test]
async fn a_post_tool_use_hook_that_could_not_run_keeps_the_real_result() {
    let case = Case::new();
    let registry = case.registry(&[("PostToolUse", None, command("./.agenthub/hooks/missing.sh"))]);
    let run = case
        .post_tool_use(&registry, echo("hello"), echoed("hello"))
        .await;
    assert_eq!(
        (
            records(&run.records)[0]["handler_ran"].clone(),
            run.verdict.output,
            run.verdict.is_error
        ),
        (json!(true), "hello".to_owned(), false)
    );
}
