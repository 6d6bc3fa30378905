//! docs/hooks.md "stdout JSON", field by field: what each field a command
//! hook prints comes to in its event's verdict.

use crate::support::*;
use agenthub_hooks::{StopContext, StopDecision, UserPromptSubmitVerdict};
use serde_json::{json, Value};
use std::sync::Arc;

/// A hook script that prints `json` on stdout and exits 0.
fn printing(case: &Case, name: &str, json: Value) -> String {
    case.hook(name, &format!("cat > /dev/null\necho '{json}'"))
}

#[tokio::test]
async fn continue_false_on_pre_tool_use_stops_the_run_without_running_the_tool_even_if_allowed() {
    let case = Case::new();
    let hook = printing(
        &case,
        "halt.sh",
        json!({
        "continue": false, "stopReason": "budget exhausted",
        "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}),
    );
    let registry = case.registry(&[("PreToolUse", None, command(&hook))]);
    let run = case.pre_tool_use(&registry, echo("a")).await;
    assert_eq!(
        pre_tool_use(&run.verdict),
        json!({"stopped": "budget exhausted", "context": []})
    );
}

#[tokio::test]
async fn continue_false_on_post_tool_use_ends_the_run_after_the_round() {
    let case = Case::new();
    let hook = printing(
        &case,
        "enough.sh",
        json!({"continue": false, "stopReason": "quota reached"}),
    );
    let registry = case.registry(&[("PostToolUse", None, command(&hook))]);
    let run = case
        .post_tool_use(&registry, echo("hello"), echoed("hello"))
        .await;
    assert_eq!(
        (run.verdict.stop_reason, run.verdict.output),
        (Some("quota reached".to_owned()), "hello".to_owned())
    );
}

#[tokio::test]
async fn continue_false_on_user_prompt_submit_stops_before_any_model_request() {
    let case = Case::new();
    let hook = printing(
        &case,
        "halt.sh",
        json!({"continue": false, "stopReason": "maintenance window"}),
    );
    let registry = case.registry(&[("UserPromptSubmit", None, command(&hook))]);
    assert_eq!(
        case.user_prompt_submit(&registry).await.verdict,
        UserPromptSubmitVerdict::Stopped {
            reason: "maintenance window".to_owned(),
            context: Vec::new()
        }
    );
}

#[tokio::test]
async fn continue_false_on_stop_ends_the_run_as_stopped_without_continuing() {
    let case = Case::new();
    let hook = printing(
        &case,
        "halt.sh",
        json!({"continue": false, "stopReason": "enough for today", "decision": "block", "reason": "keep going"}),
    );
    let registry = case.registry(&[("Stop", None, command(&hook))]);
    assert_eq!(
        case.stop(&registry, "done", false).await.verdict.decision,
        StopDecision::Stopped {
            reason: "enough for today".to_owned(),
            context: Vec::new()
        }
    );
}

#[tokio::test]
async fn system_message_is_shown_to_the_user_and_not_to_the_model() {
    let case = Case::new();
    let hook = printing(
        &case,
        "note.sh",
        json!({"systemMessage": "heads up: slow disk"}),
    );
    let registry = case.registry(&[("PreToolUse", None, command(&hook))]);
    let run = case.pre_tool_use(&registry, echo("hello")).await;
    assert_eq!(
        (run.messages, pre_tool_use(&run.verdict)),
        (
            vec!["PreToolUse hook \"./.agenthub/hooks/note.sh\": heads up: slow disk".to_owned()],
            proceeds("hello")
        )
    );
}

#[tokio::test]
async fn decision_block_on_user_prompt_submit_blocks_with_the_reason_for_the_user_only() {
    let case = Case::new();
    let hook = printing(
        &case,
        "gate.sh",
        json!({"decision": "block", "reason": "no deploys on Friday"}),
    );
    let registry = case.registry(&[("UserPromptSubmit", None, command(&hook))]);
    assert_eq!(
        case.user_prompt_submit(&registry).await.verdict,
        UserPromptSubmitVerdict::Blocked {
            reason: "no deploys on Friday".to_owned(),
            context: Vec::new()
        }
    );
}

#[tokio::test]
async fn decision_block_on_post_tool_use_puts_the_reason_next_to_the_result() {
    let case = Case::new();
    let hook = printing(
        &case,
        "review.sh",
        json!({"decision": "block", "reason": "the output mentions a secret"}),
    );
    let registry = case.registry(&[("PostToolUse", None, command(&hook))]);
    let run = case
        .post_tool_use(&registry, echo("hello"), echoed("hello"))
        .await;
    assert_eq!(
        run.verdict.output,
        "hello\n\nPostToolUse hook feedback (the tool already ran): the output mentions a secret"
    );
}

#[tokio::test]
async fn a_hook_event_name_for_another_event_is_a_contract_error() {
    let case = Case::new();
    let hook = printing(
        &case,
        "wrong.sh",
        json!({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "x"}}),
    );
    let registry = case.registry(&[("PreToolUse", None, command(&hook))]);
    let run = case.pre_tool_use(&registry, echo("hello")).await;
    assert_eq!(
        pre_tool_use(&run.verdict),
        json!({"contract_error": "PreToolUse hook \"./.agenthub/hooks/wrong.sh\" broke its contract: hookSpecificOutput.hookEventName is \"PostToolUse\" but the event is PreToolUse", "context": []})
    );
}

#[tokio::test]
async fn a_field_of_another_event_is_a_contract_error() {
    let case = Case::new();
    let hook = printing(
        &case,
        "wrong.sh",
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedToolOutput": "x"}}),
    );
    let registry = case.registry(&[("PreToolUse", None, command(&hook))]);
    let run = case.pre_tool_use(&registry, echo("hello")).await;
    assert_eq!(
        pre_tool_use(&run.verdict),
        json!({"contract_error": "PreToolUse hook \"./.agenthub/hooks/wrong.sh\" broke its contract: hookSpecificOutput.updatedToolOutput is not a field of a PreToolUse hook's output", "context": []})
    );
}

#[tokio::test]
async fn additional_context_from_pre_tool_use_is_a_system_message_after_the_results() {
    let case = Case::new();
    let hook = printing(
        &case,
        "ctx.sh",
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "Echo is cheap"}}),
    );
    let registry = case.registry(&[("PreToolUse", None, command(&hook))]);
    let run = case.pre_tool_use(&registry, echo("hello")).await;
    assert_eq!(
        pre_tool_use(&run.verdict),
        json!({"proceed": {"text": "hello"}, "suggestion": null, "context": ["Echo is cheap"]})
    );
}

