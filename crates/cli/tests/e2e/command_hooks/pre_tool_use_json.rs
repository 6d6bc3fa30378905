//! docs/hooks.md "stdout JSON" for PreToolUse: permission suggestions and
//! their merge, the legacy `decision`, and `updatedInput`.

use super::support::*;
use serde_json::json;

/// A hook script that prints `json` on stdout and exits 0.
fn printing(case: &Case, name: &str, json: serde_json::Value) -> String {
    case.hook(name, &format!("cat > /dev/null\necho '{json}'"))
}

#[test]
fn legacy_decision_approve_is_an_allow_suggestion() {
    let case = Case::new();
    let hook = printing(
        &case,
        "approve.sh",
        json!({"decision": "approve", "reason": "fine"}),
    );
    case.hooks(&[("PreToolUse", None, command(&hook))]);
    case.echo_script("hello");
    case.report();
    assert_eq!(
        (case.hook_records()[0]["decision"].clone(), case.messages()),
        (json!("allow"), echo_history("hello", "hello"))
    );
}

#[test]
fn permission_decision_deny_reason_reaches_the_model() {
    let case = Case::new();
    let hook = printing(
        &case,
        "deny.sh",
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": "use Read instead"}}),
    );
    case.hooks(&[("PreToolUse", None, command(&hook))]);
    case.echo_script("hello");
    case.report();
    let result =
        "Error [permission_denied]: the tool was not run: permission denied: use Read instead";
    assert_eq!(case.messages(), echo_history("hello", result));
}

#[test]
fn permission_decision_ask_reason_does_not_reach_the_model() {
    let case = Case::new();
    let hook = printing(
        &case,
        "ask.sh",
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "ask", "permissionDecisionReason": "internal note for the user"}}),
    );
    case.hooks(&[("PreToolUse", None, command(&hook))]);
    case.echo_script("hello");
    case.report();
    let result =
        "Error [permission_denied]: the tool was not run: permission denied: approval required";
    assert_eq!(case.messages(), echo_history("hello", result));
}

fn two_suggestions(first: &str, second: &str) -> String {
    let case = Case::new();
    let hooks: Vec<(&str, Option<&str>, serde_json::Value)> = [("one.sh", first), ("two.sh", second)]
        .into_iter()
        .map(|(name, effect)| {
            let hook = printing(&case, name, json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                "permissionDecision": effect, "permissionDecisionReason": format!("{name} says {effect}")}}));
            ("PreToolUse", None, command(&hook))
        })
        .collect();
    case.hooks(&hooks);
    case.echo_script("hello");
    case.report();
    case.messages()[2]["content"].as_str().unwrap().to_owned()
}

#[test]
fn allow_and_ask_from_two_hooks_merge_to_ask() {
    assert_eq!(
        two_suggestions("allow", "ask"),
        "Error [permission_denied]: the tool was not run: permission denied: approval required"
    );
}

#[test]
fn ask_and_deny_from_two_hooks_merge_to_deny() {
    assert_eq!(
        two_suggestions("ask", "deny"),
        "Error [permission_denied]: the tool was not run: permission denied: two.sh says deny"
    );
}

#[test]
fn defer_is_not_an_agenthub_decision_and_breaks_the_contract() {
    let case = Case::new();
    let hook = printing(
        &case,
        "defer.sh",
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "defer"}}),
    );
    case.hooks(&[("PreToolUse", None, command(&hook))]);
    case.echo_script("hello");
    case.report();
    let result = "Error [hook_contract_error]: the tool was not run: PreToolUse hook \"./.agenthub/hooks/defer.sh\" broke its contract: hookSpecificOutput.permissionDecision must be \"allow\", \"ask\" or \"deny\", not \"defer\"";
    assert_eq!(case.messages(), echo_history("hello", result));
}

#[test]
fn updated_input_replaces_the_whole_input_and_dropped_keys_stay_dropped() {
    let case = Case::new();
    case.write("notes.txt", "one\ntwo\nthree\n");
    let hook = printing(
        &case,
        "rewrite.sh",
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "updatedInput": {"file_path": case.path("notes.txt")}}}),
    );
    case.hooks(&[("PreToolUse", Some("Read"), command(&hook))]);
    case.script(json!([
        {"content": "reading", "tool_calls": [call("call_1", "Read", json!({"file_path": "notes.txt", "limit": 1}))]},
        {"content": "{{last_tool_result}}"}
    ]));
    case.report();
    assert_eq!(
        case.messages()[2],
        tool("call_1", "     1\tone\n     2\ttwo\n     3\tthree\n")
    );
}

#[test]
fn updated_input_the_schema_rejects_is_a_contract_error_and_the_tool_does_not_run() {
    let case = Case::new();
    let hook = printing(
        &case,
        "bad.sh",
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"txt": "typo"}}}),
    );
    case.hooks(&[("PreToolUse", None, command(&hook))]);
    case.echo_script("hello");
    case.report();
    let result = case.messages()[2]["content"].as_str().unwrap().to_owned();
    assert_eq!(
        result.split(": updated_input does not match").next(),
        Some("Error [hook_contract_error]: the tool was not run: PreToolUse hook \"./.agenthub/hooks/bad.sh\" broke its contract")
    );
}

#[test]
fn an_invalid_permission_decision_blocks_by_default_as_a_contract_error() {
    let case = Case::new();
    let hook = printing(
        &case,
        "maybe.sh",
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "maybe"}}),
    );
    case.hooks(&[("PreToolUse", None, command(&hook))]);
    case.echo_script("hello");
    case.report();
    let result = "Error [hook_contract_error]: the tool was not run: PreToolUse hook \"./.agenthub/hooks/maybe.sh\" broke its contract: hookSpecificOutput.permissionDecision must be \"allow\", \"ask\" or \"deny\", not \"maybe\"";
    assert_eq!(case.messages(), echo_history("hello", result));
}

#[test]
fn an_invalid_permission_decision_with_on_failure_continue_lets_the_call_proceed() {
    let case = Case::new();
    let hook = printing(
        &case,
        "maybe.sh",
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "maybe"}}),
    );
    let mut spec = command(&hook);
    spec["onFailure"] = json!("continue");
    case.hooks(&[("PreToolUse", None, spec)]);
    case.echo_script("hello");
    case.report();
    assert_eq!(
        (case.hook_records()[0]["outcome"].clone(), case.messages()),
        (json!("hook_contract_error"), echo_history("hello", "hello"))
    );
}
