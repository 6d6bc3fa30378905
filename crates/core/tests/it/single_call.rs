//! A call no model made (`Agent::call_tool`, for `agenthub mcp serve`) takes
//! the one pipeline: hooks, permission, handler, in that order, with the same
//! results a run's call gets; the model is never asked.

use crate::support;

use agenthub_hooks::{HookRegistry, PreToolUseResult};
use agenthub_policy::{Approver, NoTerminalApprover};
use serde_json::json;
use std::sync::Arc;
use support::*;
use tokio_util::sync::CancellationToken;

fn logging_hook(log: &Log) -> HookRegistry {
    let log = log.clone();
    HookRegistry::new().pre_tool_use("logger", move |_ctx| {
        let log = log.clone();
        async move {
            log.push("hook:logger");
            Ok(PreToolUseResult::default())
        }
    })
}

#[tokio::test]
async fn a_single_call_passes_hooks_then_permission_then_its_handler() {
    let log = Log::default();
    let model = model(vec![]);
    let agent = agent(model.clone(), &log, logging_hook(&log)).build();
    let report = agent
        .call_tool(
            &tool_call("mcp_1", "Probe", json!({"text": "a"})),
            CancellationToken::new(),
        )
        .await;
    assert_eq!(report.content, "probed a");
    assert!(report.denial.is_none());
    assert_eq!(
        log.entries(),
        vec![
            "hook:logger",
            r#"permission:{"text":"a"}:none"#,
            r#"handler:{"fail":false,"text":"a"}"#,
        ]
    );
    assert_eq!(
        model.requests(),
        Vec::<Vec<agenthub_protocol::Message>>::new()
    );
}

#[tokio::test]
async fn a_single_call_a_hook_blocks_never_reaches_permission_or_its_handler() {
    let log = Log::default();
    let hooks = HookRegistry::new().pre_tool_use("guard", |_ctx| async {
        Ok(PreToolUseResult::block("not today"))
    });
    let agent = agent(model(vec![]), &log, hooks).build();
    let report = agent
        .call_tool(
            &tool_call("mcp_1", "Probe", json!({"text": "a"})),
            CancellationToken::new(),
        )
        .await;
    assert_eq!(report.content, "Error [hook_blocked]: not today");
    assert_eq!(log.entries(), Vec::<String>::new());
}

#[tokio::test]
async fn a_single_call_nobody_can_approve_is_denied_with_its_denial() {
    let log = Log::default();
    let approver: Arc<dyn Approver> = Arc::new(NoTerminalApprover);
    let agent = agenthub_core::Agent::builder(model(vec![]), tools(&log))
        .approver(approver)
        .workspace(agenthub_tools::Workspace::new(std::env::temp_dir()))
        .build();
    let report = agent
        .call_tool(
            &tool_call("mcp_1", "Probe", json!({"text": "a"})),
            CancellationToken::new(),
        )
        .await;
    assert_eq!(
        report.content,
        "Error [permission_denied]: the tool was not run: permission denied: approval required"
    );
    let denial = report.denial.unwrap();
    assert_eq!(
        (
            denial.tool_name.as_str(),
            denial.tool_use_id.as_str(),
            denial.reason.as_str()
        ),
        ("Probe", "mcp_1", "approval required")
    );
    assert_eq!(log.entries(), Vec::<String>::new());
}

#[tokio::test]
async fn a_cancelled_single_call_gets_the_cancelled_result() {
    let log = Log::default();
    let agent = agent(model(vec![]), &log, HookRegistry::new()).build();
    let cancel = CancellationToken::new();
    cancel.cancel();
    let report = agent
        .call_tool(&tool_call("mcp_1", "Probe", json!({"text": "a"})), cancel)
        .await;
    assert_eq!(
        report.content,
        "Error [cancelled]: the tool was not run (or was interrupted): the run was cancelled"
    );
}
