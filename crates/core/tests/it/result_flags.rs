//! Whether a tool call failed is a flag the pipeline sets on the result
//! (contract §7), never read back from the text: a tool may print anything,
//! `Error [` included, and still have succeeded.

use crate::support;

use agenthub_core::Agent;
use agenthub_protocol::Message;
use serde_json::json;
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
