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
            Message::tool("call_1", cancelled),
            Message::tool("call_2", cancelled)
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
