//! `agenthub run` against real-provider wire protocols served by a loopback
//! mock server started inside each test: a two-tool-call session (Glob, then
//! Read of a workspace file, then the answer) with the OpenAI provider, with
//! the Anthropic provider, and with the text ReAct protocol. No test touches
//! the network.

use crate::support;
use crate::support::provider_wire;

use provider_wire::{
    anthropic_message, anthropic_text, anthropic_tool, finish, openai_call, openai_text,
    run_against, run_with, turn,
};
use serde_json::{json, Value};
use support::{tool_record, user_record, Case, PROMPT};
use wiremock::MockServer;

const NOTES: &str = "hello from notes\n";
const READ_RESULT: &str = "     1\thello from notes\n";

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
        "[Permission] Glob: allow".to_owned(),
        "[Permission] Read: allow".to_owned(),
    ]
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

#[tokio::test]
async fn openai_session_runs_glob_then_read_and_streams_the_answer() {
    let case = Case::new();
    case.write("notes.txt", NOTES);
    let server = MockServer::start().await;
    let route = "/v1/chat/completions";
    turn(
        &server,
        route,
        PROMPT,
        3,
        openai_call(
            "call_glob",
            "Glob",
            r#"{"pattern":"*.txt"}"#,
            Some("Looking."),
        ),
    )
    .await;
    turn(
        &server,
        route,
        r#""tool_call_id":"call_glob""#,
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
            "Looking.\nThe file says hello from notes.\n".to_owned(),
            decisions()
        )
    );
    assert_eq!(
        case.messages(),
        vec![
            user_record(),
            assistant(
                json!("Looking."),
                &[("call_glob", "Glob", r#"{"pattern":"*.txt"}"#)]
            ),
            tool_record("call_glob", &case.path("notes.txt")),
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
async fn a_response_larger_than_32_mib_ends_the_run_with_a_clear_error() {
    let case = Case::new();
    let server = MockServer::start().await;
    let endless_line = format!("data: {}", "a".repeat(40 * 1024 * 1024));
    let response = wiremock::ResponseTemplate::new(200)
        .insert_header("content-type", "text/event-stream")
        .set_body_string(endless_line);
    turn(&server, "/v1/chat/completions", PROMPT, 1, response).await;
    let command = run_against(&case, &server, "m", &["--output-format", "json"]);
    let output = finish(command).await;
    let printed: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        (printed["status"].clone(), printed["error"].clone()),
        (
            json!("failed"),
            json!(
                "model request failed: the provider's answer could not be read: \
                 the provider's response is larger than 32 MiB; AgentHub stopped reading it"
            )
        )
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

#[tokio::test]
async fn a_subagent_definitions_model_is_requested_from_the_parents_provider() {
    let case = Case::new();
    case.write(
        "../.claude/agents/reviewer.md",
        "---\nname: reviewer\ndescription: reviews\nmodel: small-model\n---\nYou review.\n",
    );
    let server = MockServer::start().await;
    let route = "/v1/chat/completions";
    let task = r#"{"description":"review","prompt":"review it","subagent_type":"reviewer"}"#;
    turn(
        &server,
        route,
        PROMPT,
        3,
        openai_call("call_task", "Task", task, None),
    )
    .await;
    turn(
        &server,
        route,
        r#""model":"small-model""#,
        2,
        openai_text(&["looks fine"]),
    )
    .await;
    turn(
        &server,
        route,
        r#""tool_call_id":"call_task""#,
        1,
        openai_text(&["done"]),
    )
    .await;
    let output = finish(run_against(
        &case,
        &server,
        "local-model",
        &["--allow", "Task"],
    ))
    .await;
    let task_results: Vec<Value> = case
        .messages()
        .into_iter()
        .filter(|record| record["message"]["role"] == "tool")
        .collect();
    assert_eq!(
        (output.status.code(), task_results),
        (Some(0), vec![tool_record("call_task", "looks fine")])
    );
}

// ------------------------------------------------------------- Anthropic

#[tokio::test]
async fn anthropic_session_runs_glob_then_read_and_streams_the_answer() {
    let case = Case::new();
    case.write("notes.txt", NOTES);
    let server = MockServer::start().await;
    let route = "/v1/messages";
    let first = anthropic_message(
        vec![
            anthropic_text(0, &["Looking."]),
            anthropic_tool(1, "toolu_glob", "Glob", r#"{"pattern":"*.txt"}"#),
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
    turn(&server, route, r#""tool_use_id":"toolu_glob""#, 2, second).await;
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
            "Looking.\nThe file says hello from notes.\n".to_owned(),
            decisions()
        )
    );
    assert_eq!(
        case.messages(),
        vec![
            user_record(),
            assistant(
                json!("Looking."),
                &[("toolu_glob", "Glob", r#"{"pattern":"*.txt"}"#)]
            ),
            tool_record("toolu_glob", &case.path("notes.txt")),
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
    let glob = "Thought: glob first\nAction: Glob\nAction Input: {\"pattern\": \"*.txt\"}";
    let read = "Thought: now the file\nAction: Read\nAction Input: {\"file_path\": \"notes.txt\"}";
    let answer = "Thought: done\nFinal Answer: The file says hello from notes.";
    turn(&server, route, PROMPT, 3, openai_text(&[glob])).await;
    let listed = format!("Observation: {}", case.path("notes.txt"));
    turn(&server, route, &listed, 2, openai_text(&[read])).await;
    turn(
        &server,
        route,
        "Observation:      1\\thello from notes",
        1,
        openai_text(&[answer]),
    )
    .await;
    let output = finish(run_against(
        &case,
        &server,
        "local-model",
        &["--tool-protocol", "react"],
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
                json!("glob first"),
                &[("react_call_1", "Glob", r#"{"pattern":"*.txt"}"#)]
            ),
            tool_record("react_call_1", &case.path("notes.txt")),
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
