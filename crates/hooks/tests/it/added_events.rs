//! The events contract §21 added, each through a real command hook that saves
//! its stdin: StopFailure, PermissionDenied, InstructionsLoaded and
//! PostToolBatch. (That the loop fires them: crates/core/tests/it/added_events.rs.)

use crate::support::*;
use agenthub_hooks::{
    BatchedCall, InstructionsLoadedContext, PermissionDeniedContext, PostToolBatchContext,
    StopFailureContext,
};
use serde_json::{json, Value};

/// A hook that appends its stdin, one JSON line per run, to `.agenthub/<name>.log`.
fn logging_hook(case: &Case, name: &str) -> Value {
    command(&case.hook(
        &format!("{name}.sh"),
        &format!("cat >> .agenthub/{name}.log; echo >> .agenthub/{name}.log"),
    ))
}

/// The logged stdins, each without the common fields.
fn logged(case: &Case, name: &str) -> Vec<Value> {
    case.read(&format!(".agenthub/{name}.log"))
        .lines()
        .map(|line| {
            let mut stdin: Value = serde_json::from_str(line).unwrap();
            let fields = stdin.as_object_mut().unwrap();
            for common in ["session_id", "transcript_path", "cwd", "permission_mode"] {
                fields.remove(common);
            }
            stdin
        })
        .collect()
}

#[tokio::test]
async fn stop_failure_hooks_get_the_error_the_run_ends_on() {
    let case = Case::new();
    let registry = case.registry(&[("StopFailure", None, logging_hook(&case, "failure"))]);
    let error = "model request failed: the script has no turn left for model request 2";
    registry
        .run_stop_failure(StopFailureContext {
            common: case.common(),
            error: error.to_owned(),
        })
        .await;
    assert_eq!(
        logged(&case, "failure"),
        vec![json!({"hook_event_name": "StopFailure", "error": error})]
    );
}

#[tokio::test]
async fn permission_denied_hooks_get_the_refused_call_and_the_reason() {
    let case = Case::new();
    let registry = case.registry(&[(
        "PermissionDenied",
        Some("Bash"),
        logging_hook(&case, "denied"),
    )]);
    let reason = "permission denied: Bash is denied by a deny rule";
    registry
        .run_permission_denied(PermissionDeniedContext {
            common: case.common(),
            tool_name: "Bash".to_owned(),
            tool_input: json!({"command": "ls"}),
            tool_use_id: "call_1".to_owned(),
            reason: reason.to_owned(),
        })
        .await;
    assert_eq!(
        logged(&case, "denied"),
        vec![
            json!({"hook_event_name": "PermissionDenied", "tool_name": "Bash",
                    "tool_input": {"command": "ls"}, "tool_use_id": "call_1",
                    "reason": reason})
        ]
    );
}

#[tokio::test]
async fn instructions_loaded_hooks_are_told_each_memory_file_when_a_session_starts() {
    let case = Case::new();
    case.write("AGENTS.md", "Answer briefly.\n");
    let registry = case.registry(&[("InstructionsLoaded", None, logging_hook(&case, "loaded"))]);
    registry
        .run_instructions_loaded(InstructionsLoadedContext {
            common: case.common(),
            file_path: case.workspace.join("AGENTS.md"),
            load_reason: "session_start".to_owned(),
        })
        .await;
    assert_eq!(
        logged(&case, "loaded"),
        vec![json!({"hook_event_name": "InstructionsLoaded",
                    "file_path": case.path("AGENTS.md"), "load_reason": "session_start"})]
    );
}

#[tokio::test]
async fn post_tool_batch_hooks_see_every_call_of_the_message_and_may_add_context() {
    let case = Case::new();
    let hook = case.hook(
        "batch.sh",
        "cat >> .agenthub/batch.log; echo >> .agenthub/batch.log\n\
         echo '{\"hookSpecificOutput\": {\"hookEventName\": \"PostToolBatch\", \"additionalContext\": \"both calls are done\"}}'",
    );
    let registry = case.registry(&[("PostToolBatch", None, command(&hook))]);
    let batched = |name: &str, id: &str, input: Value, is_error| BatchedCall {
        tool_name: name.to_owned(),
        tool_use_id: id.to_owned(),
        tool_input: input,
        is_error,
    };
    let run = registry
        .run_post_tool_batch(PostToolBatchContext {
            common: case.common(),
            tool_calls: vec![
                batched("Echo", "call_1", json!({"text": "hi"}), false),
                batched("Bash", "call_2", json!({"command": "ls"}), true),
            ],
        })
        .await;
    assert_eq!(
        (logged(&case, "batch"), run.verdict.context),
        (
            vec![json!({"hook_event_name": "PostToolBatch", "tool_calls": [
                {"tool_name": "Echo", "tool_use_id": "call_1", "tool_input": {"text": "hi"},
                 "is_error": false},
                {"tool_name": "Bash", "tool_use_id": "call_2", "tool_input": {"command": "ls"},
                 "is_error": true}
            ]})],
            vec!["both calls are done".to_owned()]
        )
    );
}
