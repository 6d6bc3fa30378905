//! contract §22 in the loop: the loop guard's note and stop, the answer schema's
//! retries and failure, and the usage of a request that ended without a reply.

use crate::support;

use agenthub_core::{AnswerSchema, LoopGuardLimits, RunReport};
use agenthub_model::{AssistantReply, ChatModel, ModelError, ModelEvents, ModelRequest};
use agenthub_protocol::{Message, RunStatus, Usage};
use futures::future::BoxFuture;
use serde_json::json;
use std::sync::Arc;
use support::{agent, answer, calls, model, Log};
use tokio_util::sync::CancellationToken;

fn echo(id: &str) -> serde_json::Value {
    calls(&[(id, "Echo", json!({"text": "again"}))])
}

fn tool_results(report: &RunReport) -> Vec<String> {
    report
        .history
        .iter()
        .filter_map(|message| match message {
            Message::Tool { content, .. } => Some(content.clone()),
            _ => None,
        })
        .collect()
}

const NOTE: &str = "Note from AgentHub: this is call 3 in a row of Echo with exactly the same input, so its result is the same as before. Do not repeat it: use the result, try something different, or give your final answer. The run ends at the 5th identical call.";

#[tokio::test]
async fn the_third_identical_call_in_a_row_gets_its_result_and_a_note() {
    let log = Log::default();
    let script = model(vec![echo("c1"), echo("c2"), echo("c3"), answer("done")]);
    let report = agent(script, &log, Default::default())
        .build()
        .run("echo", CancellationToken::new())
        .await;
    assert_eq!(
        (report.status, tool_results(&report)),
        (
            RunStatus::Completed,
            vec![
                "again".to_owned(),
                "again".to_owned(),
                format!("again\n\n{NOTE}")
            ]
        )
    );
}

#[tokio::test]
async fn the_fifth_identical_call_is_not_run_and_the_run_fails_with_a_loop_error() {
    let log = Log::default();
    let turns = (1..=5).map(|n| echo(&format!("c{n}"))).collect();
    let report = agent(model(turns), &log, Default::default())
        .max_turns(10)
        .build()
        .run("echo", CancellationToken::new())
        .await;
    let last_result = tool_results(&report).last().cloned();
    assert_eq!(
        (report.status, report.error, last_result),
        (
            RunStatus::Failed,
            Some(
                "loop: Echo was called 5 times in a row with the same input ({\"text\":\"again\"}); \
                 the run was ended before that call ran (settings loopGuard.stopAfter is 5)"
                    .to_owned()
            ),
            Some(
                "Error [loop_detected]: the tool was not run: the loop guard ended the run: this \
                 call repeated the same call too often"
                    .to_owned()
            )
        )
    );
}

#[tokio::test]
async fn loop_guard_limits_of_zero_let_identical_calls_run() {
    let log = Log::default();
    let mut turns: Vec<_> = (1..=6).map(|n| echo(&format!("c{n}"))).collect();
    turns.push(answer("done"));
    let report = agent(model(turns), &log, Default::default())
        .max_turns(10)
        .loop_guard(LoopGuardLimits {
            note_after: 0,
            stop_after: 0,
        })
        .build()
        .run("echo", CancellationToken::new())
        .await;
    assert_eq!(
        (report.status, tool_results(&report)),
        (RunStatus::Completed, vec!["again".to_owned(); 6])
    );
}

