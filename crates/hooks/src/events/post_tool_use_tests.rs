//! PostToolUse's stdin and verdict.
use super::*;
use agenthub_tools::builtin::Echo;
use agenthub_tools::ToolDefinition;
use serde_json::json;
use std::sync::Arc;

/// The stdin JSON a command hook of the context's event is given.
fn stdin(context: &PostToolUseContext) -> Value {
    serde_json::to_value(input(context)).unwrap()
}

fn context(structured: Option<Value>) -> PostToolUseContext {
    let definition = Arc::new(ToolDefinition::new(Echo).unwrap());
    PostToolUseContext {
        common: HookCommon::sample("/ws"),
        call: PreparedCall::from_parts("c1", "Echo", definition, json!({"text": "hi"})),
        result: ToolOutcome::succeeded("hi".into(), structured, Duration::from_millis(3)),
    }
}

#[test]
fn post_tool_use_tool_response_is_the_structured_result_when_there_is_one() {
    let payload = stdin(&context(Some(json!({"text": "hi"}))));
    assert_eq!(payload["tool_response"], json!({"text": "hi"}));
}

#[test]
fn post_tool_use_tool_response_is_the_text_without_a_structured_result() {
    let payload = stdin(&context(None));
    assert_eq!(payload["tool_response"], json!("hi"));
}

#[test]
fn post_tool_use_failure_error_is_the_tools_own_message_unchanged() {
    let message = "disk full: Error [tool_error]: nested ]: text";
    let mut failed = context(None);
    failed.result = ToolOutcome::failed(
        agenthub_tools::ToolError::new(message),
        Duration::from_millis(3),
    );
    let payload = stdin(&failed);
    assert_eq!(
        (
            &payload["hook_event_name"],
            &payload["error"],
            payload.get("tool_response")
        ),
        (&json!("PostToolUseFailure"), &json!(message), None)
    );
}

#[test]
fn post_tool_use_failure_error_stays_the_tools_after_an_earlier_hook_rewrote_the_output() {
    let mut failed = context(None);
    failed.result = ToolOutcome {
        output: "a friendlier text".into(),
        ..ToolOutcome::failed(
            agenthub_tools::ToolError::new("permission bits"),
            Duration::from_millis(3),
        )
    };
    assert_eq!(stdin(&failed)["error"], json!("permission bits"));
}

#[tokio::test]
async fn the_verdict_keeps_the_structured_result_until_a_hook_replaces_the_output() {
    let structured = Some(json!({"text": "hi"}));
    let verdict = |hooks: HookRegistry| async move {
        let context = context(Some(json!({"text": "hi"})));
        hooks
            .run_post_tool_use(context.common, context.call, context.result)
            .await
            .verdict
            .structured
    };
    let noting =
        HookRegistry::new().post_tool_use("note", |_| async { Ok(PostToolUseResult::default()) });
    let replacing = HookRegistry::new().post_tool_use("replace", |_| async {
        Ok(PostToolUseResult::replace_output("other"))
    });
    assert_eq!(
        (verdict(noting).await, verdict(replacing).await),
        (structured, None)
    );
}
