//! What an embedding application relies on: the agent can be shared and its run
//! spawned on a tokio task; the constructor without hooks keeps working.

use crate::support;

use agenthub_core::Agent;
use agenthub_protocol::{Message, RunStatus};
use serde_json::json;
use std::sync::Arc;
use support::*;
use tokio_util::sync::CancellationToken;

#[tokio::test]
async fn a_run_can_be_spawned_on_a_tokio_task() {
    let log = Log::default();
    let turns = vec![
        calls(&[("call_1", "Echo", json!({"text": "hi"}))]),
        answer("{{last_tool_result}}"),
    ];
    let agent = Arc::new(Agent::new(model(turns), tools(&log), 3));
    let report = tokio::spawn(async move { agent.run("go", CancellationToken::new()).await })
        .await
        .unwrap();
    assert_eq!(
        (report.status, report.result.as_deref()),
        (RunStatus::Completed, Some("hi"))
    );
}

#[tokio::test]
async fn the_default_policy_asks_for_a_side_effect_tool_and_without_an_approver_denies() {
    let log = Log::default();
    let turns = vec![
        calls(&[("call_1", "Probe", json!({"text": "write something"}))]),
        answer("{{last_tool_result}}"),
    ];
    let agent = Agent::builder(model(turns), tools(&log)).build();
    let report = agent.run("go", CancellationToken::new()).await;
    assert_eq!(
        (report.status, report.result.as_deref(), log.entries()),
        (
            RunStatus::Completed,
            Some(
                "Error [permission_denied]: the tool was not run: permission denied: \
                 approval required"
            ),
            Vec::<String>::new()
        )
    );
}

#[tokio::test]
async fn the_default_policy_lets_a_read_only_tool_run() {
    let log = Log::default();
    let turns = vec![
        calls(&[("call_1", "Echo", json!({"text": "hi"}))]),
        answer("{{last_tool_result}}"),
    ];
    let agent = Agent::builder(model(turns), tools(&log)).build();
    let report = agent.run("go", CancellationToken::new()).await;
    assert_eq!(report.result.as_deref(), Some("hi"));
}

#[tokio::test]
async fn a_system_prompt_is_the_first_message_of_every_request() {
    let log = Log::default();
    let recording = model(vec![
        calls(&[("call_1", "Echo", json!({"text": "hi"}))]),
        answer("done"),
    ]);
    let agent = Agent::builder(recording.clone(), tools(&log))
        .system_prompt("You are a test agent.")
        .build();
    let report = agent.run("go", CancellationToken::new()).await;
    let firsts: Vec<Message> = recording
        .requests()
        .iter()
        .map(|request| request[0].clone())
        .collect();
    assert_eq!(
        (report.history[..2].to_vec(), firsts),
        (
            vec![
                Message::system("You are a test agent."),
                Message::user("go")
            ],
            vec![Message::system("You are a test agent."); 2]
        )
    );
}

#[tokio::test]
async fn without_a_system_prompt_the_history_starts_with_the_prompt() {
    let log = Log::default();
    let agent = Agent::builder(model(vec![answer("done")]), tools(&log)).build();
    let report = agent.run("go", CancellationToken::new()).await;
    assert_eq!(
        report.history,
        vec![Message::user("go"), Message::assistant_text("done")]
    );
}
