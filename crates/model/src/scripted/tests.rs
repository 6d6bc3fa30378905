//! Tests of the scripted model: replay, substitution, and malformed scripts.

use super::*;
use crate::NoModelEvents;

async fn ask(model: &ScriptedModel, history: &[Message]) -> Result<AssistantReply, ModelError> {
    let request = ModelRequest {
        messages: history,
        tools: &[],
        purpose: RequestPurpose::Turn,
    };
    model
        .complete(request, &NoModelEvents, &CancellationToken::new())
        .await
}

#[tokio::test]
async fn turns_are_replayed_in_order_with_object_and_raw_arguments() {
    let model = ScriptedModel::from_json(
        "s.json",
        r#"{"turns": [
            {"content": "one", "tool_calls": [
                {"id": "a", "name": "Echo", "arguments": {"text": "x"}},
                {"name": "Echo", "arguments": "{not json"}]},
            {"content": "two"}]}"#,
    )
    .unwrap();
    assert_eq!(
        ask(&model, &[]).await.unwrap(),
        AssistantReply {
            content: Some("one".into()),
            tool_calls: vec![
                ToolCall::new("a", "Echo", r#"{"text":"x"}"#),
                ToolCall::new("call_1_2", "Echo", "{not json"),
            ],
            usage: None,
            stop_reason: None,
        }
    );
    assert_eq!(
        ask(&model, &[]).await.unwrap().content.as_deref(),
        Some("two")
    );
}

#[tokio::test]
async fn last_tool_result_is_substituted_from_the_latest_tool_message() {
    let model = ScriptedModel::from_json(
        "s.json",
        r#"{"turns": [{"content": "got {{last_tool_result}}"}]}"#,
    )
    .unwrap();
    let history = [Message::tool("a", "first"), Message::tool("b", "second")];
    assert_eq!(
        ask(&model, &history).await.unwrap().content.as_deref(),
        Some("got second")
    );
}

#[tokio::test]
async fn running_out_of_turns_is_a_clear_error() {
    let model = ScriptedModel::from_json("s.json", r#"{"turns": []}"#).unwrap();
    assert_eq!(
        ask(&model, &[]).await,
        Err(ModelError::ScriptExhausted {
            file: "s.json".into(),
            request: 1,
            turns: 0
        })
    );
}

#[test]
fn a_malformed_script_names_the_json_path() {
    let error = ScriptedModel::from_json(
        "s.json",
        r#"{"turns": [{"content": "x", "tool_calls": [{"id": "a"}]}]}"#,
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "malformed script s.json at $.turns[0].tool_calls[0]: missing field `name` at line 1 column 54"
    );
}

#[test]
fn arguments_that_are_neither_object_nor_string_are_rejected() {
    let error = ScriptedModel::from_json(
        "s.json",
        r#"{"turns": [{"tool_calls": [{"name": "Echo", "arguments": 3}]}]}"#,
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "malformed script s.json at $.turns[0].tool_calls[0].arguments: expected a JSON object or a string"
    );
}

#[test]
fn two_calls_of_one_turn_with_the_same_id_are_a_malformed_script() {
    let error = ScriptedModel::from_json(
        "s.json",
        r#"{"turns": [{"content": "ok"}, {"tool_calls": [
            {"id": "x", "name": "Echo", "arguments": {"text": "a"}},
            {"id": "x", "name": "Echo", "arguments": {"text": "b"}}]}]}"#,
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "malformed script s.json at $.turns[1].tool_calls[1].id: the id \"x\" is already used by an earlier call of this turn; each call of a turn needs its own id"
    );
}

#[test]
fn an_explicit_id_equal_to_a_generated_one_in_its_turn_is_a_malformed_script() {
    let error = ScriptedModel::from_json(
        "s.json",
        r#"{"turns": [{"tool_calls": [
            {"id": "call_1_2", "name": "Echo", "arguments": {"text": "a"}},
            {"name": "Echo", "arguments": {"text": "b"}}]}]}"#,
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "malformed script s.json at $.turns[0].tool_calls[1].id: the id \"call_1_2\" is already used by an earlier call of this turn; each call of a turn needs its own id"
    );
}

#[test]
fn the_same_id_in_two_turns_is_allowed() {
    let model = ScriptedModel::from_json(
        "s.json",
        r#"{"turns": [
            {"tool_calls": [{"id": "call_1", "name": "Echo", "arguments": {"text": "a"}}]},
            {"tool_calls": [{"id": "call_1", "name": "Echo", "arguments": {"text": "b"}}]}]}"#,
    );
    assert_eq!(model.map(|model| model.turns().len()).ok(), Some(2));
}

