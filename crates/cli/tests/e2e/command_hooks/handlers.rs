//! Model-backed hooks through the binary: a `prompt` hook asks the provider
//! `agenthub run` was given, an `agent` hook runs a subagent of the session,
//! and under the ReAct protocol a prompt hook's question is not a turn. (How
//! `http` and `prompt` answers are read: crates/hooks/tests/it/handlers.rs.)

use super::support::*;
use serde_json::{json, Value};
use wiremock::matchers::{body_string_contains, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

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
