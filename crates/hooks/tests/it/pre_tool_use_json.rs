//! docs/hooks.md "stdout JSON" for PreToolUse: permission suggestions and
//! their merge, the legacy `decision`, and `updatedInput`. (How the policy
//! weighs a suggestion is `agenthub-core`'s: crates/core/tests/it/pre_tool_use.rs.)

use crate::support::*;
use agenthub_protocol::{PermissionEffect, PermissionSuggestion};
use serde_json::{json, Value};

/// A hook script that prints `json` on stdout and exits 0.
fn printing(case: &Case, name: &str, json: Value) -> String {
    case.hook(name, &format!("cat > /dev/null\necho '{json}'"))
}

fn suggestion(effect: PermissionEffect, reason: &str, hook: &str) -> Value {
    json!(PermissionSuggestion {
        effect,
        reason: Some(reason.to_owned()),
        hook: hook.to_owned(),
    })
}

/// The verdict on `Echo hello` of one hook printing `output`.
async fn one_hook(
    case: &Case,
    name: &str,
    output: Value,
) -> (
    String,
    agenthub_hooks::HookRun<agenthub_hooks::PreToolUseVerdict>,
) {
    let hook = printing(case, name, output);
    let registry = case.registry(&[("PreToolUse", None, command(&hook))]);
    (hook, case.pre_tool_use(&registry, echo("hello")).await)
}

#[tokio::test]
async fn legacy_decision_approve_is_an_allow_suggestion() {
    let case = Case::new();
    let (hook, run) = one_hook(
        &case,
        "approve.sh",
        json!({"decision": "approve", "reason": "fine"}),
    )
    .await;
    assert_eq!(
        (
            records(&run.records)[0]["decision"].clone(),
            pre_tool_use(&run.verdict)
        ),
        (
            json!("allow"),
            json!({"proceed": {"text": "hello"}, "suggestion": suggestion(PermissionEffect::Allow, "fine", &hook), "context": []})
        )
    );
}

#[tokio::test]
async fn permission_decision_deny_reason_reaches_the_model() {
    let case = Case::new();
    let (hook, run) = one_hook(
        &case,
        "deny.sh",
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": "use Read instead"}}),
    )
    .await;
    assert_eq!(
        pre_tool_use(&run.verdict)["suggestion"],
        suggestion(PermissionEffect::Deny, "use Read instead", &hook)
    );
}

#[tokio::test]
async fn permission_decision_ask_reason_does_not_reach_the_model() {
    // The suggestion carries the reason for the person; that the model's
    // result says only "approval required" is the policy's (core).
    let case = Case::new();
    let (hook, run) = one_hook(
        &case,
        "ask.sh",
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "ask", "permissionDecisionReason": "internal note for the user"}}),
    )
    .await;
    assert_eq!(
        pre_tool_use(&run.verdict)["suggestion"],
        suggestion(PermissionEffect::Ask, "internal note for the user", &hook)
    );
}

async fn two_suggestions(first: &str, second: &str) -> Value {
    let case = Case::new();
    let hooks: Vec<(&str, Option<&str>, Value)> = [("one.sh", first), ("two.sh", second)]
        .into_iter()
        .map(|(name, effect)| {
            let hook = printing(&case, name, json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                "permissionDecision": effect, "permissionDecisionReason": format!("{name} says {effect}")}}));
            ("PreToolUse", None, command(&hook))
        })
        .collect();
    let registry = case.registry(&hooks);
    let run = case.pre_tool_use(&registry, echo("hello")).await;
    pre_tool_use(&run.verdict)["suggestion"].clone()
}

#[tokio::test]
async fn allow_and_ask_from_two_hooks_merge_to_ask() {
    assert_eq!(
        two_suggestions("allow", "ask").await,
        suggestion(
            PermissionEffect::Ask,
            "two.sh says ask",
            "./.agenthub/hooks/two.sh"
        )
    );
}

#[tokio::test]
async fn ask_and_deny_from_two_hooks_merge_to_deny() {
    assert_eq!(
        two_suggestions("ask", "deny").await,
        suggestion(
            PermissionEffect::Deny,
            "two.sh says deny",
            "./.agenthub/hooks/two.sh"
        )
    );
}

#[tokio::test]
async fn defer_is_not_an_agenthub_decision_and_breaks_the_contract() {
    let case = Case::new();
    let (_, run) = one_hook(
        &case,
        "defer.sh",
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "defer"}}),
    )
    .await;
    assert_eq!(
        pre_tool_use(&run.verdict),
        json!({"contract_error": "PreToolUse hook \"./.agenthub/hooks/defer.sh\" broke its contract: hookSpecificOutput.permissionDecision must be \"allow\", \"ask\" or \"deny\", not \"defer\"", "context": []})
    );
}

#[tokio::test]
async fn updated_input_replaces_the_whole_input_and_dropped_keys_stay_dropped() {
    let case = Case::new();
    case.write("notes.txt", "one\ntwo\nthree\n");
    let hook = printing(
        &case,
        "rewrite.sh",
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "updatedInput": {"file_path": case.path("notes.txt")}}}),
    );
    let registry = case.registry(&[("PreToolUse", Some("Read"), command(&hook))]);
    let read = call(
        agenthub_tools::builtin::Read,
        "call_1",
        "Read",
        json!({"file_path": case.path("notes.txt"), "limit": 1}),
    );
    let run = case.pre_tool_use(&registry, read).await;
    assert_eq!(
        pre_tool_use(&run.verdict)["proceed"],
        json!({"file_path": case.path("notes.txt")})
    );
}

#[tokio::test]
async fn updated_input_the_schema_rejects_is_a_contract_error_and_the_tool_does_not_run() {
    let case = Case::new();
    let (_, run) = one_hook(
        &case,
        "bad.sh",
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"txt": "typo"}}}),
    )
    .await;
    let verdict = pre_tool_use(&run.verdict);
    assert_eq!(
        verdict["contract_error"]
            .as_str()
            .and_then(|message| message.split(": updated_input does not match").next()),
        Some("PreToolUse hook \"./.agenthub/hooks/bad.sh\" broke its contract")
    );
}

#[tokio::test]
async fn an_invalid_permission_decision_blocks_by_default_as_a_contract_error() {
    let case = Case::new();
    let (_, run) = one_hook(
        &case,
        "maybe.sh",
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "maybe"}}),
    )
    .await;
    assert_eq!(
        pre_tool_use(&run.verdict),
        json!({"contract_error": "PreToolUse hook \"./.agenthub/hooks/maybe.sh\" broke its contract: hookSpecificOutput.permissionDecision must be \"allow\", \"ask\" or \"deny\", not \"maybe\"", "context": []})
    );
}

#[tokio::test]
async fn an_invalid_permission_decision_with_on_failure_continue_lets_the_call_proceed() {
    let case = Case::new();
    let hook = printing(
        &case,
        "maybe.sh",
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "maybe"}}),
    );
    let mut spec = command(&hook);
    spec["onFailure"] = json!("continue");
    let registry = case.registry(&[("PreToolUse", None, spec)]);
    let run = case.pre_tool_use(&registry, echo("hello")).await;
    assert_eq!(
        (
            records(&run.records)[0]["outcome"].clone(),
            pre_tool_use(&run.verdict)
        ),
        (json!("hook_contract_error"), proceeds("hello"))
    );
}
