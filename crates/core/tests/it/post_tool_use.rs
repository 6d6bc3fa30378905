//! PostToolUse rules of contract §3: output pipelines, failures that keep the real
//! result, prevent_continuation that still pairs every call, deferred context,
//! and a tool's structured result reaching the hooks while the model sees its text.

use crate::support;

use agenthub_hooks::{HookError, HookRegistry, PostToolUseResult, PreToolUseResult};
use agenthub_protocol::{check_pairing, HookOutcomeKind, HookRecord, Message, RunStatus};
use serde_json::json;
use std::sync::Arc;
use support::*;
use tokio_util::sync::CancellationToken;

#[tokio::test]
async fn two_post_tool_use_hooks_chain_their_rewrites() {
    let log = Log::default();
    let seen = log.clone();
    let hooks = HookRegistry::new()
        .post_tool_use("bracket", |ctx| async move {
            Ok(PostToolUseResult::replace_output(format!(
                "[{}]",
                ctx.result.output
            )))
        })
        .post_tool_use("shout", move |ctx| {
            let seen = seen.clone();
            async move {
                seen.push(format!("shout saw {}", ctx.result.output));
                Ok(PostToolUseResult::replace_output(
                    ctx.result.output.to_uppercase(),
                ))
            }
        });
    let turns = vec![
        calls(&[("call_1", "Echo", json!({"text": "hi"}))]),
        answer("{{last_tool_result}}"),
    ];
    let report = agent(model(turns), &log, hooks)
        .build()
        .run("go", CancellationToken::new())
        .await;
    assert_eq!(
        log.entries(),
        vec!["permission:{\"text\":\"hi\"}:none", "shout saw [hi]"]
    );
    assert_eq!(report.result.as_deref(), Some("[HI]"));
}

#[tokio::test]
async fn post_tool_use_runs_when_the_tool_itself_failed() {
    let log = Log::default();
    let seen = log.clone();
    let hooks = HookRegistry::new().post_tool_use("watch", move |ctx| {
        let seen = seen.clone();
        async move {
            seen.push(format!(
                "post:{}:{}",
                ctx.result.is_error(),
                ctx.result.output
            ));
            Ok(PostToolUseResult::default())
        }
    });
    let turns = vec![
        calls(&[("call_1", "Probe", json!({"text": "x", "fail": true}))]),
        answer("done"),
    ];
    agent(model(turns), &log, hooks)
        .build()
        .run("go", CancellationToken::new())
        .await;
    assert_eq!(
        log.entries()[2],
        "post:true:Error [tool_error]: probe failed on purpose"
    );
}

#[tokio::test]
async fn a_failing_post_hook_keeps_the_real_result_and_reports_handler_ran() {
    let log = Log::default();
    let records = Arc::new(HookRecords::default());
    let hooks = HookRegistry::new().post_tool_use("audit-log", |_ctx| async {
        Err(HookError::execution("disk full"))
    });
    let turns = vec![
        calls(&[("call_1", "Probe", json!({"text": "x"}))]),
        answer("{{last_tool_result}}"),
    ];
    let report = agent(model(turns), &log, hooks)
        .observer(records.clone())
        .build()
        .run("go", CancellationToken::new())
        .await;
    assert_eq!(report.result.as_deref(), Some("probed x"));
    let record = records.0.lock().unwrap()[0].clone();
    assert_eq!(
        HookRecord {
            agent_id: None,
            elapsed_ms: 0.0,
            ..record
        },
        HookRecord {
            agent_id: None,
            event: agenthub_protocol::HookEvent::PostToolUse.into(),
            hook: "audit-log".into(),
            tool_use_id: Some("call_1".into()),
            tool_name: Some("Probe".into()),
            tool_result: Some(agenthub_protocol::ToolResultKind::Ok),
            outcome: HookOutcomeKind::ExecutionError,
            decision: None,
            elapsed_ms: 0.0,
            handler_ran: Some(true),
            error: Some("disk full".into()),
            source: None,
            index: None,
            exit_code: None,
        }
    );
}

