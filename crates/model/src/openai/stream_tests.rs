use super::*;
use crate::test_support::{fixture, replay};

/// Replays a fixture one byte at a time, so every multi-byte character is split.
fn byte_by_byte(name: &str) -> (Result<Vec<String>, ModelError>, ChatStream) {
    let mut stream = ChatStream::default();
    let deltas = replay(&fixture(name), 1, &mut stream);
    (deltas, stream)
}

#[test]
fn text_split_byte_by_byte_streams_whole_characters_and_ends_at_done() {
    let (deltas, stream) = byte_by_byte("openai_text.sse");
    assert_eq!(
        (deltas.unwrap(), stream.finish().unwrap()),
        (
            vec!["Héllo".to_owned(), ", wörld 🌍".to_owned()],
            AssistantReply {
                content: Some("Héllo, wörld 🌍".into()),
                tool_calls: vec![],
                usage: Some(Usage {
                    input_tokens: 9,
                    output_tokens: 4,
                    cache_read_tokens: 0,
                    cache_creation_tokens: 0
                }),
                stop_reason: Some(StopReason::EndTurn),
            }
        )
    );
}

#[test]
fn interleaved_parallel_calls_are_told_apart_by_index() {
    let (deltas, stream) = byte_by_byte("openai_parallel_tool_calls.sse");
    assert_eq!(
        (deltas.unwrap(), stream.finish().unwrap()),
        (
            vec!["Reading both.".to_owned()],
            AssistantReply {
                content: Some("Reading both.".into()),
                tool_calls: vec![
                    ToolCall::new("call_echo", "Echo", r#"{"text": "日本語"}"#),
                    ToolCall::new("call_read", "Read", r#"{"file_path": "notes/ça.txt"}"#),
                ],
                usage: Some(Usage {
                    input_tokens: 20,
                    output_tokens: 30,
                    cache_read_tokens: 0,
                    cache_creation_tokens: 0
                }),
                stop_reason: Some(StopReason::ToolUse),
            }
        )
    );
}

#[test]
fn object_arguments_missing_ids_and_index_and_no_done_are_tolerated() {
    let (deltas, stream) = byte_by_byte("openai_quirks.sse");
    assert_eq!(
        (deltas.unwrap(), stream.finish().unwrap()),
        (
            vec![],
            AssistantReply {
                content: None,
                tool_calls: vec![
                    ToolCall::new("", "Echo", r#"{"text":"one"}"#),
                    ToolCall::new("", "Echo", r#"{"text":"two"}"#),
                ],
                usage: None,
                stop_reason: Some(StopReason::ToolUse),
            }
        )
    );
}

#[test]
fn a_stream_cut_before_the_end_is_an_error() {
    let (deltas, stream) = byte_by_byte("openai_cut.sse");
    assert_eq!(
        (deltas.unwrap(), stream.finish()),
        (
            vec!["I will".to_owned()],
            Err(ModelError::Protocol(
                "the stream ended before the answer was complete (no finish_reason, no [DONE])"
                    .into()
            ))
        )
    );
}

#[test]
fn invalid_json_in_the_stream_is_quoted_in_the_error() {
    let (deltas, _) = byte_by_byte("openai_invalid_json.sse");
    assert_eq!(
        deltas,
        Err(ModelError::Protocol(
            r#"a stream event is not valid JSON (EOF while parsing an object at line 1 column 67): {"id":"chatcmpl-4","choices":[{"index":0,"delta":{"content":"there""#
                .into()
        ))
    );
}

#[test]
fn an_error_object_in_the_stream_carries_the_provider_message() {
    let (deltas, _) = byte_by_byte("openai_error_event.sse");
    assert_eq!(
        deltas,
        Err(ModelError::Provider(
            "The server had an error while processing your request".into()
        ))
    );
}

#[test]
fn a_call_without_arguments_gets_an_empty_object() {
    let mut stream = ChatStream::default();
    let body = concat!(
        "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"Glob\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\n",
        "data: [DONE]\n\n"
    );
    replay(body.as_bytes(), 7, &mut stream).unwrap();
    assert_eq!(
        stream.finish().unwrap().tool_calls,
        vec![ToolCall::new("c", "Glob", "{}")]
    );
}

#[test]
fn the_last_usage_chunk_gives_prompt_completion_and_cached_tokens() {
    let mut stream = ChatStream::default();
    let body = concat!(
        "data: {\"choices\":[{\"delta\":{\"content\":\"ok\"},\"finish_reason\":null}],\"usage\":{\"prompt_tokens\":100,\"completion_tokens\":1}}\n\n",
        "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":null}\n\n",
        "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":100,\"completion_tokens\":3,\"prompt_tokens_details\":{\"cached_tokens\":64}}}\n\n",
        "data: [DONE]\n\n"
    );
    replay(body.as_bytes(), 3, &mut stream).unwrap();
    assert_eq!(
        stream.finish().unwrap().usage,
        Some(Usage {
            input_tokens: 100,
            output_tokens: 3,
            cache_read_tokens: 64,
            cache_creation_tokens: 0
        })
    );
}

#[test]
fn a_reply_cut_at_the_output_limit_keeps_finish_reason_length_as_max_tokens() {
    let mut stream = ChatStream::default();
    let body = concat!(
        "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"Grep\",\"arguments\":\"{\\\"pattern\\\": \\\"fo\"}}]},\"finish_reason\":null}]}\n\n",
        "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"length\"}]}\n\n",
        "data: [DONE]\n\n"
    );
    replay(body.as_bytes(), 5, &mut stream).unwrap();
    assert_eq!(
        stream.finish().unwrap(),
        AssistantReply {
            content: None,
            tool_calls: vec![ToolCall::new("c", "Grep", r#"{"pattern": "fo"#)],
            usage: None,
            stop_reason: Some(StopReason::MaxTokens),
        }
    );
}

#[test]
fn finish_reasons_map_to_claude_code_stop_reasons_and_unknown_ones_to_none() {
    let mapped: Vec<Option<StopReason>> = ["stop", "tool_calls", "length", "content_filter", "eos"]
        .into_iter()
        .map(finish_reason)
        .collect();
    assert_eq!(
        mapped,
        vec![
            Some(StopReason::EndTurn),
            Some(StopReason::ToolUse),
            Some(StopReason::MaxTokens),
            Some(StopReason::Refusal),
            None
        ]
    );
}
