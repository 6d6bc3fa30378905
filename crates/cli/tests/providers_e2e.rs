//! `agenthub run` against real-provider wire protocols served by a loopback
//! mock server started inside each test: a two-tool-call session (Echo, then
//! Read of a workspace file, then the answer) with the OpenAI provider, with
//! the Anthropic provider, and with the text ReAct protocol; plus the
//! configuration errors a new user meets first. No test touches the network.

mod support;

use serde_json::{json, Value};
use support::{agenthub, tool_record, user_record, Case, PROMPT};
use wiremock::matchers::{body_string_contains, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

/// Every variable that could point a run at a real provider, removed.
const PROVIDER_VARIABLES: [&str; 5] = [
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_BASE_URL",
    "AGENTHUB_MODEL",
];

const NOTES: &str = "hello from notes\n";
const READ_RESULT: &str = "     1\thello from notes\n";

/// `agenthub run` in the case's workspace with `flags`, no provider variables
/// from the caller's environment, and HOME inside the temp folder.
fn run_with(case: &Case, flags: &[&str]) -> assert_cmd::Command {
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

/// Runs the blocking command off the async runtime that serves the mock.
async fn finish(mut command: assert_cmd::Command) -> std::process::Output {
    tokio::task::spawn_blocking(move || command.output().unwrap())
        .await
        .unwrap()
}

fn sse(events: &[String]) -> ResponseTemplate {
    let body: String = events.iter().map(|event| format!("{event}\n\n")).collect();
    ResponseTemplate::new(200)
        .insert_header("content-type", "text/event-stream")
        .set_body_string(body)
}

/// Answers with `response` when the request body contains `marker`; a higher
/// `priority` (lower number) wins, so later turns are tried first.
async fn turn(
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

/// Exit code, stdout, and each `[Permission] Tool: effect` on stderr (the
/// reason's wording belongs to the permission engine): proof that every call
/// took the normal pipeline.
fn session_of(output: &std::process::Output) -> (Option<i32>, String, Vec<String>) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    let decisions = stderr
        .lines()
        .filter(|line| line.starts_with("[Permission]"))
        .map(|line| line.split(" (").next().unwrap_or(line).to_owned())
        .collect();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        decisions,
    )
}

fn decisions() -> Vec<String> {
    vec![
        "[Permission] Echo: allow".to_owned(),
        "[Permission] Read: allow".to_owned(),
    ]
}

fn text_of(output: &std::process::Output) -> (Option<i32>, String, String) {
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn assistant(content: Value, calls: &[(&str, &str, &str)]) -> Value {
    let tool_calls: Vec<Value> = calls
        .iter()
        .map(|(id, name, arguments)| {
            json!({"id": id, "type": "function", "function": {"name": name, "arguments": arguments}})
        })
        .collect();
    let mut message = json!({"role": "assistant", "content": content});
    if !tool_calls.is_empty() {
        message["tool_calls"] = Value::Array(tool_calls);
    }
    json!({"type": "message", "message": message})
}

// ---------------------------------------------------------------- OpenAI

fn openai_chunk(delta: Value, finish: Option<&str>) -> String {
    let chunk = json!({"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
    format!("data: {chunk}")
}

fn openai_call(id: &str, name: &str, arguments: &str, narration: Option<&str>) -> ResponseTemplate {
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

fn openai_text(pieces: &[&str]) -> ResponseTemplate {
    let mut events: Vec<String> = pieces
        .iter()
        .map(|piece| openai_chunk(json!({"content": piece}), None))
        .collect();
    events.push(openai_chunk(json!({}), Some("stop")));
    events.push(r#"data: {"choices":[],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}"#.to_owned());
    events.push("data: [DONE]".to_owned());
    sse(&events)
}

#[tokio::test]
async fn openai_session_runs_echo_then_read_and_streams_the_answer() {
    let case = Case::new();
    case.write("notes.txt", NOTES);
    let server = MockServer::start().await;
    let route = "/v1/chat/completions";
    turn(
        &server,
        route,
        PROMPT,
        3,
        openai_call("call_echo", "Echo", r#"{"text":"hi"}"#, Some("Echoing.")),
    )
    .await;
    turn(
        &server,
        route,
        r#""tool_call_id":"call_echo""#,
        2,
        openai_call("call_read", "Read", r#"{"file_path":"notes.txt"}"#, None),
    )
    .await;
    turn(
        &server,
        route,
        r#""tool_call_id":"call_read""#,
        1,
        openai_text(&["The file says ", "hello from notes."]),
    )
    .await;
    let base_url = format!("{}/v1", server.uri());
    let output = finish(run_with(
        &case,
        &["--model", "local-model", "--base-url", &base_url],
    ))
    .await;
    assert_eq!(
        session_of(&output),
        (
            Some(0),
            "Echoing.\nThe file says hello from notes.\n".to_owned(),
            decisions()
        )
    );
    assert_eq!(
        case.messages(),
        vec![
            user_record(),
            assistant(
                json!("Echoing."),
                &[("call_echo", "Echo", r#"{"text":"hi"}"#)]
            ),
            tool_record("call_echo", "hi"),
            assistant(
                Value::Null,
                &[("call_read", "Read", r#"{"file_path":"notes.txt"}"#)]
            ),
            tool_record("call_read", READ_RESULT),
            assistant(json!("The file says hello from notes."), &[]),
        ]
    );
}

#[tokio::test]
async fn the_base_url_may_come_from_the_environment_and_json_output_has_the_answer_once() {
    let case = Case::new();
    let server = MockServer::start().await;
    turn(
        &server,
        "/v1/chat/completions",
        PROMPT,
        1,
        openai_text(&["4", "2"]),
    )
    .await;
    let mut command = run_with(&case, &["--output-format", "json"]);
    command
        .env("OPENAI_BASE_URL", format!("{}/v1", server.uri()))
        .env("AGENTHUB_MODEL", "local-model");
    let output = finish(command).await;
    let printed: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        (
            output.status.code(),
            printed["status"].clone(),
            printed["result"].clone()
        ),
        (Some(0), json!("completed"), json!("42"))
    );
}

// ------------------------------------------------------------- Anthropic

fn anthropic_event(data: Value) -> String {
    format!(
        "event: {}\ndata: {data}",
        data["type"].as_str().unwrap_or("unknown")
    )
}

fn anthropic_message(blocks: Vec<Vec<Value>>, stop_reason: &str) -> ResponseTemplate {
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

fn anthropic_tool(index: usize, id: &str, name: &str, arguments: &str) -> Vec<Value> {
    let (head, tail) = arguments.split_at(arguments.len() / 2);
    vec![
        json!({"type": "content_block_start", "index": index, "content_block": {"type": "tool_use", "id": id, "name": name, "input": {}}}),
        json!({"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta", "partial_json": head}}),
        json!({"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta", "partial_json": tail}}),
        json!({"type": "content_block_stop", "index": index}),
    ]
}

fn anthropic_text(index: usize, pieces: &[&str]) -> Vec<Value> {
    let mut block = vec![
        json!({"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}}),
    ];
    block.extend(pieces.iter().map(|piece| {
        json!({"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": piece}})
    }));
    block.push(json!({"type": "content_block_stop", "index": index}));
    block
}

#[tokio::test]
async fn anthropic_session_runs_echo_then_read_and_streams_the_answer() {
    let case = Case::new();
    case.write("notes.txt", NOTES);
    let server = MockServer::start().await;
    let route = "/v1/messages";
    let first = anthropic_message(
        vec![
            anthropic_text(0, &["Echoing."]),
            anthropic_tool(1, "toolu_echo", "Echo", r#"{"text":"hi"}"#),
        ],
        "tool_use",
    );
    let second = anthropic_message(
        vec![anthropic_tool(
            0,
            "toolu_read",
            "Read",
            r#"{"file_path":"notes.txt"}"#,
        )],
        "tool_use",
    );
    let last = anthropic_message(
        vec![anthropic_text(0, &["The file says ", "hello from notes."])],
        "end_turn",
    );
    turn(&server, route, PROMPT, 3, first).await;
    turn(&server, route, r#""tool_use_id":"toolu_echo""#, 2, second).await;
    turn(&server, route, r#""tool_use_id":"toolu_read""#, 1, last).await;
    let output = finish(run_with(
        &case,
        &[
            "--provider",
            "anthropic",
            "--model",
            "claude-test",
            "--base-url",
            &server.uri(),
        ],
    ))
    .await;
    assert_eq!(
        session_of(&output),
        (
            Some(0),
            "Echoing.\nThe file says hello from notes.\n".to_owned(),
            decisions()
        )
    );
    assert_eq!(
        case.messages(),
        vec![
            user_record(),
            assistant(
                json!("Echoing."),
                &[("toolu_echo", "Echo", r#"{"text":"hi"}"#)]
            ),
            tool_record("toolu_echo", "hi"),
            assistant(
                Value::Null,
                &[("toolu_read", "Read", r#"{"file_path":"notes.txt"}"#)]
            ),
            tool_record("toolu_read", READ_RESULT),
            assistant(json!("The file says hello from notes."), &[]),
        ]
    );
}

// ----------------------------------------------------------------- ReAct

#[tokio::test]
async fn react_session_parses_actions_into_calls_that_take_the_normal_pipeline() {
    let case = Case::new();
    case.write("notes.txt", NOTES);
    let server = MockServer::start().await;
    let route = "/v1/chat/completions";
    let echo = "Thought: echo first\nAction: Echo\nAction Input: {\"text\": \"hi\"}";
    let read = "Thought: now the file\nAction: Read\nAction Input: {\"file_path\": \"notes.txt\"}";
    let answer = "Thought: done\nFinal Answer: The file says hello from notes.";
    turn(&server, route, PROMPT, 3, openai_text(&[echo])).await;
    turn(&server, route, "Observation: hi", 2, openai_text(&[read])).await;
    turn(
        &server,
        route,
        "Observation:      1\\thello from notes",
        1,
        openai_text(&[answer]),
    )
    .await;
    let base_url = format!("{}/v1", server.uri());
    let output = finish(run_with(
        &case,
        &[
            "--model",
            "local-model",
            "--base-url",
            &base_url,
            "--tool-protocol",
            "react",
        ],
    ))
    .await;
    assert_eq!(
        session_of(&output),
        (
            Some(0),
            "The file says hello from notes.\n".to_owned(),
            decisions()
        )
    );
    assert_eq!(
        case.messages(),
        vec![
            user_record(),
            assistant(
                json!("echo first"),
                &[("react_call_1", "Echo", r#"{"text":"hi"}"#)]
            ),
            tool_record("react_call_1", "hi"),
            assistant(
                json!("now the file"),
                &[("react_call_2", "Read", r#"{"file_path":"notes.txt"}"#)]
            ),
            tool_record("react_call_2", READ_RESULT),
            assistant(json!("The file says hello from notes."), &[]),
        ]
    );
    let requests = server.received_requests().await.unwrap();
    let first: Value = requests[0].body_json().unwrap();
    assert_eq!(
        (first.get("tools"), first["messages"][0]["role"].clone()),
        (None, json!("system"))
    );
}

// ------------------------------------------------------------ configuration

#[test]
fn a_remote_endpoint_without_a_key_exits_2_naming_the_variable() {
    let case = Case::new();
    let output = run_with(&case, &["--model", "gpt-4o"]).output().unwrap();
    assert_eq!(
        text_of(&output),
        (
            Some(2),
            String::new(),
            "agenthub: Missing required settings: OPENAI_API_KEY\n".to_owned()
        )
    );
}

#[test]
fn no_model_at_all_exits_2_naming_the_missing_setting() {
    let case = Case::new();
    let output = run_with(&case, &[]).output().unwrap();
    assert_eq!(
        text_of(&output),
        (
            Some(2),
            String::new(),
            "agenthub: Missing required settings: model (pass --model NAME, set AGENTHUB_MODEL or the settings key \"model\"; or use --script FILE for the offline scripted model)\n".to_owned()
        )
    );
}

#[tokio::test]
async fn a_provider_error_fails_the_run_with_its_status_and_message() {
    let case = Case::new();
    let server = MockServer::start().await;
    let body = json!({"error": {"message": "model 'nope' not found"}});
    turn(
        &server,
        "/v1/chat/completions",
        PROMPT,
        1,
        ResponseTemplate::new(404).set_body_json(body),
    )
    .await;
    let base_url = format!("{}/v1", server.uri());
    let output = finish(run_with(
        &case,
        &["--model", "nope", "--base-url", &base_url],
    ))
    .await;
    assert_eq!(
        text_of(&output),
        (
            Some(1),
            String::new(),
            "agenthub: run failed: model request failed: the provider answered 404: model 'nope' not found\n".to_owned()
        )
    );
}