#[test]
fn a_script_may_carry_the_prompt_it_was_written_for() {
    let model = ScriptedModel::from_json("s.json", r#"{"prompt": "say hi", "turns": []}"#).unwrap();
    assert_eq!(model.prompt(), Some("say hi"));
}

#[test]
fn text_that_is_not_json_is_reported_with_its_line_and_column() {
    let error = ScriptedModel::from_json("s.json", "{\"turns\": [").unwrap_err();
    assert_eq!(
        error.to_string(),
        "script s.json is not valid JSON: EOF while parsing a list at line 1 column 11"
    );
}

#[test]
fn a_script_that_is_not_an_object_says_what_was_expected() {
    let error = ScriptedModel::from_json("s.json", "[]").unwrap_err();
    assert_eq!(
        error.to_string(),
        "malformed script s.json at $: invalid length 1, expected an object {\"turns\": [...]} at line 1 column 2"
    );
}

#[test]
fn a_turn_that_is_not_an_object_names_its_path() {
    let error = ScriptedModel::from_json("s.json", r#"{"turns": [3]}"#).unwrap_err();
    assert_eq!(
        error.to_string(),
        "malformed script s.json at $.turns[0]: invalid type: integer `3`, expected a turn object {\"content\": ..., \"tool_calls\": [...], \"usage\": {...}} at line 1 column 12"
    );
}

async fn summarize(model: &ScriptedModel, history: &[Message]) -> Option<String> {
    let request = ModelRequest::summary(history);
    let reply = model
        .complete(request, &NoModelEvents, &CancellationToken::new())
        .await;
    reply.ok().and_then(|reply| reply.content)
}

#[tokio::test]
async fn summary_requests_take_the_scripts_summaries_in_order_without_using_a_turn() {
    let model = ScriptedModel::from_json(
        "s.json",
        r#"{"turns": [{"content": "done"}], "summaries": ["first", "second"]}"#,
    )
    .unwrap();
    let history = [Message::user("task"), Message::user("summarise")];
    let summaries = (
        summarize(&model, &history).await,
        summarize(&model, &history).await,
    );
    let answer = ask(&model, &history)
        .await
        .ok()
        .and_then(|reply| reply.content);
    assert_eq!(
        (summaries, answer),
        (
            (Some("first".to_owned()), Some("second".to_owned())),
            Some("done".to_owned())
        )
    );
}

#[tokio::test]
async fn without_scripted_summaries_the_summary_is_built_from_the_history() {
    let model = ScriptedModel::new("s", Vec::new());
    let history = [
        Message::user("fix the bug"),
        Message::Assistant {
            content: None,
            tool_calls: vec![ToolCall::new("c1", "Read", "{}")],
        },
        Message::tool("c1", "text"),
        Message::assistant_text("fixed"),
        Message::user("summarise"),
    ];
    assert_eq!(
        summarize(&model, &history).await.as_deref(),
        Some(
            "Summary of 4 earlier messages: the conversation began with <fix the bug>; \
             1 user messages, 1 tool calls, 1 tool results."
        )
    );
}

#[tokio::test]
async fn a_built_summary_of_a_long_prompt_quotes_only_its_start_so_summaries_never_grow() {
    let model = ScriptedModel::new("s", Vec::new());
    let history = [Message::user("p".repeat(1000)), Message::user("summarise")];
    let summary = summarize(&model, &history).await.unwrap_or_default();
    assert_eq!(
        summary,
        format!(
            "Summary of 1 earlier messages: the conversation began with <{}>; \
             1 user messages, 0 tool calls, 0 tool results.",
            "p".repeat(200)
        )
    );
}

#[tokio::test]
async fn a_turn_reports_the_usage_its_script_gives_it() {
    let model = ScriptedModel::from_json(
        "s.json",
        r#"{"turns": [{"content": "hi", "usage": {"input_tokens": 12, "output_tokens": 3}}]}"#,
    )
    .unwrap();
    let history = [Message::user("q")];
    let request = ModelRequest {
        messages: &history,
        tools: &[],
        purpose: RequestPurpose::Turn,
    };
    let reply = model
        .complete(request, &crate::NoModelEvents, &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(
        reply.usage,
        Some(agenthub_protocol::Usage {
            input_tokens: 12,
            output_tokens: 3,
            ..Default::default()
        })
    );
}

#[tokio::test]
async fn a_turn_may_report_a_stop_reason_and_usage() {
    let model = ScriptedModel::from_json(
        "s.json",
        r#"{"turns": [{"content": "The answer is", "stop_reason": "max_tokens",
                       "usage": {"input_tokens": 10, "output_tokens": 4}}]}"#,
    )
    .unwrap();
    let reply = ask(&model, &[]).await.unwrap();
    assert_eq!(
        (
            reply.content,
            reply.stop_reason,
            reply.usage.map(|u| u.output_tokens)
        ),
        (
            Some("The answer is".to_owned()),
            Some(agenthub_protocol::StopReason::MaxTokens),
            Some(4)
        )
    );
}
