//! Which hooks an event runs: PostToolUse on success, PostToolUseFailure on
//! failure, SessionEnd's matcher on the outcome; and what Stop's and
//! SessionStart's hooks are told and may say.

use crate::support::*;
use agenthub_hooks::{SessionEndContext, SessionEndReason, StopDecision};
use agenthub_protocol::RunStatus;
use serde_json::{json, Value};

/// A hook that appends the `hook_event_name` it was given to `fired.txt`.
fn event_logger(case: &Case) -> Value {
    command(&case.hook(
        "log.sh",
        "grep -o '\"hook_event_name\":\"[A-Za-z]*' >> .agenthub/fired.txt",
    ))
}

#[tokio::test]
async fn when_the_tool_fails_post_tool_use_failure_runs_and_post_tool_use_does_not() {
    let case = Case::new();
    let hook = event_logger(&case);
    let registry = case.registry(&[
        ("PostToolUse", None, hook.clone()),
        ("PostToolUseFailure", None, hook),
    ]);
    let (read, failed) = failed_read(&case);
    let run = case.post_tool_use(&registry, read, failed).await;
    assert_eq!(
        (
            case.read(".agenthub/fired.txt"),
            records(&run.records)[0]["event"].clone()
        ),
        (
            "\"hook_event_name\":\"PostToolUseFailure\n".to_owned(),
            json!("PostToolUseFailure")
        )
    );
}

#[tokio::test]
async fn when_the_tool_succeeds_post_tool_use_runs_and_post_tool_use_failure_does_not() {
    let case = Case::new();
    let hook = event_logger(&case);
    let registry = case.registry(&[
        ("PostToolUse", None, hook.clone()),
        ("PostToolUseFailure", None, hook),
    ]);
    case.post_tool_use(&registry, echo("hello"), echoed("hello"))
        .await;
    assert_eq!(
        case.read(".agenthub/fired.txt"),
        "\"hook_event_name\":\"PostToolUse\n"
    );
}

#[tokio::test]
async fn post_tool_use_failure_stdin_carries_the_tool_error() {
    let case = Case::new();
    let hook = case.hook("save.sh", "cat > .agenthub/stdin.json");
    let registry = case.registry(&[("PostToolUseFailure", None, command(&hook))]);
    let (read, failed) = failed_read(&case);
    let tool_result = failed.output.clone();
    case.post_tool_use(&registry, read, failed).await;
    let stdin = case.saved(".agenthub/stdin.json");
    assert_eq!(
        (
            stdin["error"]
                .as_str()
                .map(|error| format!("Error [tool_error]: {error}")),
            stdin.get("tool_response").is_none()
        ),
        (Some(tool_result), true)
    );
}

#[tokio::test]
async fn a_session_end_matcher_filters_on_the_outcome() {
    let case = Case::new();
    let hook = command(&case.hook(
        "log.sh",
        "grep -o '\"agenthub_outcome\":\"[a-z_]*' >> .agenthub/fired.txt",
    ));
    let registry = case.registry(&[
        ("SessionEnd", Some("completed"), hook.clone()),
        ("SessionEnd", Some("failed|blocked"), hook),
    ]);
    let context = SessionEndContext {
        common: case.common(),
        reason: RunStatus::Completed,
        exit: SessionEndReason::Other,
    };
    registry.run_session_end(context).await;
    assert_eq!(
        case.read(".agenthub/fired.txt"),
        "\"agenthub_outcome\":\"completed\n"
    );
}

#[tokio::test]
async fn stop_additional_context_continues_the_run_with_it() {
    let case = Case::new();
    let hook = case.hook(
        "ctx.sh",
        r#"echo '{"hookSpecificOutput": {"hookEventName": "Stop", "additionalContext": "verified by CI"}}'"#,
    );
    let registry = case.registry(&[("Stop", None, command(&hook))]);
    assert_eq!(
        case.stop(&registry, "done", false).await.verdict.decision,
        StopDecision::Continue {
            reason: "verified by CI".to_owned(),
            context: Vec::new()
        }
    );
}

#[tokio::test]
async fn session_start_stdin_names_the_source_and_the_model() {
    let case = Case::new();
    let hook = case.hook("save.sh", "cat > .agenthub/stdin.json");
    let registry = case.registry(&[("SessionStart", None, command(&hook))]);
    case.session_start(&registry).await;
    let stdin = case.saved(".agenthub/stdin.json");
    assert_eq!(
        (
            stdin["hook_event_name"].clone(),
            stdin["source"].clone(),
            stdin["model"].clone()
        ),
        (json!("SessionStart"), json!("startup"), json!("scripted"))
    );
}
