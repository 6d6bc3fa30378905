//! Contract §33 through `agenthub run` against a loopback OpenAI-compatible
//! server that misbehaves as small local servers do: a reply cut at the
//! output limit (`finish_reason: "length"`), a stall, a 503 while the model
//! loads, a call of a tool that does not exist, an empty answer. Each is
//! named on stderr; a cut reply is never taken as the answer.

use crate::support;
use crate::support::provider_wire;

use provider_wire::{
    finish, openai_call, openai_chunk, openai_text, run_against, run_with, sse, turn,
};
use serde_json::{json, Value};
use std::time::Duration;
use support::Case;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const ROUTE: &str = "/v1/chat/completions";

/// What the continuation request carries (the loop's own words).
const CONTINUE_MARKER: &str = "cut off at the output token limit";

/// A reply of `text` cut at the output limit, as llama.cpp sends it.
fn cut_text(text: &str) -> ResponseTemplate {
    sse(&[
        openai_chunk(json!({"role": "assistant", "content": text}), None),
        openai_chunk(json!({}), Some("length")),
        "data: [DONE]".to_owned(),
    ])
}

async fn provider_run(case: &Case, server: &MockServer, flags: &[&str]) -> std::process::Output {
    let base_url = format!("{}/v1", server.uri());
    let mut all = vec!["--model", "local-model", "--base-url", &base_url];
    all.extend_from_slice(flags);
    finish(run_with(case, &all)).await
}

fn json_of(output: &std::process::Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "stdout is one JSON object ({error}): {}\nstderr: {}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

/// `(exit code, status, subtype, result, error)` of a `--output-format json` run.
fn ending(output: &std::process::Output) -> (Option<i32>, Value, Value, Value, Value) {
    let printed = json_of(output);
    (
        output.status.code(),
        printed["status"].clone(),
        printed["subtype"].clone(),
        printed["result"].clone(),
        printed["error"].clone(),
    )
}

fn warnings(output: &std::process::Output) -> Vec<String> {
    String::from_utf8_lossy(&output.stderr)
        .lines()
        .filter(|line| line.starts_with("[Warning]"))
        .map(str::to_owned)
        .collect()
}

/// The `stop_reason` of each assistant line of the transcript, in order.
fn stop_reasons(case: &Case) -> Vec<Value> {
    case.records()
        .into_iter()
        .filter(|record| record["type"] == "assistant")
        .map(|record| record["message"]["stop_reason"].clone())
        .collect()
}

const CUT_ONCE: &str = "[Warning] the model's reply was cut at the output token limit (settings \
maxOutputTokens, --max-output-tokens); asking it once to continue";

#[tokio::test]
async fn a_reply_cut_once_is_continued_and_the_answer_is_the_cut_text_and_its_continuation() {
    let case = Case::new();
    let server = MockServer::start().await;
    turn(&server, ROUTE, CONTINUE_MARKER, 1, openai_text(&["is 42."])).await;
    turn(&server, ROUTE, "", 2, cut_text("The answer ")).await;
    let output = provider_run(&case, &server, &["--output-format", "json"]).await;
    assert_eq!(
        (
            ending(&output),
            server.received_requests().await.unwrap().len(),
            stop_reasons(&case),
            warnings(&output),
        ),
        (
            (
                Some(0),
                json!("completed"),
                json!("success"),
                json!("The answer is 42."),
                Value::Null
            ),
            2,
            vec![json!("max_tokens"), json!("end_turn")],
            vec![CUT_ONCE.to_owned()],
        )
    );
}

#[tokio::test]
async fn a_reply_cut_twice_fails_with_error_max_output_tokens_naming_the_setting() {
    let case = Case::new();
    let server = MockServer::start().await;
    turn(&server, ROUTE, "", 1, cut_text("The answer ")).await;
    let output = provider_run(&case, &server, &["--output-format", "json"]).await;
    let error = "max output tokens: the model's reply was cut at the output token limit, and so \
was its continuation (raise the limit with the settings key maxOutputTokens or --max-output-tokens)";
    assert_eq!(
        (
            ending(&output),
            server.received_requests().await.unwrap().len(),
            stop_reasons(&case),
            warnings(&output),
        ),
        (
            (
                Some(1),
                json!("failed"),
                json!("error_max_output_tokens"),
                Value::Null,
                json!(error)
            ),
            2,
            vec![json!("max_tokens"), json!("max_tokens")],
            vec![
                CUT_ONCE.to_owned(),
                "[Warning] the model's reply was cut at the output token limit twice (the reply \
and its continuation): raise the limit with the settings key maxOutputTokens or \
--max-output-tokens"
                    .to_owned()
            ],
        )
    );
}

#[tokio::test]
async fn a_cut_reply_is_max_tokens_in_the_stream_json_assistant_line() {
    let case = Case::new();
    let server = MockServer::start().await;
    turn(&server, ROUTE, CONTINUE_MARKER, 1, openai_text(&["is 42."])).await;
    turn(&server, ROUTE, "", 2, cut_text("The answer ")).await;
    let output = provider_run(&case, &server, &["--output-format", "stream-json"]).await;
    let reasons: Vec<Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .filter(|line| line["type"] == "assistant")
        .map(|line| line["message"]["stop_reason"].clone())
        .collect();
    assert_eq!(reasons, vec![json!("max_tokens"), json!("end_turn")]);
}

/// A server whose first answer takes 5 s (a one-slot server busy with a
/// long prompt), every later one at once.
async fn stalling_once() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path(ROUTE))
        .respond_with(openai_text(&["late"]).set_delay(Duration::from_secs(5)))
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path(ROUTE))
        .respond_with(openai_text(&["on time"]))
        .with_priority(2)
        .mount(&server)
        .await;
    server
}

