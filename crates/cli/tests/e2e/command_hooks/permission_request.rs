//! PermissionRequest hooks answer an `ask` before anyone is prompted. The ask
//! comes from a PreToolUse hook's suggestion here, so these tests do not
//! depend on which tools ask by default.

use super::support::*;
use serde_json::{json, Value};

fn asking(case: &Case) -> Value {
    command(&case.hook(
        "ask.sh",
        r#"echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "confirm echo"}}'"#,
    ))
}

fn answering(case: &Case, body: &str) -> Value {
    command(&case.hook("answer.sh", body))
}

fn decision(behavior: &str, message: &str) -> String {
    format!(
        "echo '{}'",
        json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": behavior, "message": message}}})
    )
}

#[test]
fn an_allow_answers_the_ask_and_the_tool_runs() {
    let case = Case::new();
    case.hooks(&[
        ("PreToolUse", None, asking(&case)),
        (
            "PermissionRequest",
            Some("Echo"),
            answering(&case, &decision("allow", "")),
        ),
    ]);
    case.echo_script("hello");
    case.report();
    assert_eq!(case.messages(), echo_history("hello", "hello"));
}

#[test]
fn a_deny_answers_the_ask_with_its_message_for_the_model() {
    let case = Case::new();
    case.hooks(&[
        ("PreToolUse", None, asking(&case)),
        (
            "PermissionRequest",
            None,
            answering(&case, &decision("deny", "not during the freeze")),
        ),
    ]);
    case.echo_script("hello");
    case.report();
    let result =
        "Error [permission_denied]: the tool was not run: permission denied: not during the freeze";
    assert_eq!(case.messages(), echo_history("hello", result));
}

#[test]
fn no_decision_falls_through_to_the_approver_which_denies_without_a_terminal() {
    let case = Case::new();
    case.hooks(&[
        ("PreToolUse", None, asking(&case)),
        ("PermissionRequest", None, answering(&case, "exit 0")),
    ]);
    case.echo_script("hello");
    case.report();
    let result =
        "Error [permission_denied]: the tool was not run: permission denied: approval required";
    assert_eq!(case.messages(), echo_history("hello", result));
}

#[test]
fn exit_2_denies_with_stderr() {
    let case = Case::new();
    case.hooks(&[
        ("PreToolUse", None, asking(&case)),
        (
            "PermissionRequest",
            None,
            answering(&case, "echo 'ask the owner' >&2; exit 2"),
        ),
    ]);
    case.echo_script("hello");
    case.report();
    let result =
        "Error [permission_denied]: the tool was not run: permission denied: ask the owner";
    assert_eq!(case.messages(), echo_history("hello", result));
}

#[test]
fn a_hook_that_could_not_run_denies_by_default() {
    let case = Case::new();
    case.hooks(&[
        ("PreToolUse", None, asking(&case)),
        ("PermissionRequest", None, answering(&case, "exit 127")),
    ]);
    case.echo_script("hello");
    case.report();
    let result = "Error [permission_denied]: the tool was not run: permission denied: PermissionRequest hook \"./.agenthub/hooks/answer.sh\" failed: exited with status 127 (command not found)";
    assert_eq!(case.messages(), echo_history("hello", result));
}

#[test]
fn stdin_has_the_tool_but_no_tool_use_id() {
    let case = Case::new();
    case.hooks(&[
        ("PreToolUse", None, asking(&case)),
        (
            "PermissionRequest",
            None,
            answering(&case, "cat > .agenthub/stdin.json"),
        ),
    ]);
    case.echo_script("hello");
    let (report, _) = case.report();
    let stdin: Value = serde_json::from_str(&case.read(".agenthub/stdin.json")).unwrap();
    assert_eq!(
        stdin,
        json!({
            "session_id": report["session_id"],
            "transcript_path": case.transcript_path().display().to_string(),
            "cwd": case.workspace.display().to_string(),
            "permission_mode": "default",
            "hook_event_name": "PermissionRequest",
            "tool_name": "Echo",
            "tool_input": {"text": "hello"}
        })
    );
}