/// The issue's case (§33): one reply holding 11 calls `Edit, Write, Edit,
/// Write…`, each the same as the call two before it, every Edit changing
/// the file.
#[tokio::test]
async fn alternating_edits_and_writes_are_noted_as_made_again_and_the_fifth_edit_ends_the_run() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "x").unwrap();
    let edit = json!({"file_path": "a.txt", "old_string": "x", "new_string": "xy"});
    let write = json!({"file_path": "b.txt", "content": "b"});
    let ids: Vec<String> = (1..=11).map(|n| format!("c{n}")).collect();
    let reply: Vec<(&str, &str, serde_json::Value)> = ids
        .iter()
        .enumerate()
        .map(|(n, id)| match n % 2 {
            0 => (id.as_str(), "Edit", edit.clone()),
            _ => (id.as_str(), "Write", write.clone()),
        })
        .collect();
    let log = Log::default();
    let report = agenthub_core::Agent::builder(
        model(vec![calls(&reply), answer("done")]),
        agenthub_tools::ToolRegistry::with_builtins().unwrap(),
    )
    .policy(Arc::new(support::RecordingPolicy(log)))
    .workspace(agenthub_tools::Workspace::new(dir.path()))
    .build()
    .run("edit", CancellationToken::new())
    .await;
    let root = dir.path().display().to_string();
    let results: Vec<String> = tool_results(&report)
        .iter()
        .map(|result| result.replace(&root, "DIR"))
        .collect();
    let note = |tool: &str, made: u32| {
        format!(
            "\n\nNote from AgentHub: this exact call ({tool} with the same input) was already \
             made {made} times among your last 10 calls, and it was made again now. Do not \
             repeat it: check what the earlier calls did, try something different, or give \
             your final answer. The run ends at the 5th identical call."
        )
    };
    let edited = "Replaced 1 occurrence in DIR/a.txt";
    let wrote = "Wrote 1 bytes to DIR/b.txt";
    let not_run = "Error [loop_detected]: the tool was not run: the loop guard ended the run";
    assert_eq!(
        (
            report.status,
            report.error,
            results,
            std::fs::read_to_string(dir.path().join("a.txt")).unwrap()
        ),
        (
            RunStatus::Failed,
            Some(
                "loop: Edit was called 5 times with the same input among the last 10 calls \
                 ({\"file_path\":\"a.txt\",\"new_string\":\"xy\",\"old_string\":\"x\"}); the run was \
                 ended before that call ran (settings loopGuard.stopAfter is 5)"
                    .to_owned()
            ),
            vec![
                edited.to_owned(),
                wrote.to_owned(),
                edited.to_owned(),
                wrote.to_owned(),
                format!("{edited}{}", note("Edit", 2)),
                format!("{wrote}{}", note("Write", 2)),
                format!("{edited}{}", note("Edit", 3)),
                format!("{wrote}{}", note("Write", 3)),
                format!("{not_run}: this call repeated the same call too often"),
                format!("{not_run} at an earlier call of this message"),
                format!("{not_run} at an earlier call of this message"),
            ],
            "xyyyy".to_owned()
        )
    );
}

fn count_schema() -> AnswerSchema {
    AnswerSchema::new(json!({
        "type": "object",
        "properties": {"count": {"type": "integer"}},
        "required": ["count"]
    }))
    .unwrap()
}

#[tokio::test]
async fn an_invalid_answer_is_sent_back_with_the_errors_and_a_valid_one_is_the_structured_output() {
    let log = Log::default();
    let script = model(vec![answer("About three."), answer(r#"{"count": 3}"#)]);
    let report = agent(script.clone(), &log, Default::default())
        .answer_schema(count_schema())
        .build()
        .run("count", CancellationToken::new())
        .await;
    let second_request = script.requests()[1].clone();
    assert_eq!(
        (
            report.status,
            report.structured_output,
            second_request.last().cloned()
        ),
        (
            RunStatus::Completed,
            Some(json!({"count": 3})),
            Some(Message::user(
                "Your final answer does not match the required JSON schema: the answer is not \
                 JSON (expected value at line 1 column 1). Answer again with only a JSON value \
                 valid against the schema."
            ))
        )
    );
}

#[tokio::test]
async fn an_answer_still_invalid_after_two_retries_fails_the_run_naming_the_mismatch() {
    let log = Log::default();
    let wrong = answer(r#"{"count": "three"}"#);
    let script = model(vec![wrong.clone(), wrong.clone(), wrong]);
    let report = agent(script, &log, Default::default())
        .answer_schema(count_schema())
        .build()
        .run("count", CancellationToken::new())
        .await;
    assert_eq!(
        (
            report.status,
            report.turns,
            report.error,
            report.structured_output
        ),
        (
            RunStatus::Failed,
            3,
            Some(
                "structured output: the final answer does not match the JSON schema after 2 \
                 retries: at /count: \"three\" is not of type \"integer\""
                    .to_owned()
            ),
            None
        )
    );
}

/// A model whose request spends tokens and then fails, as a ReAct turn does
/// whose replies stay unreadable.
struct SpendsThenFails;

const SPENT: Usage = Usage {
    input_tokens: 300,
    output_tokens: 30,
    cache_read_tokens: 0,
    cache_creation_tokens: 0,
};

impl ChatModel for SpendsThenFails {
    fn complete<'a>(
        &'a self,
        _request: ModelRequest<'a>,
        events: &'a dyn ModelEvents,
        _cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, Result<AssistantReply, ModelError>> {
        events.unanswered_usage(SPENT);
        Box::pin(async { Err(ModelError::Protocol("unreadable".into())) })
    }
}

#[tokio::test]
async fn a_request_that_failed_still_counts_the_tokens_it_spent() {
    let report = agenthub_core::Agent::builder(
        Arc::new(SpendsThenFails),
        agenthub_tools::ToolRegistry::new(),
    )
    .workspace(agenthub_tools::Workspace::new(std::env::temp_dir()))
    .build()
    .run("hi", CancellationToken::new())
    .await;
    assert_eq!(
        (report.status, report.turns, report.usage),
        (RunStatus::Failed, 1, SPENT)
    );
}