#[tokio::test]
async fn prevent_continuation_pairs_the_unrun_calls_and_stops_without_another_request() {
    let log = Log::default();
    let hooks = HookRegistry::new().post_tool_use("enough", |_ctx| async {
        Ok(PostToolUseResult::prevent_continuation("quota reached"))
    });
    let turns = vec![
        calls(&[
            ("call_1", "Probe", json!({"text": "1"})),
            ("call_2", "Probe", json!({"text": "2"})),
            ("call_3", "Probe", json!({"text": "3"})),
        ]),
        answer("never asked"),
    ];
    let model = model(turns);
    let report = agent(model.clone(), &log, hooks)
        .build()
        .run("go", CancellationToken::new())
        .await;
    let skipped = "Error [hook_stopped_continuation]: the tool was not run: a PostToolUse hook ended the run after an earlier call of this message";
    assert_eq!(
        report.history[2..].to_vec(),
        vec![
            Message::tool("call_1", "probed 1"),
            Message::tool_error("call_2", skipped),
            Message::tool_error("call_3", skipped)
        ]
    );
    assert_eq!(
        (
            report.status,
            report.error.as_deref(),
            report.turns,
            model.requests().len()
        ),
        (RunStatus::Stopped, Some("quota reached"), 1, 1)
    );
    assert_eq!(
        log.entries()
            .iter()
            .filter(|entry| entry.starts_with("handler:"))
            .count(),
        1
    );
    assert_eq!(check_pairing(&report.history), Ok(()));
}

#[tokio::test]
async fn additional_context_is_written_after_all_results_of_the_round() {
    let log = Log::default();
    let hooks = HookRegistry::new()
        .pre_tool_use("pre-note", |ctx| async move {
            Ok(PreToolUseResult::context(format!(
                "pre note for {}",
                ctx.call.id()
            )))
        })
        .post_tool_use("post-note", |ctx| async move {
            Ok(PostToolUseResult::context(format!(
                "post note for {}",
                ctx.call.id()
            )))
        });
    let turns = vec![
        calls(&[
            ("call_1", "Echo", json!({"text": "a"})),
            ("call_2", "Echo", json!({"text": "b"})),
        ]),
        answer("done"),
    ];
    let report = agent(model(turns), &log, hooks)
        .build()
        .run("go", CancellationToken::new())
        .await;
    assert_eq!(
        report.history[1..6].to_vec(),
        vec![
            assistant_calls(&[
                ("call_1", "Echo", json!({"text": "a"})),
                ("call_2", "Echo", json!({"text": "b"}))
            ]),
            Message::tool("call_1", "a"),
            Message::tool("call_2", "b"),
            Message::system("pre note for call_1"),
            Message::system("post note for call_1"),
        ]
    );
    assert_eq!(
        report.history[6..8].to_vec(),
        vec![
            Message::system("pre note for call_2"),
            Message::system("post note for call_2")
        ]
    );
}

#[tokio::test]
async fn a_failing_post_hook_is_warned_about_on_the_console_naming_hook_execution_error() {
    let log = Log::default();
    let console = Console::default();
    let hooks = HookRegistry::new().post_tool_use("audit-log", |_ctx| async {
        Err(HookError::execution("disk full"))
    });
    let turns = vec![
        calls(&[("call_1", "Probe", json!({"text": "x"}))]),
        answer("done"),
    ];
    agent(model(turns), &log, hooks)
        .observer(console.observer())
        .build()
        .run("go", CancellationToken::new())
        .await;
    assert_eq!(
        console.warnings(),
        vec!["[Warning] hook_execution_error: PostToolUse hook \"audit-log\" failed: disk full (the tool had already run; its result is kept)"]
    );
}

const BASH_COMMAND: &str = "echo out; echo err >&2";

#[tokio::test]
async fn the_model_still_sees_the_bash_text_when_hooks_get_the_structured_response() {
    let dir = tempfile::tempdir().unwrap();
    let log = Log::default();
    let seen = log.clone();
    let hooks = HookRegistry::new().post_tool_use("save", move |ctx| {
        seen.push(json!(ctx.result.structured).to_string());
        async { Ok(PostToolUseResult::default()) }
    });
    let mut tools = tools(&log);
    tools.register(agenthub_tools::builtin::Bash).unwrap();
    let turns = vec![
        calls(&[("call_1", "Bash", json!({"command": BASH_COMMAND}))]),
        answer("done"),
    ];
    let model = model(turns);
    agenthub_core::Agent::builder(model.clone(), tools)
        .hooks(hooks)
        .policy(Arc::new(RecordingPolicy(log.clone())))
        .workspace(agenthub_tools::Workspace::new(dir.path()))
        .build()
        .run("go", CancellationToken::new())
        .await;
    assert_eq!(
        (log.entries().pop(), model.requests()[1].last()),
        (
            Some(
                json!({"stdout": "out", "stderr": "err", "interrupted": false,
                       "isImage": false, "exitCode": 0})
                .to_string()
            ),
            Some(&Message::tool(
                "call_1",
                "[exit code: 0]\nout\n[stderr]\nerr"
            ))
        )
    );
}
