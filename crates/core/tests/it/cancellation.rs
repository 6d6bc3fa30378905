//! Cancellation (contract §7): a cancelled run still writes a result for every
//! pending call before it ends.

use crate::support;

use agenthub_hooks::{HookRegistry, PreToolUseResult};
use agenthub_protocol::{check_pairing, Message, RunStatus};
use serde_json::json;
use support::*;
use tokio_util::sync::CancellationToken;

#[tokio::test]
async fn cancellation_while_a_hook_runs_still_pairs_every_call() {
    let log = Log::default();
    let hooks = HookRegistry::new().pre_tool_use("slow", |ctx| async move {
        ctx.common.cancel.cancel();
        std::future::pending::<()>().await;
        Ok(PreToolUseResult::default())
    });
    let turns = vec![
        calls(&[
            ("call_1", "Probe", json!({"text": "1"})),
            ("call_2", "Probe", json!({"text": "2"})),
        ]),
        answer("never"),
    ];
    let report = agent(model(turns), &log, hooks)
        .build()
        .run("go", CancellationToken::new())
        .await;
    let cancelled =
        "Error [cancelled]: the tool was not run (or was interrupted): the run was cancelled";
    assert_eq!(
        report.history[2..].to_vec(),
        vec![
            Message::tool_error("call_1", cancelled),
            Message::tool_error("call_2", cancelled)
        ]
    );
    assert_eq!(
        (report.status, check_pairing(&report.history)),
        (RunStatus::Cancelled, Ok(()))
    );
    assert_eq!(log.entries(), Vec::<String>::new());
}

#[tokio::test]
async fn a_run_cancelled_before_it_starts_makes_no_model_request() {
    let log = Log::default();
    let cancel = CancellationToken::new();
    cancel.cancel();
    let model = model(vec![answer("never")]);
    let report = agent(model.clone(), &log, HookRegistry::new())
        .build()
        .run("go", cancel)
        .await;
    assert_eq!(
        (report.status, model.requests().len()),
        (RunStatus::Cancelled, 0)
    );
}

/// Cancels the run itself, then fails as a handler that saw the
/// cancellation does (Bash's "the command was cancelled").
struct CancelsThenFails;

impl agenthub_tools::Tool for CancelsThenFails {
    type Input = serde_json::Value;

    fn name(&self) -> &str {
        "CancelsThenFails"
    }

    fn description(&self) -> &str {
        "Cancels the run and fails."
    }

    fn effect(&self) -> agenthub_tools::ToolEffect {
        agenthub_tools::ToolEffect::ReadOnly
    }

    async fn call(
        &self,
        _input: serde_json::Value,
        context: agenthub_tools::ToolContext,
    ) -> Result<agenthub_tools::ToolOutput, agenthub_tools::ToolError> {
        context.cancel.cancel();
        Err(agenthub_tools::ToolError::new("the command was cancelled"))
    }
}

#[tokio::test]
async fn a_handler_that_fails_because_the_run_was_cancelled_gets_the_one_cancelled_result() {
    let log = Log::default();
    let mut registry = tools(&log);
    registry.register(CancelsThenFails).unwrap();
    let turns = vec![
        calls(&[("call_1", "CancelsThenFails", json!({}))]),
        answer("never"),
    ];
    let report = agenthub_core::Agent::builder(model(turns), registry)
        .policy(std::sync::Arc::new(RecordingPolicy(log.clone())))
        .workspace(agenthub_tools::Workspace::new(std::env::temp_dir()))
        .build()
        .run("go", CancellationToken::new())
        .await;
    assert_eq!(
        (report.status, report.history[2..].to_vec()),
        (
            RunStatus::Cancelled,
            vec![Message::tool_error(
                "call_1",
                "Error [cancelled]: the tool was not run (or was interrupted): the run was cancelled"
            )]
        )
    );
}
