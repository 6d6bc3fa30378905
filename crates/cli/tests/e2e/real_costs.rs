//! contract §22 through `agenthub run`: a slow provider against `API_TIMEOUT_MS`
//! (retried with `retryOnTimeout`, else failing with the right words), `max_tokens` and the tool
//! list on the wire (no demo `Echo` for a provider), the loop guard, cost and
//! `--max-budget-usd`, `--json-schema`, and the usage of a failed ReAct turn.
//! Providers are loopback mock servers; no test touches the network.

use crate::support;
use crate::support::provider_wire;

use provider_wire::{finish, openai_chunk, openai_text, run_against, run_with, sse};
use serde_json::{json, Value};
use std::time::Duration;
use support::{call, Case};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer};

const ROUTE: &str = "/v1/chat/completions";

fn json_of(output: &std::process::Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "stdout is one JSON object ({error}): {}\nstderr: {}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

/// `(exit code, status, error)` of a `--output-format json` run.
fn ending(output: &std::process::Output) -> (Option<i32>, Value, Value) {
    let printed = json_of(output);
    (
        output.status.code(),
        printed["status"].clone(),
        printed["error"].clone(),
    )
}

async fn provider_run(case: &Case, server: &MockServer, flags: &[&str]) -> std::process::Output {
    let base_url = format!("{}/v1", server.uri());
    let mut all = vec!["--model", "local-model", "--base-url", &base_url];
    all.extend_from_slice(flags);
    finish(run_with(case, &all)).await
}

// ------------------------------------------------------------ timeouts

#[tokio::test]
async fn a_provider_slower_than_api_timeout_ms_is_asked_again_and_its_answer_used() {
    let case = Case::new();
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
    // On loopback a timed-out request is sent again only with retryOnTimeout (§33).
    case.write("../settings.json", r#"{"retryOnTimeout": true}"#);
    let settings = case.workspace().join("../settings.json");
    let mut command = run_against(
        &case,
        &server,
        "m",
        &["--settings", settings.to_str().unwrap()],
    );
    command.env("API_TIMEOUT_MS", "700");
    let output = finish(command).await;
    assert_eq!(
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            server.received_requests().await.unwrap().len()
        ),
        (Some(0), "on time\n".to_owned(), 2)
    );
}

#[tokio::test]
async fn a_provider_that_never_answers_in_time_fails_naming_the_setting_not_reachability() {
    let case = Case::new();
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path(ROUTE))
        .respond_with(openai_text(&["late"]).set_delay(Duration::from_secs(30)))
        .mount(&server)
        .await;
    let mut command = run_against(&case, &server, "m", &["--output-format", "json"]);
    command.env("API_TIMEOUT_MS", "300");
    let output = finish(command).await;
    assert_eq!(
        (
            ending(&output),
            server.received_requests().await.unwrap().len()
        ),
        (
            (
                Some(1),
                json!("failed"),
                json!(
                    "model request failed: the provider did not answer within 0.3 s (raise the \
                     limit with API_TIMEOUT_MS or the settings key apiTimeoutMs, in milliseconds)"
                )
            ),
            // A loopback server is not asked again after a timeout (§33).
            1
        )
    );
}

// ------------------------------------------------------ the first request

#[tokio::test]
async fn a_provider_request_carries_max_tokens_and_no_demo_echo_tool() {
    let case = Case::new();
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(openai_text(&["ok"]))
        .mount(&server)
        .await;
    let output = provider_run(&case, &server, &["--max-output-tokens", "512"]).await;
    let body: Value = server.received_requests().await.unwrap()[0]
        .body_json()
        .unwrap();
    let tools: Vec<Value> = body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["function"]["name"].clone())
        .collect();
    assert_eq!(
        (output.status.code(), body["max_tokens"].clone(), tools),
        (
            Some(0),
            json!(512),
            vec![
                json!("Read"),
                json!("Write"),
                json!("Edit"),
                json!("Bash"),
                json!("Glob"),
                json!("Grep"),
                json!("TodoWrite"),
                json!("WebFetch"),
                json!("Task")
            ]
        )
    );
}

