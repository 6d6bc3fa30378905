//! docs/hooks.md "Exit codes", row by row, event by event: what a command
//! hook's exit code, stdout and stderr come to as its event's verdict. (What
//! the loop does with each verdict is `agenthub-core`'s: crates/core/tests/it.)

use crate::support::*;
use agenthub_hooks::{SessionStartVerdict, StopDecision, StopVerdict, UserPromptSubmitVerdict};
use agenthub_protocol::PermissionSuggestion;
use serde_json::json;

#[tokio::test]
async fn exit_0_with_empty_stdout_is_no_decision_and_the_tool_runs() {
    let case = Case::new();
    let hook = case.hook("silent.sh", "exit 0");
    let registry = case.registry(&[("PreToolUse", None, command(&hook))]);
    let run = case.pre_tool_use(&registry, echo("hello")).await;
    assert_eq!(pre_tool_use(&run.verdict), proceeds("hello"));
}

#[tokio::test]
async fn exit_0_with_plain_text_on_pre_tool_use_is_only_logged() {
    let case = Case::new();
    let hook = case.hook("chatty.sh", "echo 'looks fine to me'");
    let registry = case.registry(&[("PreToolUse", None, command(&hook))]);
    let run = case.pre_tool_use(&registry, echo("hello")).await;
    assert_eq!(pre_tool_use(&run.verdict), proceeds("hello"));
}

#[tokio::test]
async fn exit_0_with_plain_text_on_user_prompt_submit_is_added_as_context() {
    let case = Case::new();
    let hook = case.hook("context.sh", "echo 'The build uses cargo.'");
    let registry = case.registry(&[("UserPromptSubmit", None, command(&hook))]);
    assert_eq!(
        case.user_prompt_submit(&registry).await.verdict,
        UserPromptSubmitVerdict::Proceed {
            context: vec!["The build uses cargo.".to_owned()]
        }
    );
}

#[tokio::test]
async fn exit_0_with_plain_text_on_session_start_is_added_as_context() {
    let case = Case::new();
    let hook = case.hook("start.sh", "echo 'Branch: main'");
    let registry = case.registry(&[("SessionStart", None, command(&hook))]);
    assert_eq!(
        case.session_start(&registry).await.verdict,
        SessionStartVerdict {
            context: vec!["Branch: main".to_owned()],
            ..SessionStartVerdict::default()
        }
    );
}

#[tokio::test]
async fn exit_2_on_pre_tool_use_blocks_the_call_with_stderr_as_the_reason() {
    let case = Case::new();
    let hook = case.hook("block.sh", "echo 'no echoing today' >&2; exit 2");
    let registry = case.registry(&[("PreToolUse", Some("Echo"), command(&hook))]);
    let run = case.pre_tool_use(&registry, echo("hello")).await;
    assert_eq!(
        pre_tool_use(&run.verdict),
        json!({"blocked": "no echoing today", "context": []})
    );
}

#[tokio::test]
async fn exit_2_on_pre_tool_use_blocks_even_when_stdout_says_allow() {
    let case = Case::new();
    let hook = case.hook(
        "mixed.sh",
        r#"echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}'
echo 'blocked anyway' >&2
exit 2"#,
    );
    let registry = case.registry(&[("PreToolUse", None, command(&hook))]);
    let run = case.pre_tool_use(&registry, echo("hello")).await;
    assert_eq!(
        pre_tool_use(&run.verdict),
        json!({"blocked": "blocked anyway", "context": []})
    );
}

#[tokio::test]
async fn exit_2_on_user_prompt_submit_blocks_the_prompt_before_any_model_request() {
    let case = Case::new();
    let hook = case.hook(
        "gate.sh",
        "echo 'prompts about secrets are refused' >&2; exit 2",
    );
    let registry = case.registry(&[("UserPromptSubmit", None, command(&hook))]);
    assert_eq!(
        case.user_prompt_submit(&registry).await.verdict,
        UserPromptSubmitVerdict::Blocked {
            reason: "prompts about secrets are refused".to_owned(),
            context: Vec::new()
        }
    );
}

#[tokio::test]
async fn exit_2_on_stop_continues_once_with_stderr_as_the_instruction() {
    let case = Case::new();
    let hook = case.hook(
        "check.sh",
        r#"if grep -q '"stop_hook_active":false' ; then echo 'run the tests first' >&2; exit 2; fi
exit 0"#,
    );
    let registry = case.registry(&[("Stop", None, command(&hook))]);
    let first = case.stop(&registry, "done", false).await.verdict;
    let second = case.stop(&registry, "tests pass, done", true).await.verdict;
    assert_eq!(
        (first.decision, second.decision),
        (
            StopDecision::Continue {
                reason: "run the tests first".to_owned(),
                context: Vec::new()
            },
            StopDecision::Finish {
                context: Vec::new()
            }
        )
    );
}

#[tokio::test]
async fn exit_2_on_post_tool_use_shows_stderr_to_the_model_next_to_the_result() {
    let case = Case::new();
    let hook = case.hook("lint.sh", "echo 'style: trailing space' >&2; exit 2");
    let registry = case.registry(&[("PostToolUse", None, command(&hook))]);
    let run = case
        .post_tool_use(&registry, echo("hello"), echoed("hello"))
        .await;
    assert_eq!(
        run.verdict.output,
        "hello\n\nPostToolUse hook feedback (the tool already ran): style: trailing space"
    );
}

