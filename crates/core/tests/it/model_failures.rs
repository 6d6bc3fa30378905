//! Contract §33: a cut reply is never a completed answer, and every model
//! failure is visible on stderr (the console observer's `[Warning]` lines).
//! Scripted replies cut at the output limit carry `"stop_reason": "max_tokens"`.

use crate::support::{self, answer, calls, model, Console, Log};
use agenthub_core::{AgentEvent, Observer, ObserverError};
use agenthub_hooks::HookRegistry;
use agenthub_model::{AssistantReply, ChatModel, ModelError, ModelEvents, ModelRequest, Retry};
use agenthub_protocol::{Message, RunStatus, StopReason, ToolCall};
use futures::future::BoxFuture;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use tokio_util::sync::CancellationToken;

const CONTINUE: &str = "Your reply was cut off at the output token limit. Continue exactly where \
it stopped, without repeating anything you already wrote.";
const CUT_ONCE: &str = "[Warning] the model's reply was cut at the output token limit (settings \
maxOutputTokens, --max-output-tokens); asking it once to continue";
const CUT_TWICE: &str = "[Warning] the model's reply was cut at the output token limit twice (the \
reply and its continuation): raise the limit with the settings key maxOutputTokens or \
--max-output-tokens";
const CUT_TWICE_ERROR: &str = "max output tokens: the model's reply was cut at the output token \
limit, and so was its continuation (raise the limit with the settings key maxOutputTokens or \
--max-output-tokens)";

fn cut(turn: Value) -> Value {
    let mut turn = turn;
    turn["stop_reason"] = json!("max_tokens");
    turn
}

/// Keeps the stop reason told before each assistant message.
#[derive(Default)]
struct StopReasons(Mutex<Vec<StopReason>>);

impl Observer for StopReasons {
    fn on_event(&self, event: &AgentEvent<'_>) -> Result<(), ObserverError> {
        if let AgentEvent::StopReason(reason) = event {
            self.0.lock().unwrap().push(*reason);
        }
        Ok(())
    }
}

#[tokio::test]
async fn a_reply_cut_once_is_continued_and_the_answer_joins_both_parts() {
    let (log, console, reasons) = (
        Log::default(),
        Console::default(),
        Arc::new(StopReasons::default()),
    );
    let script = model(vec![cut(answer("The answer ")), answer("is 42.")]);
    let report = support::agent(script.clone(), &log, HookRegistry::new())
        .observer(console.observer())
        .also_observe(reasons.clone())
        .build()
        .run("what is it?", CancellationToken::new())
        .await;
    assert_eq!(
        (
            report.status,
            report.result.as_deref(),
            report.turns,
            report.history,
            console.warnings(),
            reasons.0.lock().unwrap().clone(),
        ),
        (
            RunStatus::Completed,
            Some("The answer is 42."),
            2,
            vec![
                Message::user("what is it?"),
                Message::assistant_text("The answer "),
                Message::user(CONTINUE),
                Message::assistant_text("is 42."),
            ],
            vec![CUT_ONCE.to_owned()],
            vec![StopReason::MaxTokens, StopReason::EndTurn],
        )
    );
}

#[tokio::test]
async fn a_continuation_cut_again_fails_the_run_with_max_output_tokens() {
    let (log, console) = (Log::default(), Console::default());
    let script = model(vec![
        cut(answer("The answer ")),
        cut(answer("is forty")),
        answer("never asked"),
    ]);
    let report = support::agent(script.clone(), &log, HookRegistry::new())
        .observer(console.observer())
        .build()
        .run("what is it?", CancellationToken::new())
        .await;
    assert_eq!(
        (
            report.status,
            report.result,
            report.error.as_deref(),
            report.turns,
            console.warnings(),
        ),
        (
            RunStatus::Failed,
            None,
            Some(CUT_TWICE_ERROR),
            2,
            vec![CUT_ONCE.to_owned(), CUT_TWICE.to_owned()],
        )
    );
}