#[tokio::test]
async fn max_output_tokens_defaults_to_the_settings_then_16384() {
    let case = Case::new();
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(openai_text(&["ok"]))
        .mount(&server)
        .await;
    case.write("../settings.json", r#"{"maxOutputTokens": 2048}"#);
    let settings = case.workspace().join("../settings.json");
    provider_run(&case, &server, &["--settings", settings.to_str().unwrap()]).await;
    provider_run(&case, &server, &[]).await;
    let limits: Vec<Value> = server
        .received_requests()
        .await
        .unwrap()
        .iter()
        .map(|request| request.body_json::<Value>().unwrap()["max_tokens"].clone())
        .collect();
    assert_eq!(limits, vec![json!(2048), json!(16384)]);
}

// ----------------------------------------------------------- loop guard

fn read_turn(id: &str) -> Value {
    json!({"tool_calls": [call(id, "Read", json!({"file_path": "notes.txt"}))]})
}

#[test]
fn the_third_identical_read_in_a_row_carries_a_note_after_its_result() {
    let case = Case::new();
    case.write("notes.txt", "hi\n");
    case.script(json!([
        read_turn("r1"),
        read_turn("r2"),
        read_turn("r3"),
        {"content": "{{last_tool_result}}"}
    ]));
    let output = case.run().output().unwrap();
    assert_eq!(
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned()
        ),
        (
            Some(0),
            "     1\thi\n\n\nNote from AgentHub: this is call 3 in a row of Read with exactly the \
             same input, so its result is the same as before. Do not repeat it: use the result, \
             try something different, or give your final answer. The run ends at the 5th \
             identical call.\n"
                .to_owned()
        )
    );
}

#[test]
fn the_fifth_identical_read_ends_the_run_as_failed_with_a_loop_error() {
    let case = Case::new();
    case.write("notes.txt", "hi\n");
    let turns: Vec<Value> = (1..=6).map(|n| read_turn(&format!("r{n}"))).collect();
    case.script(Value::Array(turns));
    let output = case
        .run()
        .args(["--output-format", "json"])
        .output()
        .unwrap();
    assert_eq!(
        ending(&output),
        (
            Some(1),
            json!("failed"),
            json!(
                "loop: Read was called 5 times in a row with the same input \
                 ({\"file_path\":\"notes.txt\"}); the run was ended before that call ran \
                 (settings loopGuard.stopAfter is 5)"
            )
        )
    );
}

#[test]
fn loop_guard_settings_move_the_limits() {
    let case = Case::new();
    case.write("notes.txt", "hi\n");
    case.write(
        "../guard.json",
        r#"{"loopGuard": {"noteAfter": 0, "stopAfter": 2}}"#,
    );
    case.script(json!([read_turn("r1"), read_turn("r2"), {"content": "done"}]));
    let settings = case.workspace().join("../guard.json");
    let output = case
        .run()
        .args(["--output-format", "json", "--settings"])
        .arg(settings)
        .output()
        .unwrap();
    assert_eq!(
        ending(&output),
        (
            Some(1),
            json!("failed"),
            json!(
                "loop: Read was called 2 times in a row with the same input \
                 ({\"file_path\":\"notes.txt\"}); the run was ended before that call ran \
                 (settings loopGuard.stopAfter is 2)"
            )
        )
    );
}

// ------------------------------------------------------- cost and budget

fn priced_turns() -> Value {
    let usage = json!({"input_tokens": 600000, "output_tokens": 100000});
    json!([
        {"tool_calls": [call("e1", "Echo", json!({"text": "a"}))], "usage": usage},
        {"tool_calls": [call("e2", "Echo", json!({"text": "b"}))], "usage": usage},
        {"content": "done", "usage": usage}
    ])
}

fn price_settings(case: &Case) -> String {
    case.write(
        "../prices.json",
        r#"{"modelPrices": {"scripted": {"input": 1.0, "output": 5.0}}}"#,
    );
    case.workspace()
        .join("../prices.json")
        .display()
        .to_string()
}

#[test]
fn json_output_reports_the_cost_from_model_prices() {
    let case = Case::new();
    case.script(priced_turns());
    let settings = price_settings(&case);
    let output = case
        .run()
        .args(["--output-format", "json", "--settings", &settings])
        .output()
        .unwrap();
    let printed = json_of(&output);
    // Three requests of 0.6M input at $1 and 0.1M output at $5: 3 x $1.10.
    let cost = printed["total_cost_usd"].as_f64().unwrap();
    assert_eq!(
        (output.status.code(), (cost * 1e6).round() / 1e6),
        (Some(0), 3.3)
    );
}

#[test]
fn the_cost_is_null_when_the_price_is_unknown() {
    let case = Case::new();
    case.script(priced_turns());
    let output = case
        .run()
        .args(["--output-format", "json"])
        .output()
        .unwrap();
    assert_eq!(json_of(&output)["total_cost_usd"], Value::Null);
}

