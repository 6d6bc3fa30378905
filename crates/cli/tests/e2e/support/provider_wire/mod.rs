//! Loopback provider wire for the end-to-end tests: SSE answers in the shapes of
//! OpenAI Chat Completions and Anthropic Messages, and mocks that pick the
//! answer by what the request body contains (so each turn proves the previous
//! tool results were sent back), and the one command line every provider test
//! runs, cleared of the caller's provider variables.

use crate::support::{agenthub, Case, PROMPT};
use serde_json::{json, Value};
use wiremock::matchers::{body_string_contains, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

pub fn sse(events: &[String]) -> ResponseTemplate {
    let body: String = events.iter().map(|event| format!("{event}\n\n")).collect();
    ResponseTemplate::new(200)
        .insert_header("content-type", "text/event-stream")
        .set_body_string(body)
}

/// Answers with `response` when the request body contains `marker`; a higher
/// `priority` (lower number) wins, so later turns are tried first.
pub async fn turn(
    server: &MockServer,
    route: &str,
    marker: &str,
    priority: u8,
    response: ResponseTemplate,
) {
    Mock::given(method("POST"))
        .and(path(route))
        .and(body_string_contains(marker))
        .respond_with(response)
        .with_priority(priority)
        .mount(server)
        .await;
}

pub fn openai_chunk(delta: Value, finish: Option<&str>) -> String {
    let chunk = json!({"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
    format!("data: {chunk}")
}

pub fn openai_call(
    id: &str,
    name: &str,
    arguments: &str,
    narration: Option<&str>,
) -> ResponseTemplate {
    let mut events = Vec::new();
    if let Some(text) = narration {
        events.push(openai_chunk(
            json!({"role": "assistant", "content": text}),
            None,
        ));
    }
    let (head, tail) = arguments.split_at(arguments.len() / 2);
    events.push(openai_chunk(
        json!({"tool_calls": [{"index": 0, "id": id, "type": "function", "function": {"name": name, "arguments": head}}]}),
        None,
    ));
    events.push(openai_chunk(
        json!({"tool_calls": [{"index": 0, "function": {"arguments": tail}}]}),
        None,
    ));
    events.push(openai_chunk(json!({}), Some("tool_calls")));
    events.push("data: [DONE]".to_owned());
    sse(&events)
}

pub fn openai_text(pieces: &[&str]) -> ResponseTemplate {
    let mut events: Vec<String> = pieces
        .iter()
        .map(|piece| openai_chunk(json!({"content": piece}), None))
        .collect();
    events.push(openai_chunk(json!({}), Some("stop")));
    events.push(r#"data: {"choices":[],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}"#.to_owned());
    events.push("data: [DONE]".to_owned());
    sse(&events)
}

pub fn anthropic_event(data: Value) -> String {
    format!(
        "event: {}\ndata: {data}",
        data["type"].as_str().unwrap_or("unknown")
    )
}

pub fn anthropic_message(blocks: Vec<Vec<Value>>, stop_reason: &str) -> ResponseTemplate {
    let mut events = vec![anthropic_event(
        json!({"type": "message_start", "message": {"id": "msg", "usage": {"input_tokens": 1}}}),
    )];
    for block in blocks {
        events.extend(block.into_iter().map(anthropic_event));
    }
    events.push(anthropic_event(
        json!({"type": "message_delta", "delta": {"stop_reason": stop_reason}}),
    ));
    events.push(anthropic_event(json!({"type": "message_stop"})));
    sse(&events)
}

pub fn anthropic_tool(index: usize, id: &str, name: &str, arguments: &str) -> Vec<Value> {
    let (head, tail) = arguments.split_at(arguments.len() / 2);
    vec![
        json!({"type": "content_block_start", "index": index, "content_block": {"type": "tool_use", "id": id, "name": name, "input": {}}}),
        json!({"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta", "partial_json": head}}),
        json!({"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta", "partial_json": tail}}),
        json!({"type": "content_block_stop", "index": index}),
    ]
}

pub fn anthropic_text(index: usize, pieces: &[&str]) -> Vec<Value> {
    let mut block = vec![
        json!({"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}}),
    ];
    block.extend(pieces.iter().map(|piece| {
        json!({"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": piece}})
    }));
    block.push(json!({"type": "content_block_stop", "index": index}));
    block
}

/// Every variable that could point a run at a real provider, removed.
pub const PROVIDER_VARIABLES: [&str; 5] = [
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_BASE_URL",
    "AGENTHUB_MODEL",
];

/// `agenthub run` in the case's workspace with `flags`, no provider variables
/// from the caller's environment, and HOME inside the temp folder.
pub fn run_with(case: &Case, flags: &[&str]) -> assert_cmd::Command {
    let mut command = agenthub();
    for variable in PROVIDER_VARIABLES {
        command.env_remove(variable);
    }
    command
        .env("HOME", case.workspace().join(".."))
        .arg("run")
        .arg("--workspace")
        .arg(case.workspace())
        .arg("--transcript")
        .arg(case.transcript_path())
        .args(flags)
        .arg(PROMPT);
    command
}

/// [`run_with`] against the OpenAI-compatible loopback `server` as `model`,
/// then `flags`.
pub fn run_against(
    case: &Case,
    server: &MockServer,
    model: &str,
    flags: &[&str],
) -> assert_cmd::Command {
    let base_url = format!("{}/v1", server.uri());
    let mut all = vec!["--model", model, "--base-url", &base_url];
    all.extend_from_slice(flags);
    run_with(case, &all)
}

/// Runs the blocking command off the async runtime that serves the mock.
pub async fn finish(mut command: assert_cmd::Command) -> std::process::Output {
    tokio::task::spawn_blocking(move || command.output().unwrap())
        .await
        .unwrap()
}

/// Exit code, stdout and stderr.
pub fn text_of(output: &std::process::Output) -> (Option<i32>, String, String) {
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}