#[tokio::test]
async fn no_call_of_a_cut_reply_runs_and_each_is_answered_so_the_model_makes_it_again() {
    let log = Log::default();
    let script = model(vec![
        cut(json!({"content": "probing", "tool_calls": [
            {"id": "c1", "name": "Probe", "arguments": {"text": "whole"}},
            {"id": "c2", "name": "Probe", "arguments": "{\"text\": \"cu"}]})),
        calls(&[("c3", "Probe", json!({"text": "again"}))]),
        answer("probed"),
    ]);
    let report = support::agent(script.clone(), &log, HookRegistry::new())
        .build()
        .run("probe", CancellationToken::new())
        .await;
    let not_run = "Error [invalid_arguments]: the tool was not run: the reply was cut at the \
output token limit before it ended, so none of its tool calls ran (their arguments may be \
incomplete); make the calls again in a shorter reply";
    let handled: Vec<String> = log
        .entries()
        .into_iter()
        .filter(|entry| entry.starts_with("handler:"))
        .collect();
    assert_eq!(
        (
            report.status,
            report.result.as_deref(),
            handled,
            report.history[1..4].to_vec(),
        ),
        (
            RunStatus::Completed,
            Some("probed"),
            vec![r#"handler:{"fail":false,"text":"again"}"#.to_owned()],
            vec![
                Message::Assistant {
                    content: Some("probing".into()),
                    tool_calls: vec![
                        ToolCall::new("c1", "Probe", r#"{"text":"whole"}"#),
                        ToolCall::new("c2", "Probe", r#"{"text": "cu"#),
                    ],
                },
                Message::tool_error("c1", not_run),
                Message::tool_error("c2", not_run),
            ],
        )
    );
}

#[tokio::test]
async fn a_call_of_an_unknown_tool_is_warned_about() {
    let (log, console) = (Log::default(), Console::default());
    let script = model(vec![calls(&[("c1", "total", json!({}))]), answer("sorry")]);
    let report = support::agent(script, &log, HookRegistry::new())
        .observer(console.observer())
        .build()
        .run("sum", CancellationToken::new())
        .await;
    assert_eq!(
        (report.status, console.warnings()),
        (
            RunStatus::Completed,
            vec!["[Warning] the model called an unknown tool \"total\"".to_owned()]
        )
    );
}

#[tokio::test]
async fn an_empty_final_answer_is_warned_about() {
    let (log, console) = (Log::default(), Console::default());
    let report = support::agent(model(vec![answer("")]), &log, HookRegistry::new())
        .observer(console.observer())
        .build()
        .run("say nothing", CancellationToken::new())
        .await;
    assert_eq!(
        (report.status, report.result.as_deref(), console.warnings()),
        (
            RunStatus::Completed,
            Some(""),
            vec!["[Warning] the model's final answer is empty".to_owned()]
        )
    );
}

/// Tells one retry, then answers.
struct RetriedOnce;

impl ChatModel for RetriedOnce {
    fn complete<'a>(
        &'a self,
        _request: ModelRequest<'a>,
        events: &'a dyn ModelEvents,
        _cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, Result<AssistantReply, ModelError>> {
        events.retrying(&Retry {
            number: 1,
            allowed: 3,
            wait_millis: 1000,
            error: ModelError::Status {
                status: 503,
                message: "loading model".into(),
            },
        });
        Box::pin(async { Ok(AssistantReply::new(Some("ok".into()), Vec::new())) })
    }
}

#[tokio::test]
async fn each_retry_of_a_model_request_is_warned_about() {
    let console = Console::default();
    let report =
        agenthub_core::Agent::builder(Arc::new(RetriedOnce), support::tools(&Log::default()))
            .workspace(agenthub_tools::Workspace::new(std::env::temp_dir()))
            .observer(console.observer())
            .build()
            .run("hi", CancellationToken::new())
            .await;
    assert_eq!(
        (report.status, console.warnings()),
        (
            RunStatus::Completed,
            vec!["[Warning] retry 1/3 in 1 s: the provider answered 503: loading model".to_owned()]
        )
    );
}
