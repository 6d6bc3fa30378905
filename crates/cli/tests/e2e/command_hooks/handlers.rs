//! `http` hooks against a local server on 127.0.0.1, and `prompt` hooks
//! answered by a mock provider and by the scripted model's `hook_answers`.

use super::support::*;
use serde_json::{json, Value};
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

/// Runs the case off the runtime that serves the mock.
async fn report_of(case: Case) -> (Case, Value) {
    tokio::task::spawn_blocking(move || {
        let (report, _) = case.report();
        (case, report)
    })
    .await
    .unwrap()
}

#[tokio::test]
async fn an_http_hook_answering_allow_json_lets_the_call_run() {
    let allow = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}});
    let server = server_answering(ResponseTemplate::new(200).set_body_json(allow)).await;
    let case = Case::new();
    case.hooks(&[(
        "PreToolUse",
        None,
        http_hook(&format!("{}/hook", server.uri())),
    )]);
    case.echo_script("hello");
    let (case, _) = report_of(case).await;
    assert_eq!(case.messages(), echo_history("hello", "hello"));
}

#[tokio::test]
async fn an_http_hook_answering_deny_json_blocks_the_call() {
    let deny = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "not on Fridays"}});
    let server = server_answering(ResponseTemplate::new(200).set_body_json(deny)).await;
    let case = Case::new();
    case.hooks(&[(
        "PreToolUse",
        None,
        http_hook(&format!("{}/hook", server.uri())),
    )]);
    case.echo_script("hello");
    let (case, _) = report_of(case).await;
    let result =
        "Error [permission_denied]: the tool was not run: permission denied: not on Fridays";
    assert_eq!(case.messages(), echo_history("hello", result));
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
    case.hooks(&[(
        "PreToolUse",
        None,
        http_hook(&format!("{}/hook", server.uri())),
    )]);
    case.echo_script("hello");
    let (case, _) = report_of(case).await;
    assert_eq!(case.messages(), echo_history("hello", "hello"));
}

#[tokio::test]
async fn an_http_hook_that_times_out_on_a_gate_blocks_the_call() {
    let slow = ResponseTemplate::new(200).set_delay(Duration::from_secs(5));
    let server = server_answering(slow).await;
    let case = Case::new();
    let url = format!("{}/hook", server.uri());
    case.hooks(&[("PreToolUse", None, http_hook(&url))]);
    case.echo_script("hello");
    let (case, _) = report_of(case).await;
    let result = format!("Error [hook_execution_error]: the tool was not run: PreToolUse hook \"[http] {url}\" failed: timed out after 1s; its process group was killed");
    assert_eq!(case.messages(), echo_history("hello", &result));
}

fn down_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    format!("http://127.0.0.1:{port}/hook")
}

#[test]
fn an_http_hook_whose_server_is_down_blocks_a_gate() {
    let case = Case::new();
    let url = down_url();
    case.hooks(&[("PreToolUse", None, http_hook(&url))]);
    case.echo_script("hello");
    case.report();
    let result = case.messages()[2]["content"].as_str().unwrap().to_owned();
    let expected = format!("Error [hook_execution_error]: the tool was not run: PreToolUse hook \"[http] {url}\" failed: could not run: POST {url} failed");
    assert!(result.starts_with(&expected), "{result}");
}

#[test]
fn an_http_hook_whose_server_is_down_warns_on_a_non_gate_and_the_run_goes_on() {
    let case = Case::new();
    let url = down_url();
    case.hooks(&[("PostToolUse", None, http_hook(&url))]);
    case.echo_script("hello");
    let (report, _) = case.report();
    let record = &case.hook_records()[0];
    let error = record["error"].as_str().unwrap_or_default().to_owned();
    assert_eq!(
        (
            report["status"].clone(),
            case.messages(),
            record["outcome"].clone(),
            error.ends_with(&format!(
                "(the check could not run, the action goes on; hook from {}; \"onFailure\": \"block\" makes it block)",
                case.path(".agenthub/settings.json")
            ))
        ),
        (
            json!("completed"),
            echo_history("hello", "hello"),
            json!("hook_execution_error"),
            true
        )
    );
}

#[test]
fn a_prompt_hook_answered_by_the_scripted_model_blocks_with_its_reason() {
    let case = Case::new();
    case.hooks(&[(
        "PreToolUse",
        None,
        json!({"type": "prompt", "prompt": "Is this call safe? $ARGUMENTS"}),
    )]);
    std::fs::write(
        case.outside("script.json"),
        json!({
            "turns": [
                {"content": "working", "tool_calls": [call("call_1", "Echo", json!({"text": "hello"}))]},
                {"content": "Result: {{last_tool_result}}"}
            ],
            "hook_answers": ["{\"ok\": false, \"reason\": \"echo is not needed\"}"]
        })
        .to_string(),
    )
    .unwrap();
    case.report();
    let result = "Error [hook_blocked]: echo is not needed";
    assert_eq!(case.messages()[2], tool("call_1", result));
}

