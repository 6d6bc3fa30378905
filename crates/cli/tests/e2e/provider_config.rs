//! `agenthub run` configuring a real provider: what a new user meets first
//! (no model, no key), settings keys, provider errors, and the key never
//! leaving the request. Mock providers run on loopback inside each test.

use crate::support;
use crate::support::provider_wire;

use provider_wire::{
    anthropic_message, anthropic_text, finish, openai_text, run_with, text_of, turn,
};
use serde_json::{json, Value};
use support::{Case, PROMPT};
use wiremock::{MockServer, ResponseTemplate};

#[test]
fn a_remote_endpoint_without_a_key_exits_2_naming_the_variable() {
    let case = Case::new();
    let output = run_with(&case, &["--model", "gpt-4o"]).output().unwrap();
    assert_eq!(
        text_of(&output),
        (
            Some(2),
            String::new(),
            "agenthub: Missing required settings: OPENAI_API_KEY (set it with `export OPENAI_API_KEY=...`; a local server such as Ollama or llama.cpp needs no key: pass --base-url http://127.0.0.1:PORT/v1 instead)\n".to_owned()
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

/// Writes a settings file beside (not inside) the workspace; returns its path.
fn settings_file(case: &Case, settings: Value) -> String {
    let path = case.workspace().join("../extra-settings.json");
    std::fs::write(&path, settings.to_string()).unwrap();
    path.display().to_string()
}

#[tokio::test]
async fn settings_keys_name_the_model_the_provider_and_the_endpoint() {
    let case = Case::new();
    let server = MockServer::start().await;
    let answer = anthropic_message(vec![anthropic_text(0, &["from settings"])], "end_turn");
    turn(
        &server,
        "/v1/messages",
        r#""model":"settings-model""#,
        1,
        answer,
    )
    .await;
    let settings = settings_file(
        &case,
        json!({"model": "settings-model", "provider": "anthropic", "baseUrl": server.uri()}),
    );
    let output = finish(run_with(&case, &["--settings", &settings])).await;
    assert_eq!(
        text_of(&output),
        (Some(0), "from settings\n".to_owned(), String::new())
    );
}

#[test]
fn an_unknown_provider_in_settings_exits_2_naming_the_key() {
    let case = Case::new();
    let settings = settings_file(&case, json!({"model": "m", "provider": "gemini"}));
    let output = run_with(&case, &["--settings", &settings])
        .output()
        .unwrap();
    assert_eq!(
        text_of(&output),
        (
            Some(2),
            String::new(),
            "agenthub: settings key \"provider\": unknown provider \"gemini\" (expected openai or anthropic)\n"
                .to_owned()
        )
    );
}

#[tokio::test]
async fn the_key_reaches_the_provider_but_never_the_output_or_the_transcript() {
    let case = Case::new();
    let server = MockServer::start().await;
    turn(
        &server,
        "/v1/chat/completions",
        PROMPT,
        1,
        openai_text(&["ok"]),
    )
    .await;
    let base_url = format!("{}/v1", server.uri());
    let mut command = run_with(&case, &["--model", "m", "--base-url", &base_url]);
    command.env("OPENAI_API_KEY", "sk-e2e-secret");
    let output = finish(command).await;
    let transcript = std::fs::read_to_string(case.transcript_path()).unwrap();
    let requests = server.received_requests().await.unwrap();
    let sent = requests[0]
        .headers
        .get("authorization")
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    let everything_written = format!(
        "{}{}{transcript}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        (sent, everything_written.contains("sk-e2e-secret")),
        ("Bearer sk-e2e-secret".to_owned(), false)
    );
}

/// The first request a run with `flags` makes to a loopback
/// OpenAI-compatible server, with no key anywhere in the environment.
async fn first_request(case: &Case, flags: &[&str]) -> wiremock::Request {
    let server = MockServer::start().await;
    turn(
        &server,
        "/v1/chat/completions",
        PROMPT,
        1,
        openai_text(&["ok"]),
    )
    .await;
    let base_url = format!("{}/v1", server.uri());
    let mut args = vec!["--model", "m", "--base-url", &base_url];
    args.extend(flags);
    let output = finish(run_with(case, &args)).await;
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    server.received_requests().await.unwrap().remove(0)
}

#[tokio::test]
async fn a_loopback_server_is_asked_without_a_key_and_without_an_authorization_header() {
    let case = Case::new();
    let request = first_request(&case, &[]).await;
    assert_eq!(request.headers.get("authorization"), None);
}

#[tokio::test]
async fn the_settings_temperature_is_sent_when_set_and_never_when_unset() {
    let case = Case::new();
    let settings = settings_file(&case, json!({"temperature": 0.3}));
    let with: Value = first_request(&case, &["--settings", &settings])
        .await
        .body_json()
        .unwrap();
    let without: Value = first_request(&Case::new(), &[]).await.body_json().unwrap();
    assert_eq!(
        (with.get("temperature"), without.get("temperature")),
        (Some(&json!(0.3)), None)
    );
}