#[test]
fn a_spent_budget_makes_no_further_request_and_fails_the_run() {
    let case = Case::new();
    case.script(priced_turns());
    let settings = price_settings(&case);
    let output = case
        .run()
        .args(["--output-format", "json", "--settings", &settings])
        .args(["--max-budget-usd", "2"])
        .output()
        .unwrap();
    let printed = json_of(&output);
    assert_eq!(
        (
            ending(&output),
            printed["turns"].clone(),
            printed["subtype"].clone(),
            printed["is_error"].clone()
        ),
        (
            (
                Some(1),
                json!("failed"),
                json!(
                    "budget exceeded: $2.2000 spent, the limit is $2.0000 (--max-budget-usd); no \
                     further model request was made"
                )
            ),
            json!(2),
            json!("error_max_budget_usd"),
            json!(true)
        )
    );
}

#[test]
fn a_budget_for_a_model_without_a_price_is_a_usage_error() {
    let case = Case::new();
    case.script(priced_turns());
    let output = case.run().args(["--max-budget-usd", "1"]).output().unwrap();
    assert_eq!(
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stderr).into_owned()
        ),
        (
            Some(2),
            "agenthub: --max-budget-usd needs the price of the model \"scripted\", which AgentHub \
             does not know: add it to the settings as \"modelPrices\": {\"scripted\": {\"input\": \
             USD, \"output\": USD}} (per million tokens)\n"
                .to_owned()
        )
    );
}

// ---------------------------------------------------- structured output

const SCHEMA: &str =
    r#"{"type": "object", "properties": {"count": {"type": "integer"}}, "required": ["count"]}"#;

#[test]
fn an_invalid_answer_is_retried_and_the_valid_one_is_the_structured_output() {
    let case = Case::new();
    case.script(json!([{"content": "{\"count\": \"two\"}"}, {"content": "{\"count\": 2}"}]));
    let output = case
        .run()
        .args(["--output-format", "json", "--json-schema", SCHEMA])
        .output()
        .unwrap();
    let printed = json_of(&output);
    assert_eq!(
        (
            output.status.code(),
            printed["structured_output"].clone(),
            printed["turns"].clone()
        ),
        (Some(0), json!({"count": 2}), json!(2))
    );
}

#[test]
fn an_answer_still_invalid_after_two_retries_fails_naming_the_mismatch() {
    let case = Case::new();
    let wrong = json!({"content": "{\"count\": \"two\"}"});
    case.script(json!([wrong, wrong, wrong]));
    case.write("../schema.json", SCHEMA);
    let schema = case.workspace().join("../schema.json");
    let output = case
        .run()
        .args(["--output-format", "json", "--json-schema"])
        .arg(schema)
        .output()
        .unwrap();
    let printed = json_of(&output);
    assert_eq!(
        (
            ending(&output),
            printed["subtype"].clone(),
            printed["is_error"].clone()
        ),
        (
            (
                Some(1),
                json!("failed"),
                json!(
                    "structured output: the final answer does not match the JSON schema after 2 \
                     retries: at /count: \"two\" is not of type \"integer\""
                )
            ),
            json!("error_max_structured_output_retries"),
            json!(true)
        )
    );
}

// ------------------------------------------------------------ ReAct usage

#[tokio::test]
async fn a_failed_react_turn_reports_the_usage_of_all_three_requests() {
    let case = Case::new();
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path(ROUTE))
        .respond_with(sse(&[
            openai_chunk(json!({"content": "I am just chatting."}), None),
            openai_chunk(json!({}), Some("stop")),
            r#"data: {"choices":[],"usage":{"prompt_tokens":100,"completion_tokens":10}}"#
                .to_owned(),
            "data: [DONE]".to_owned(),
        ]))
        .mount(&server)
        .await;
    let output = provider_run(
        &case,
        &server,
        &["--tool-protocol", "react", "--output-format", "json"],
    )
    .await;
    let printed = json_of(&output);
    assert_eq!(
        (
            printed["status"].clone(),
            printed["usage"].clone(),
            server.received_requests().await.unwrap().len()
        ),
        (
            json!("failed"),
            json!({"input_tokens": 300, "output_tokens": 30, "cache_read_tokens": 0,
                   "cache_creation_tokens": 0, "cache_read_input_tokens": 0,
                   "cache_creation_input_tokens": 0}),
            3
        )
    );
}