#[tokio::test]
async fn a_request_that_timed_out_on_loopback_is_not_sent_again() {
    let case = Case::new();
    let server = stalling_once().await;
    let base_url = format!("{}/v1", server.uri());
    let mut command = run_with(&case, &["--model", "m", "--base-url", &base_url]);
    command.env("API_TIMEOUT_MS", "300");
    let output = finish(command).await;
    assert_eq!(
        (
            output.status.code(),
            server.received_requests().await.unwrap().len(),
            warnings(&output)
        ),
        (Some(1), 1, vec![])
    );
}

#[tokio::test]
async fn retry_on_timeout_sends_a_timed_out_loopback_request_again_and_says_so() {
    let case = Case::new();
    let server = stalling_once().await;
    case.write("../settings.json", r#"{"retryOnTimeout": true}"#);
    let settings = case.workspace().join("../settings.json");
    let mut command = run_against(
        &case,
        &server,
        "m",
        &["--settings", settings.to_str().unwrap()],
    );
    command.env("API_TIMEOUT_MS", "300");
    let output = finish(command).await;
    assert_eq!(
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            server.received_requests().await.unwrap().len(),
            warnings(&output)
        ),
        (
            Some(0),
            "on time\n".to_owned(),
            2,
            vec![
                "[Warning] retry 1/3 in 1 s: the provider did not answer within 0.3 s (raise \
the limit with API_TIMEOUT_MS or the settings key apiTimeoutMs, in milliseconds)"
                    .to_owned()
            ]
        )
    );
}

#[tokio::test]
async fn each_retry_of_a_busy_server_is_printed() {
    let case = Case::new();
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path(ROUTE))
        .respond_with(
            ResponseTemplate::new(503)
                .set_body_json(json!({"error": {"message": "Loading model"}})),
        )
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path(ROUTE))
        .respond_with(openai_text(&["ready"]))
        .with_priority(2)
        .mount(&server)
        .await;
    let output = provider_run(&case, &server, &[]).await;
    assert_eq!(
        (output.status.code(), warnings(&output)),
        (
            Some(0),
            vec!["[Warning] retry 1/3 in 1 s: the provider answered 503: Loading model".to_owned()]
        )
    );
}

#[tokio::test]
async fn a_call_of_an_unknown_tool_and_an_empty_answer_are_named_on_stderr() {
    let case = Case::new();
    let server = MockServer::start().await;
    turn(&server, ROUTE, "unknown_tool", 1, openai_text(&[])).await;
    turn(
        &server,
        ROUTE,
        "",
        2,
        openai_call("c1", "total", "{}", None),
    )
    .await;
    let output = provider_run(&case, &server, &[]).await;
    assert_eq!(
        (output.status.code(), warnings(&output)),
        (
            Some(0),
            vec![
                "[Warning] the model called an unknown tool \"total\"".to_owned(),
                "[Warning] the model's final answer is empty".to_owned(),
            ]
        )
    );
}
