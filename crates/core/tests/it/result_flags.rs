//! Whether a tool call failed is a flag the pipeline sets on the result
//! (contract §7), never read back from the text: a tool may print anything,
//! `Error [` included, and still have succeeded. Observers are told the
//! code with the call's end, as data.

use crate::support;

use agenthub_core::{Agent, AgentEvent, Observer, ObserverError};
use agenthub_hooks::{HookRegistry, PreToolUseResult};
use agenthub_protocol::{ErrorCode, Message};
use serde_json::json;
use std::sync::{Arc, Mutex};
use support::*;
use tokio_util::sync::CancellationToken;

/// The tool messages of a run's history.
async fn tool_results(turns: Vec<serde_json::Value>) -> Vec<Message> {
    let log = Log::default();
    let agent = Agent::new(model(turns), tools(&log), 3);
    let report = agent.run("go", CancellationToken::new()).await;
    report
        .history
        .into_iter()
        .filter(|message| matches!(message, Message::Tool { .. }))
        .collect()
}

#[tokio::test]
async fn a_tool_output_that_reads_like_an_error_is_not_flagged_as_one() {
    let printed = "Error [tool_error]: quoted from a log file";
    let results = tool_results(vec![
        calls(&[("call_1", "Echo", json!({ "text": printed }))]),
        answer("done"),
    ])
    .await;
    assert_eq!(results, vec![Message::tool("call_1", printed)]);
}

#[tokio::test]
async fn a_call_of_an_unknown_tool_is_flagged_as_failed() {
    let results = tool_results(vec![
        calls(&[("call_1", "NoSuchTool", json!({}))]),
        answer("done"),
    ])
    .await;
    let refused = "Error [unknown_tool]: the tool was not run: no tool is named \"NoSuchTool\"; \
                   available tools: Echo, Probe";
    assert_eq!(results, vec![Message::tool_error("call_1", refused)]);
}

/// Keeps every call end the run tells: the call's id and its failure code.
#[derive(Default)]
struct Ends(Mutex<Vec<(String, Option<ErrorCode>)>>);

impl Observer for Ends {
    fn on_event(&self, event: &AgentEvent<'_>) -> Result<(), ObserverError> {
        if let AgentEvent::ToolCallEnded(call, _, code) = event {
            self.0.lock().unwrap().push((call.id.clone(), *code));
        }
        Ok(())
    }
}

/// The call ends told while running `turns` with `hooks`.
async fn ends(
    turns: Vec<serde_json::Value>,
    hooks: HookRegistry,
) -> Vec<(String, Option<ErrorCode>)> {
    let log = Log::default();
    let ends = Arc::new(Ends::default());
    agent(model(turns), &log, hooks)
        .observer(ends.clone())
        .build()
        .run("go", CancellationToken::new())
        .await;
    let told = ends.0.lock().unwrap().clone();
    told
}

#[tokio::test]
async fn a_call_end_carries_the_code_the_pipeline_failed_it_with_not_one_read_from_its_text() {
    let printed = "Error [tool_error]: quoted from a log file";
    let told = ends(
        vec![
            calls(&[
                ("call_1", "Echo", json!({ "text": printed })),
                ("call_2", "NoSuchTool", json!({})),
            ]),
            answer("done"),
        ],
        HookRegistry::new(),
    )
    .await;
    assert_eq!(
        told,
        vec![
            ("call_1".to_owned(), None),
            ("call_2".to_owned(), Some(ErrorCode::UnknownTool)),
        ]
    );
}

#[tokio::test]
async fn calls_the_round_answers_itself_are_told_ended_with_their_code() {
    let hooks = HookRegistry::new().pre_tool_use("cancels", |ctx| async move {
        ctx.common.cancel.cancel();
        std::future::pending::<()>().await;
        Ok(PreToolUseResult::default())
    });
    let told = ends(
        vec![
            calls(&[
                ("call_1", "Probe", json!({"text": "1"})),
                ("call_2", "Probe", json!({"text": "2"})),
            ]),
            answer("never"),
        ],
        hooks,
    )
    .await;
    assert_eq!(
        told,
        vec![
            ("call_1".to_owned(), Some(ErrorCode::Cancelled)),
            ("call_2".to_owned(), Some(ErrorCode::Cancelled)),
        ]
    );
}
