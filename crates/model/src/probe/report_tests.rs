use super::*;
use serde_json::json;

fn streamed(chunks: &[Value]) -> (Observation, Vec<bool>) {
    let mut observation = Observation {
        streamed: true,
        ..Observation::default()
    };
    let firsts = chunks
        .iter()
        .map(|chunk| observation.on_chunk(chunk))
        .collect();
    (observation, firsts)
}

#[test]
fn a_structured_call_is_seen_with_its_finish_reason_and_usage() {
    let (observation, firsts) = streamed(&[
        json!({"choices": [{"delta": {"role": "assistant"}}]}),
        json!({"choices": [{"delta": {"tool_calls": [{"index": 0, "id": "c", "function": {"name": "read_file", "arguments": ""}}]}}]}),
        json!({"choices": [{"delta": {"tool_calls": [{"index": 0, "function": {"arguments": "{}"}}]}, "finish_reason": "tool_calls"}]}),
        json!({"choices": [], "usage": {"prompt_tokens": 90, "completion_tokens": 12}}),
    ]);
    assert_eq!(
        (observation.clone(), firsts, observation.shape("read_file")),
        (
            Observation {
                streamed: true,
                text: String::new(),
                call_names: vec!["read_file".to_owned()],
                finish_reason: Some("tool_calls".to_owned()),
                output_tokens: Some(12),
            },
            vec![false, true, true, false],
            CallShape::Structured
        )
    );
}

#[test]
fn a_call_written_as_text_is_seen_as_text_and_another_tool_not_at_all() {
    let text = |content: &str| {
        Observation::from_body(&json!({"choices": [{"message": {"content": content}}]}))
    };
    assert_eq!(
        [
            text(
                "```json\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"notes.txt\"}}\n```"
            ),
            text("<tool_call>{\"name\": \"cat\", \"arguments\": {}}</tool_call>"),
            text("I cannot read files."),
        ]
        .map(|observation| observation.shape("read_file")),
        [CallShape::Text, CallShape::Absent, CallShape::Absent]
    );
}

fn report(tool_calls: CallShape, output_tokens: Option<u64>) -> ProbeReport {
    ProbeReport {
        base_url: "http://127.0.0.1:1/v1".to_owned(),
        model: "m".to_owned(),
        key_sent: false,
        max_tokens: 100,
        tool_calls,
        observation: Observation {
            output_tokens,
            ..Observation::default()
        },
        first_token: None,
        tokens_per_second: None,
    }
}

#[test]
fn each_protocol_works_or_names_the_one_that_would() {
    let protocols = [
        ToolProtocol::Native,
        ToolProtocol::Auto,
        ToolProtocol::React,
    ];
    let verdicts = [CallShape::Structured, CallShape::Text, CallShape::Absent]
        .map(|shape| protocols.map(|protocol| report(shape, None).verdict(protocol)));
    let fails = |instead| Verdict::Fails { instead };
    assert_eq!(
        verdicts,
        [
            [Verdict::Works, Verdict::Works, Verdict::Works],
            [fails(ToolProtocol::Auto), Verdict::Works, Verdict::Works],
            [
                fails(ToolProtocol::React),
                fails(ToolProtocol::React),
                Verdict::Works
            ],
        ]
    );
}

#[test]
fn max_tokens_is_honoured_when_the_reply_stays_within_it_and_unknown_without_usage() {
    assert_eq!(
        [Some(100), Some(101), None]
            .map(|tokens| report(CallShape::Absent, tokens).max_tokens_honoured()),
        [Some(true), Some(false), None]
    );
}

#[test]
fn the_rate_needs_tokens_and_time() {
    assert_eq!(
        [
            rate(Some(50), Some(Duration::from_secs(2))),
            rate(None, Some(Duration::from_secs(2))),
            rate(Some(50), Some(Duration::ZERO)),
        ],
        [Some(25.0), None, None]
    );
}