fn openai_text(text: &str) -> ResponseTemplate {
    let chunk = |delta: Value, finish: Option<&str>| {
        format!(
            "data: {}\n\n",
            json!({"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
        )
    };
    let body = format!(
        "{}{}data: [DONE]\n\n",
        chunk(json!({"role": "assistant", "content": text}), None),
        chunk(json!({}), Some("stop"))
    );
    ResponseTemplate::new(200)
        .insert_header("content-type", "text/event-stream")
        .set_body_string(body)
}

#[tokio::test]
async fn a_prompt_hook_asks_the_configured_provider_and_its_ok_false_continues_the_stop() {
    let server = MockServer::start().await;
    let route = "/v1/chat/completions";
    let mount = |marker: &'static str, priority: u8, response: ResponseTemplate| {
        Mock::given(method("POST"))
            .and(path(route))
            .and(body_string_contains(marker))
            .respond_with(response)
            .with_priority(priority)
    };
    mount(
        "You evaluate one event",
        1,
        openai_text(r#"{"ok": false, "reason": "add a test"}"#),
    )
    .up_to_n_times(1)
    .mount(&server)
    .await;
    mount("You evaluate one event", 2, openai_text(r#"{"ok": true}"#))
        .mount(&server)
        .await;
    mount("add a test", 3, openai_text("added the test"))
        .mount(&server)
        .await;
    mount(PROMPT, 4, openai_text("done")).mount(&server).await;
    let case = Case::new();
    case.hooks(&[(
        "Stop",
        None,
        json!({"type": "prompt", "prompt": "Did the agent finish? $ARGUMENTS"}),
    )]);
    let base_url = format!("{}/v1", server.uri());
    let output = tokio::task::spawn_blocking(move || {
        let output = agenthub(&case)
            .env_remove("OPENAI_API_KEY")
            .env_remove("OPENAI_BASE_URL")
            .arg("run")
            .arg("--trust-project")
            .arg("--model")
            .arg("local-model")
            .arg("--base-url")
            .arg(&base_url)
            .arg("--workspace")
            .arg(&case.workspace)
            .arg("--transcript")
            .arg(case.transcript_path())
            .arg("--output-format")
            .arg("json")
            .arg(PROMPT)
            .output()
            .unwrap();
        (case, output)
    })
    .await
    .unwrap();
    let (case, output) = output;
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_default();
    assert_eq!(
        (report["result"].clone(), case.messages()[2].clone()),
        (json!("added the test"), user("add a test"))
    );
}

#[test]
fn an_agent_hook_reads_the_workspace_and_its_ok_false_continues_the_run_with_its_reason() {
    // contract §21: a read-only subagent (here it globs for the TODO file) answers
    // as a prompt hook does; the scripted model answers it with the
    // script's "subagents" entries, one per run of the hook.
    let case = Case::new();
    case.write("TODO.md", "write the changelog\n");
    case.hooks(&[(
        "Stop",
        None,
        json!({"type": "agent", "prompt": "Is every TODO done? $ARGUMENTS"}),
    )]);
    let ok_false = r#"{"ok": false, "reason": "finish {{last_tool_result}}"}"#;
    std::fs::write(
        case.outside("script.json"),
        json!({
            "turns": [{"content": "done"}, {"content": "changelog written"}],
            "subagents": [
                {"turns": [
                    {"tool_calls": [call("g1", "Glob", json!({"pattern": "TODO*"}))]},
                    {"content": ok_false}
                ]},
                {"turns": [{"content": "{\"ok\": true}"}]}
            ]
        })
        .to_string(),
    )
    .unwrap();
    let (report, code) = case.report();
    let instruction = case.messages()[2].clone();
    assert_eq!(
        (code, report["result"].clone(), instruction["role"].clone()),
        (0, json!("changelog written"), json!("user"))
    );
    let text = instruction["content"].as_str().unwrap();
    assert!(
        text.starts_with("finish ") && text.contains("TODO.md"),
        "{text}"
    );
}

#[test]
fn under_react_a_prompt_hooks_question_is_answered_from_hook_answers_not_a_turn() {
    let case = Case::new();
    case.hooks(&[(
        "PreToolUse",
        None,
        json!({"type": "prompt", "prompt": "Is this call safe? $ARGUMENTS"}),
    )]);
    std::fs::write(
        case.outside("script.json"),
        json!({
            "turns": [
                {"content": "Thought: echo it\nAction: Echo\nAction Input: {\"text\": \"hello\"}"},
                {"content": "Thought: done\nFinal Answer: the hook said no"}
            ],
            "hook_answers": ["{\"ok\": false, \"reason\": \"echo is not needed\"}"]
        })
        .to_string(),
    )
    .unwrap();
    let output = case
        .run()
        .args(["--tool-protocol", "react"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let results: Vec<Value> = case
        .messages()
        .into_iter()
        .filter(|message| message["role"] == "tool")
        .map(|message| message["content"].clone())
        .collect();
    assert_eq!(
        (report["result"].clone(), results),
        (
            json!("the hook said no"),
            vec![json!("Error [hook_blocked]: echo is not needed")]
        )
    );
}
