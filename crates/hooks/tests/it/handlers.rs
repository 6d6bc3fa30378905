//! `http` hooks against a local server on 127.0.0.1, and `prompt` hooks
//! answered by the scripted model's `hook_answers`.

use crate::support::*;
use agenthub_hooks::HookServices;
use agenthub_model::ScriptedModel;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use wiremock::matchers::{body_string_contains, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

fn http_hook(url: &str) -> Value {
    json!({"type": "http", "url": url, "timeout": 1})
}

async fn server_answering(response: ResponseTemplate) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/hook"))
        .respond_with(response)
        .mount(&server)
        .await;
    server
}

/// The PreToolUse verdict on `Echo hello` of one http hook posting to `url`.
async fn gate(case: &Case, url: &str) -> Value {
    let registry = case.registry(&[("PreToolUse", None, http_hook(url))]);
    pre_tool_use(&case.pre_tool_use(&registry, echo("hello")).await.verdict)
}

#[tokio::test]
async fn an_http_hook_answering_allow_json_lets_the_call_run() {
    let allow = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}});
    let server = server_answering(ResponseTemplate::new(200).set_body_json(allow)).await;
    let case = Case::new();
    let verdict = gate(&case, &format!("{}/hook", server.uri())).await;
    assert_eq!(
        (
            verdict["proceed"].clone(),
            verdict["suggestion"]["effect"].clone()
        ),
        (json!({"text": "hello"}), json!("allow"))
    );
}

#[tokio::test]
async fn an_http_hook_answering_deny_json_blocks_the_call() {
    let deny = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "not on Fridays"}});
    let server = server_answering(ResponseTemplate::new(200).set_body_json(deny)).await;
    let case = Case::new();
    let verdict = gate(&case, &format!("{}/hook", server.uri())).await;
    assert_eq!(
        (
            verdict["suggestion"]["effect"].clone(),
            verdict["suggestion"]["reason"].clone()
        ),
        (json!("deny"), json!("not on Fridays"))
    );
}

#[tokio::test]
async fn an_http_hook_gets_the_input_json_as_its_body() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/hook"))
        .and(body_string_contains(r#""tool_name":"Echo""#))
        .respond_with(ResponseTemplate::new(200))
        .expect(1)
        .mount(&server)
        .await;
    let case = Case::new();
    let verdict = gate(&case, &format!("{}/hook", server.uri())).await;
    assert_eq!(verdict, proceeds("hello"));
}

#[tokio::test]
async fn an_http_hook_that_times_out_on_a_gate_blocks_the_call() {
    let slow = ResponseTemplate::new(200).set_delay(Duration::from_secs(5));
    let server = server_answering(slow).await;
    let case = Case::new();
    let url = format!("{}/hook", server.uri());
    assert_eq!(
        gate(&case, &url).await,
        json!({"execution_error": format!("PreToolUse hook \"[http] {url}\" failed: timed out after 1s; its process group was killed"), "context": []})
    );
}

fn down_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    format!("http://127.0.0.1:{port}/hook")
}

#[tokio::test]
async fn an_http_hook_whose_server_is_down_blocks_a_gate() {
    let case = Case::new();
    let url = down_url();
    let verdict = gate(&case, &url).await;
    let message = verdict["execution_error"].as_str().unwrap_or_default();
    let expected =
        format!("PreToolUse hook \"[http] {url}\" failed: could not run: POST {url} failed");
    assert!(message.starts_with(&expected), "{verdict}");
}

#[tokio::test]
async fn an_http_hook_whose_server_is_down_warns_on_a_non_gate_and_the_run_goes_on() {
    let case = Case::new();
    let url = down_url();
    let registry = case.registry(&[("PostToolUse", None, http_hook(&url))]);
    let run = case
        .post_tool_use(&registry, echo("hello"), echoed("hello"))
        .await;
    let record = &records(&run.records)[0];
    let error = record["error"].as_str().unwrap_or_default().to_owned();
    assert_eq!(
        (
            run.verdict.output,
            record["outcome"].clone(),
            error.ends_with(&format!(
                "(the check could not run, the action goes on; hook from {}; \"onFailure\": \"block\" makes it block)",
                case.path(".agenthub/settings.json")
            ))
        ),
        ("hello".to_owned(), json!("hook_execution_error"), true)
    );
}

#[tokio::test]
async fn a_prompt_hook_answered_by_the_scripted_model_blocks_with_its_reason() {
    let case = Case::new();
    let model = ScriptedModel::new("test", Vec::new()).with_hook_answers(vec![
        r#"{"ok": false, "reason": "echo is not needed"}"#.to_owned(),
    ]);
    let services = HookServices {
        model: Some(Arc::new(model)),
        ..HookServices::default()
    };
    let registry = case.registry_with(
        &[(
            "PreToolUse",
            None,
            json!({"type": "prompt", "prompt": "Is this call safe? $ARGUMENTS"}),
        )],
        services,
    );
    let run = case.pre_tool_use(&registry, echo("hello")).await;
    assert_eq!(
        pre_tool_use(&run.verdict),
        json!({"blocked": "echo is not needed", "context": []})
    );
}