#[tokio::test]
async fn exit_2_on_post_tool_use_failure_shows_stderr_next_to_the_tool_error() {
    let case = Case::new();
    let hook = case.hook("explain.sh", "echo 'create the file first' >&2; exit 2");
    let registry = case.registry(&[("PostToolUseFailure", Some("Read"), command(&hook))]);
    let (read, failed) = failed_read(&case);
    let run = case.post_tool_use(&registry, read, failed).await;
    assert_eq!(
        run.verdict
            .output
            .split_once("\n\n")
            .map(|(_, feedback)| feedback),
        Some("PostToolUseFailure hook feedback (the tool already ran): create the file first")
    );
}

#[tokio::test]
async fn exit_2_on_session_start_is_shown_to_the_user_only() {
    let case = Case::new();
    let hook = case.hook("start.sh", "echo 'remember to pull' >&2; exit 2");
    let registry = case.registry(&[("SessionStart", None, command(&hook))]);
    let run = case.session_start(&registry).await;
    assert_eq!(
        (run.messages, run.verdict),
        (
            vec!["SessionStart hook \"./.agenthub/hooks/start.sh\": remember to pull".to_owned()],
            SessionStartVerdict::default()
        )
    );
}

#[tokio::test]
async fn exit_1_on_pre_tool_use_is_a_non_blocking_error_that_warns_and_lets_the_tool_run() {
    let case = Case::new();
    let hook = case.hook("broken.sh", "echo 'jq: not found' >&2; exit 1");
    let registry = case.registry(&[("PreToolUse", None, command(&hook))]);
    let run = case.pre_tool_use(&registry, echo("hello")).await;
    let warning = format!(
        "PreToolUse hook \"./.agenthub/hooks/broken.sh\": exited with status 1: jq: not found; a non-blocking error, the action goes on (hook from {}; \"onFailure\": \"block\" makes it block)",
        case.path(".agenthub/settings.json")
    );
    assert_eq!(
        (run.messages, pre_tool_use(&run.verdict)),
        (vec![warning], proceeds("hello"))
    );
}

#[tokio::test]
async fn exit_1_with_on_failure_block_blocks_the_call_as_an_execution_error() {
    let case = Case::new();
    let hook = case.hook(
        "broken.sh",
        "echo 'first line' >&2; echo 'second line' >&2; exit 1",
    );
    let mut spec = command(&hook);
    spec["onFailure"] = json!("block");
    let registry = case.registry(&[("PreToolUse", None, spec)]);
    let run = case.pre_tool_use(&registry, echo("hello")).await;
    assert_eq!(
        pre_tool_use(&run.verdict),
        json!({"execution_error": "PreToolUse hook \"./.agenthub/hooks/broken.sh\" failed: exited with status 1: first line", "context": []})
    );
}

#[tokio::test]
async fn exit_1_with_a_valid_deny_json_denies_and_is_not_an_error() {
    let case = Case::new();
    let hook = case.hook(
        "deny.sh",
        r#"echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "echo is disabled"}}'
exit 1"#,
    );
    let registry = case.registry(&[("PreToolUse", None, command(&hook))]);
    let run = case.pre_tool_use(&registry, echo("hello")).await;
    let deny = PermissionSuggestion {
        effect: agenthub_protocol::PermissionEffect::Deny,
        reason: Some("echo is disabled".to_owned()),
        hook: hook.clone(),
    };
    assert_eq!(
        (
            pre_tool_use(&run.verdict),
            records(&run.records)[0]["outcome"].clone()
        ),
        (
            json!({"proceed": {"text": "hello"}, "suggestion": deny, "context": []}),
            json!("ok")
        )
    );
}

#[tokio::test]
async fn exit_127_is_a_hook_failure_that_says_command_not_found() {
    let case = Case::new();
    let registry = case.registry(&[("PreToolUse", None, command("./.agenthub/hooks/typo.sh"))]);
    let run = case.pre_tool_use(&registry, echo("hello")).await;
    let verdict = pre_tool_use(&run.verdict);
    let message = verdict["execution_error"].as_str().unwrap_or_default();
    assert_eq!(
        message.split(": sh:").next(),
        Some("PreToolUse hook \"./.agenthub/hooks/typo.sh\" failed: exited with status 127 (command not found)")
    );
}

#[tokio::test]
async fn a_failing_user_prompt_submit_hook_with_on_failure_block_fails_the_run() {
    let case = Case::new();
    let hook = case.hook("broken.sh", "exit 3");
    let mut spec = command(&hook);
    spec["onFailure"] = json!("block");
    let registry = case.registry(&[("UserPromptSubmit", None, spec)]);
    assert_eq!(
        case.user_prompt_submit(&registry).await.verdict,
        UserPromptSubmitVerdict::Failed {
            message:
                "UserPromptSubmit hook \"./.agenthub/hooks/broken.sh\" failed: exited with status 3"
                    .to_owned()
        }
    );
}

#[tokio::test]
async fn a_failing_stop_hook_with_on_failure_block_fails_the_run_instead_of_returning_the_answer() {
    let case = Case::new();
    let hook = case.hook("broken.sh", "kill -9 $$");
    let exec_form = json!({"type": "command", "command": hook, "args": [], "onFailure": "block"});
    let registry = case.registry(&[("Stop", None, exec_form)]);
    assert_eq!(
        case.stop(&registry, "done", false).await.verdict,
        StopVerdict {
            decision: StopDecision::Failed {
                message: "Stop hook \"[exec] ./.agenthub/hooks/broken.sh\" failed: was killed by signal 9".to_owned()
            },
            dropped_continues: Vec::new()
        }
    );
}
