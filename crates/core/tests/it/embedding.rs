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

#[tokio::test]
async fn the_workspace_context_starts_the_first_user_message_only_and_the_system_message_stays_the_same(
) {
    let log = Log::default();
    let recording = model(vec![answer("one done"), answer("two done")]);
    let agent = Agent::builder(recording.clone(), tools(&log))
        .system_prompt("You are a test agent.")
        .workspace_context("# Environment\n- Workspace: /src/app")
        .build();
    let mut session = agenthub_core::Session::new(&agent);
    session.send("one", CancellationToken::new()).await;
    session.send("two", CancellationToken::new()).await;
    let first =
        "<system-reminder>\n# Environment\n- Workspace: /src/app\n</system-reminder>\n\none";
    assert_eq!(
        recording.requests().last().cloned(),
        Some(vec![
            Message::system("You are a test agent."),
            Message::user(first),
            Message::assistant_text("one done"),
            Message::user("two"),
        ])
    );
}

#[tokio::test]
async fn an_empty_system_prompt_sends_no_system_message() {
    let log = Log::default();
    let recording = model(vec![answer("done")]);
    let agent = Agent::builder(recording.clone(), tools(&log))
        .system_prompt("")
        .build();
    agent.run("go", CancellationToken::new()).await;
    assert_eq!(recording.requests(), vec![vec![Message::user("go")]]);
}
