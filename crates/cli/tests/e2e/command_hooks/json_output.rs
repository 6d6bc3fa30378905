//! docs/hooks.md "stdout JSON", field by field.

use super::support::*;
use serde_json::json;

/// A hook script that prints `json` on stdout and exits 0.
fn printing(case: &Case, name: &str, json: serde_json::Value) -> String {
    case.hook(name, &format!("cat > /dev/null\necho '{json}'"))
}

#[test]
fn continue_false_on_pre_tool_use_stops_the_run_without_running_the_tool_even_if_allowed() {
    let case = Case::new();
    let hook = printing(
        &case,
        "halt.sh",
        json!({
        "continue": false, "stopReason": "budget exhausted",
        "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}),
    );
    case.hooks(&[("PreToolUse", None, command(&hook))]);
    case.script(json!([
        {"content": "two calls", "tool_calls": [
            call("call_1", "Echo", json!({"text": "a"})), call("call_2", "Echo", json!({"text": "b"}))]},
        {"content": "never asked"}
    ]));
    let (report, code) = case.report();
    assert_eq!(
        (report["status"].clone(), report["error"].clone(), code),
        (json!("stopped"), json!("budget exhausted"), 0)
    );
    assert_eq!(
        case.messages(),
        vec![
            user(PROMPT),
            json!({"role": "assistant", "content": "two calls", "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "Echo", "arguments": "{\"text\":\"a\"}"}},
                {"id": "call_2", "type": "function", "function": {"name": "Echo", "arguments": "{\"text\":\"b\"}"}}]}),
            tool("call_1", "Error [hook_stopped_continuation]: the tool was not run: a PreToolUse hook ended the run"),
            tool("call_2", "Error [hook_stopped_continuation]: the tool was not run: a PreToolUse hook ended the run after an earlier call of this message"),
        ]
    );
}

#[test]
fn continue_false_on_post_tool_use_ends_the_run_after_the_round() {
    let case = Case::new();
    let hook = printing(
        &case,
        "enough.sh",
        json!({"continue": false, "stopReason": "quota reached"}),
    );
    case.hooks(&[("PostToolUse", None, command(&hook))]);
    case.echo_script("hello");
    let (report, _) = case.report();
    assert_eq!(
        (
            report["status"].clone(),
            report["error"].clone(),
            case.messages()
        ),
        (
            json!("stopped"),
            json!("quota reached"),
            echo_history("hello", "hello")[..3].to_vec()
        )
    );
}

#[test]
fn continue_false_on_user_prompt_submit_stops_before_any_model_request() {
    let case = Case::new();
    let hook = printing(
        &case,
        "halt.sh",
        json!({"continue": false, "stopReason": "maintenance window"}),
    );
    case.hooks(&[("UserPromptSubmit", None, command(&hook))]);
    case.answer_script(&["never asked"]);
    let (report, _) = case.report();
    assert_eq!(
        (
            report["status"].clone(),
            report["error"].clone(),
            report["turns"].clone()
        ),
        (json!("stopped"), json!("maintenance window"), json!(0))
    );
}

#[test]
fn continue_false_on_stop_ends_the_run_as_stopped_without_continuing() {
    let case = Case::new();
    let hook = printing(
        &case,
        "halt.sh",
        json!({"continue": false, "stopReason": "enough for today", "decision": "block", "reason": "keep going"}),
    );
    case.hooks(&[("Stop", None, command(&hook))]);
    case.answer_script(&["done", "never asked"]);
    let (report, _) = case.report();
    assert_eq!(
        (
            report["status"].clone(),
            report["result"].clone(),
            report["error"].clone(),
            report["turns"].clone()
        ),
        (
            json!("stopped"),
            json!("done"),
            json!("enough for today"),
            json!(1)
        )
    );
}

