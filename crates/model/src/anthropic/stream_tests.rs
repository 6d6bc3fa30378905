use super::*;
use crate::test_support::{fixture, replay};

fn byte_by_byte(name: &str) -> (Result<Vec<String>, ModelError>, MessagesStream) {
    let mut stream = MessagesStream::default();
    let deltas = replay(&fixture(name), 1, &mut stream);
    (deltas, stream)
}

#[test]
fn text_split_byte_by_byte_streams_whole_characters_until_message_stop() {
    let (deltas, stream) = byte_by_byte("anthropic_text.sse");
    assert_eq!(
        (deltas.unwrap(), stream.finish().unwrap()),
        (
            vec!["Héllo".to_owned(), ", wörld 🌍".to_owned()],
            AssistantReply {
                content: Some("Héllo, wörld 🌍".into()),
                tool_calls: vec![],
                usage: Some(Usage {
                    input_tokens: 10,
                    output_tokens: 6,
                    cache_read_tokens: 0,
                    cache_creation_tokens: 0
                }),
                stop_reason: Some(StopReason::EndTurn),
            }
        )
    );
}

#[test]
fn tool_use_blocks_collect_their_input_json_deltas_and_thinking_is_skipped() {
    let (deltas, stream) = byte_by_byte("anthropic_tool_use.sse");
    assert_eq!(
        (deltas.unwrap(), stream.finish().unwrap()),
        (
            vec!["Reading both.".to_owned()],
            AssistantReply {
                content: Some("Reading both.".into()),
                tool_calls: vec![
                    ToolCall::new("toolu_echo", "Echo", r#"{"text": "日本語"}"#),
                    ToolCall::new("toolu_list", "Glob", "{}"),
                ],
                usage: Some(Usage {
                    input_tokens: 30,
                    output_tokens: 40,
                    cache_read_tokens: 0,
                    cache_creation_tokens: 0
                }),
                stop_reason: Some(StopReason::ToolUse),
            }
        )
    );
}

#[test]
fn a_stream_cut_before_message_stop_is_an_error() {
    let (deltas, stream) = byte_by_byte("anthropic_cut.sse");
    assert_eq!(
        (deltas.unwrap(), stream.finish()),
        (
            vec!["I was about to".to_owned()],
            Err(ModelError::Protocol(
                "the stream ended before the answer was complete (no message_stop)".into()
            ))
        )
    );
}

#[test]
fn invalid_json_in_the_stream_is_quoted_in_the_error() {
    let (deltas, _) = byte_by_byte("anthropic_invalid_json.sse");
    assert_eq!(
        deltas,
        Err(ModelError::Protocol(
            r#"a stream event is not valid JSON (EOF while parsing a value at line 1 column 76): {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"#
                .into()
        ))
    );
}

#[test]
fn an_error_event_carries_the_provider_message() {
    let (deltas, _) = byte_by_byte("anthropic_error_event.sse");
    assert_eq!(deltas, Err(ModelError::Provider("Overloaded".into())));
}

#[test]
fn a_tool_input_given_whole_at_block_start_is_used() {
    let mut stream = MessagesStream::default();
    let body = concat!(
        "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"Echo\",\"input\":{\"text\":\"whole\"}}}\n\n",
        "data: {\"type\":\"message_stop\"}\n\n"
    );
    replay(body.as_bytes(), 5, &mut stream).unwrap();
    assert_eq!(
        stream.finish().unwrap().tool_calls,
        vec![ToolCall::new("t", "Echo", r#"{"text":"whole"}"#)]
    );
}

#[test]
fn usage_counts_cache_reads_and_writes_as_input_and_apart_and_takes_the_final_output_count() {
    let mut stream = MessagesStream::default();
    let body = concat!(
        "data: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":12,\"cache_read_input_tokens\":80,\"cache_creation_input_tokens\":8,\"output_tokens\":1}}}\n\n",
        "data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":25}}\n\n",
        "data: {\"type\":\"message_stop\"}\n\n"
    );
    replay(body.as_bytes(), 4, &mut stream).unwrap();
    assert_eq!(
        stream.finish().unwrap().usage,
        Some(Usage {
            input_tokens: 100,
            output_tokens: 25,
            cache_read_tokens: 80,
            cache_creation_tokens: 8
        })
    );
}

#[test]
fn a_stream_without_usage_has_none() {
    let mut stream = MessagesStream::default();
    replay(b"data: {\"type\":\"message_stop\"}\n\n", 4, &mut stream).unwrap();
    assert_eq!(stream.finish().unwrap().usage, None);
}

#[test]
fn a_reply_cut_at_max_tokens_keeps_its_stop_reason() {
    let mut stream = MessagesStream::default();
    let body = concat!(
        "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"The answer is\"}}\n\n",
        "data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"max_tokens\"}}\n\n",
        "data: {\"type\":\"message_stop\"}\n\n"
    );
    replay(body.as_bytes(), 6, &mut stream).unwrap();
    assert_eq!(
        stream.finish().unwrap(),
        AssistantReply {
            content: Some("The answer is".into()),
            tool_calls: vec![],
            usage: None,
            stop_reason: Some(StopReason::MaxTokens),
        }
    );
}