#[tokio::test]
async fn updated_tool_output_replaces_what_the_model_sees() {
    let case = Case::new();
    let hook = printing(
        &case,
        "redact.sh",
        json!({"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": "[redacted]"}}),
    );
    let registry = case.registry(&[("PostToolUse", None, command(&hook))]);
    let run = case
        .post_tool_use(&registry, echo("s3cr3t"), echoed("s3cr3t"))
        .await;
    assert_eq!(run.verdict.output, "[redacted]");
}

#[tokio::test]
async fn updated_tool_output_given_as_json_replaces_the_result_with_its_json_text() {
    // contract §21: every tool's output may be replaced; Claude Code hooks give
    // a tool_response-shaped object for built-in tools.
    let case = Case::new();
    let hook = printing(
        &case,
        "shape.sh",
        json!({"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": {"stdout": "x"}}}),
    );
    let registry = case.registry(&[("PostToolUse", None, command(&hook))]);
    let run = case
        .post_tool_use(&registry, echo("hello"), echoed("hello"))
        .await;
    assert_eq!(
        (
            records(&run.records)[0]["outcome"].clone(),
            run.verdict.output
        ),
        (json!("ok"), r#"{"stdout":"x"}"#.to_owned())
    );
}

#[tokio::test]
async fn stop_decision_block_without_a_reason_continues_with_a_default_instruction_naming_the_hook()
{
    let case = Case::new();
    let hook = printing(&case, "block.sh", json!({"decision": "block"}));
    let registry = case.registry(&[("Stop", None, command(&hook))]);
    assert_eq!(
        case.stop(&registry, "done", false).await.verdict.decision,
        StopDecision::Continue {
            reason: "the Stop hook \"./.agenthub/hooks/block.sh\" blocked without a reason"
                .to_owned(),
            context: Vec::new()
        }
    );
}

#[tokio::test]
async fn stop_decision_block_with_a_reason_continues_once_and_a_second_block_is_dropped() {
    let case = Case::new();
    let hook = case.hook(
        "always.sh",
        r#"cat >> .agenthub/stop-inputs.jsonl
echo >> .agenthub/stop-inputs.jsonl
echo '{"decision": "block", "reason": "double-check the diff"}'"#,
    );
    let registry = case.registry(&[("Stop", None, command(&hook))]);
    let first = case.stop(&registry, "done", false).await.verdict;
    let again = StopContext {
        common: case.common(),
        history: Arc::from(Vec::new()),
        last_assistant_message: "checked, done".to_owned(),
        stop_hook_active: true,
    };
    let second = registry.run_stop(again, false).await.verdict;
    let active: Vec<Value> = case
        .read(".agenthub/stop-inputs.jsonl")
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap()["stop_hook_active"].clone())
        .collect();
    assert_eq!(
        (
            first.decision,
            second.decision,
            second.dropped_continues.len(),
            active
        ),
        (
            StopDecision::Continue {
                reason: "double-check the diff".to_owned(),
                context: Vec::new()
            },
            StopDecision::Finish {
                context: Vec::new()
            },
            1,
            vec![json!(false), json!(true)]
        )
    );
}

#[tokio::test]
async fn a_banner_before_the_json_makes_it_plain_text_and_the_decision_is_ignored() {
    let case = Case::new();
    let hook = case.hook(
        "banner.sh",
        r#"echo 'Welcome to bash!'
echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "x"}}'"#,
    );
    let registry = case.registry(&[("PreToolUse", None, command(&hook))]);
    let run = case.pre_tool_use(&registry, echo("hello")).await;
    assert_eq!(pre_tool_use(&run.verdict), proceeds("hello"));
}
