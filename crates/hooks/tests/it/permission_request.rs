//! PermissionRequest hooks answer an `ask` before anyone is prompted: what
//! each answer comes to. (That no decision falls through to the approver is
//! `agenthub-core`'s `HookApprover`.)

use crate::support::*;
use agenthub_hooks::{PermissionRequestContext, PermissionRequestVerdict};
use serde_json::{json, Value};

fn decision(behavior: &str, message: &str) -> String {
    format!(
        "echo '{}'",
        json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": behavior, "message": message}}})
    )
}

/// Asks `Echo hello` of one PermissionRequest hook running `body`.
async fn answer(case: &Case, matcher: Option<&str>, body: &str) -> PermissionRequestVerdict {
    let hook = case.hook("answer.sh", body);
    let registry = case.registry(&[("PermissionRequest", matcher, command(&hook))]);
    let context = PermissionRequestContext {
        common: case.common(),
        call: echo("hello"),
        reason: "confirm echo".to_owned(),
    };
    registry.run_permission_request(context).await.verdict
}

#[tokio::test]
async fn an_allow_answers_the_ask_and_the_tool_runs() {
    let case = Case::new();
    assert_eq!(
        answer(&case, Some("Echo"), &decision("allow", "")).await,
        PermissionRequestVerdict::Allow {
            hook: "./.agenthub/hooks/answer.sh".to_owned(),
            updated_input: None,
        }
    );
}

#[tokio::test]
async fn a_deny_answers_the_ask_with_its_message_for_the_model() {
    let case = Case::new();
    assert_eq!(
        answer(&case, None, &decision("deny", "not during the freeze")).await,
        PermissionRequestVerdict::Deny {
            message: "not during the freeze".to_owned()
        }
    );
}

#[tokio::test]
async fn no_decision_falls_through_to_the_approver_which_denies_without_a_terminal() {
    let case = Case::new();
    assert_eq!(
        answer(&case, None, "exit 0").await,
        PermissionRequestVerdict::Undecided
    );
}

#[tokio::test]
async fn an_allow_with_another_input_carries_that_input() {
    let case = Case::new();
    let answer_json = json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
        "decision": {"behavior": "allow", "updatedInput": {"text": "goodbye"}}}});
    assert_eq!(
        answer(&case, None, &format!("echo '{answer_json}'")).await,
        PermissionRequestVerdict::Allow {
            hook: "./.agenthub/hooks/answer.sh".to_owned(),
            updated_input: Some(json!({"text": "goodbye"})),
        }
    );
}

#[tokio::test]
async fn an_allow_whose_updated_input_is_the_calls_own_changes_nothing() {
    let case = Case::new();
    let answer_json = json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
        "decision": {"behavior": "allow", "updatedInput": {"text": "hello"}}}});
    assert_eq!(
        answer(&case, None, &format!("echo '{answer_json}'")).await,
        PermissionRequestVerdict::Allow {
            hook: "./.agenthub/hooks/answer.sh".to_owned(),
            updated_input: None,
        }
    );
}

#[tokio::test]
async fn a_deny_with_an_updated_input_is_a_deny() {
    let case = Case::new();
    let answer_json = json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
        "decision": {"behavior": "deny", "message": "no", "updatedInput": {"text": "goodbye"}}}});
    assert_eq!(
        answer(&case, None, &format!("echo '{answer_json}'")).await,
        PermissionRequestVerdict::Deny {
            message: "no".to_owned()
        }
    );
}

#[tokio::test]
async fn exit_2_denies_with_stderr() {
    let case = Case::new();
    assert_eq!(
        answer(&case, None, "echo 'ask the owner' >&2; exit 2").await,
        PermissionRequestVerdict::Deny {
            message: "ask the owner".to_owned()
        }
    );
}

#[tokio::test]
async fn a_hook_that_could_not_run_denies_by_default() {
    let case = Case::new();
    assert_eq!(
        answer(&case, None, "exit 127").await,
        PermissionRequestVerdict::Failed {
            message: "PermissionRequest hook \"./.agenthub/hooks/answer.sh\" failed: exited with status 127 (command not found)".to_owned()
        }
    );
}

#[tokio::test]
async fn stdin_has_the_tool_but_no_tool_use_id() {
    let case = Case::new();
    answer(&case, None, "cat > .agenthub/stdin.json").await;
    let stdin: Value = case.saved(".agenthub/stdin.json");
    assert_eq!(
        stdin,
        json!({
            "session_id": SESSION,
            "transcript_path": case.transcript_path().display().to_string(),
            "cwd": case.workspace.display().to_string(),
            "permission_mode": "default",
            "hook_event_name": "PermissionRequest",
            "tool_name": "Echo",
            "tool_input": {"text": "hello"}
        })
    );
}