#[test]
fn system_message_is_shown_to_the_user_and_not_to_the_model() {
    let case = Case::new();
    let hook = printing(
        &case,
        "note.sh",
        json!({"systemMessage": "heads up: slow disk"}),
    );
    case.hooks(&[("PreToolUse", None, command(&hook))]);
    case.echo_script("hello");
    let stderr = case.stderr();
    assert_eq!(
        (
            stderr
                .lines()
                .filter(|line| line.starts_with("[Warning]"))
                .collect::<Vec<_>>(),
            case.messages()
        ),
        (
            vec!["[Warning] PreToolUse hook \"./.agenthub/hooks/note.sh\": heads up: slow disk"],
            echo_history("hello", "hello")
        )
    );
}

#[test]
fn decision_block_on_user_prompt_submit_blocks_with_the_reason_for_the_user_only() {
    let case = Case::new();
    let hook = printing(
        &case,
        "gate.sh",
        json!({"decision": "block", "reason": "no deploys on Friday"}),
    );
    case.hooks(&[("UserPromptSubmit", None, command(&hook))]);
    case.answer_script(&["never asked"]);
    let (report, _) = case.report();
    assert_eq!(
        (
            report["status"].clone(),
            report["error"].clone(),
            case.messages()
        ),
        (
            json!("blocked"),
            json!("no deploys on Friday"),
            vec![user(PROMPT)]
        )
    );
}

#[test]
fn decision_block_on_post_tool_use_puts_the_reason_next_to_the_result() {
    let case = Case::new();
    let hook = printing(
        &case,
        "review.sh",
        json!({"decision": "block", "reason": "the output mentions a secret"}),
    );
    case.hooks(&[("PostToolUse", None, command(&hook))]);
    case.echo_script("hello");
    case.report();
    let result =
        "hello\n\nPostToolUse hook feedback (the tool already ran): the output mentions a secret";
    assert_eq!(case.messages(), echo_history("hello", result));
}

#[test]
fn a_hook_event_name_for_another_event_is_a_contract_error() {
    let case = Case::new();
    let hook = printing(
        &case,
        "wrong.sh",
        json!({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "x"}}),
    );
    case.hooks(&[("PreToolUse", None, command(&hook))]);
    case.echo_script("hello");
    case.report();
    let result = "Error [hook_contract_error]: the tool was not run: PreToolUse hook \"./.agenthub/hooks/wrong.sh\" broke its contract: hookSpecificOutput.hookEventName is \"PostToolUse\" but the event is PreToolUse";
    assert_eq!(case.messages(), echo_history("hello", result));
}

#[test]
fn a_field_of_another_event_is_a_contract_error() {
    let case = Case::new();
    let hook = printing(
        &case,
        "wrong.sh",
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedToolOutput": "x"}}),
    );
    case.hooks(&[("PreToolUse", None, command(&hook))]);
    case.echo_script("hello");
    case.report();
    let result = "Error [hook_contract_error]: the tool was not run: PreToolUse hook \"./.agenthub/hooks/wrong.sh\" broke its contract: hookSpecificOutput.updatedToolOutput is not a field of a PreToolUse hook's output";
    assert_eq!(case.messages(), echo_history("hello", result));
}

#[test]
fn additional_context_from_pre_tool_use_is_a_system_message_after_the_results() {
    let case = Case::new();
    let hook = printing(
        &case,
        "ctx.sh",
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "Echo is cheap"}}),
    );
    case.hooks(&[("PreToolUse", None, command(&hook))]);
    case.echo_script("hello");
    case.report();
    let mut expected = echo_history("hello", "hello");
    expected.insert(3, system("Echo is cheap"));
    assert_eq!(case.messages(), expected);
}

#[test]
fn updated_tool_output_replaces_what_the_model_sees() {
    let case = Case::new();
    let hook = printing(
        &case,
        "redact.sh",
        json!({"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": "[redacted]"}}),
    );
    case.hooks(&[("PostToolUse", None, command(&hook))]);
    case.echo_script("s3cr3t");
    case.report();
    assert_eq!(case.messages(), echo_history("s3cr3t", "[redacted]"));
}

#[test]
fn updated_tool_output_given_as_json_replaces_the_result_with_its_json_text() {
    // contract §21: every tool's output may be replaced; Claude Code hooks give
    // a tool_response-shaped object for built-in tools.
    let case = Case::new();
    let hook = printing(
        &case,
        "shape.sh",
        json!({"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": {"stdout": "x"}}}),
    );
    case.hooks(&[("PostToolUse", None, command(&hook))]);
    case.echo_script("hello");
    case.report();
    assert_eq!(
        (case.hook_records()[0]["outcome"].clone(), case.messages()),
        (json!("ok"), echo_history("hello", r#"{"stdout":"x"}"#))
    );
}

#[test]
fn stop_decision_block_without_a_reason_continues_with_a_default_instruction_naming_the_hook() {
    let case = Case::new();
    let hook = printing(&case, "block.sh", json!({"decision": "block"}));
    case.hooks(&[("Stop", None, command(&hook))]);
    case.answer_script(&["done", "checked again"]);
    let (report, code) = case.report();
    assert_eq!(
        (report["result"].clone(), case.messages()[2].clone(), code),
        (
            json!("checked again"),
            user("the Stop hook \"./.agenthub/hooks/block.sh\" blocked without a reason"),
            0
        )
    );
}

#[test]
fn stop_decision_block_with_a_reason_continues_once_and_a_second_block_is_dropped() {
    let case = Case::new();
    let hook = case.hook(
        "always.sh",
        r#"cat >> .agenthub/stop-inputs.jsonl
echo >> .agenthub/stop-inputs.jsonl
echo '{"decision": "block", "reason": "double-check the diff"}'"#,
    );
    case.hooks(&[("Stop", None, command(&hook))]);
    case.answer_script(&["done", "checked, done"]);
    let (report, _) = case.report();
    let active: Vec<serde_json::Value> = case
        .read(".agenthub/stop-inputs.jsonl")
        .lines()
        .map(|line| {
            serde_json::from_str::<serde_json::Value>(line).unwrap()["stop_hook_active"].clone()
        })
        .collect();
    assert_eq!(
        (report["status"].clone(), report["result"].clone(), active),
        (
            json!("completed"),
            json!("checked, done"),
            vec![json!(false), json!(true)]
        )
    );
}

#[test]
fn context_longer_than_ten_thousand_characters_is_saved_whole_and_the_model_gets_the_path() {
    let case = Case::new();
    let hook = case.hook(
        "long.sh",
        r#"printf '{"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "%s"}}' "$(head -c 10005 /dev/zero | tr '\0' x)""#,
    );
    case.hooks(&[("UserPromptSubmit", None, command(&hook))]);
    case.answer_script(&["done"]);
    case.report();
    let context = case.messages()[1]["content"].as_str().unwrap().to_owned();
    let path = context.rsplit("the whole text is in ").next().unwrap();
    let path = path.trim_end_matches(']').to_owned();
    let expected = format!(
        "{}\n[hook context cut at 10000 of 10005 characters; the whole text is in {path}]",
        "x".repeat(10_000)
    );
    assert_eq!(
        (
            case.messages()[1].clone(),
            std::fs::read_to_string(&path).unwrap()
        ),
        (system(&expected), "x".repeat(10_005))
    );
}

#[test]
fn a_banner_before_the_json_makes_it_plain_text_and_the_decision_is_ignored() {
    let case = Case::new();
    let hook = case.hook(
        "banner.sh",
        r#"echo 'Welcome to bash!'
echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "x"}}'"#,
    );
    case.hooks(&[("PreToolUse", None, command(&hook))]);
    case.echo_script("hello");
    case.report();
    assert_eq!(case.messages(), echo_history("hello", "hello"));
}
