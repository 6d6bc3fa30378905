//! What a run reports beyond its answer (contract §12, "Usage" and "Headless
//! asks"): the tokens of every model request, summed and recorded per turn,
//! and every call permission refused — with how to allow an ask that nobody
//! could answer.

use crate::support;

use agenthub_core::{Agent, AgentEvent, Observer, ObserverError, PermissionDenial, RunReport};
use agenthub_model::{AssistantReply, ChatModel, ModelError, ModelEvents, ModelRequest};
use agenthub_policy::{HowToAllow, PermissionMode};
use agenthub_protocol::{Message, Usage, UsageRecord};
use agenthub_tools::{ToolRegistry, Workspace};
use futures::future::BoxFuture;
use serde_json::json;
use std::sync::{Arc, Mutex};
use support::{answer, calls, model, RecordingModel};
use tokio_util::sync::CancellationToken;

/// The scripted model, reporting the next of `usages` with each reply.
struct Metered {
    inner: Arc<RecordingModel>,
    usages: Mutex<Vec<Option<Usage>>>,
}

impl ChatModel for Metered {
    fn complete<'a>(
        &'a self,
        request: ModelRequest<'a>,
        events: &'a dyn ModelEvents,
        cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, Result<AssistantReply, ModelError>> {
        let usage = self.usages.lock().unwrap().remove(0);
        Box::pin(async move {
            let reply = self.inner.complete(request, events, cancel).await?;
            Ok(AssistantReply { usage, ..reply })
        })
    }
}

/// Keeps every usage record the run tells.
#[derive(Default)]
struct UsageRecords(Mutex<Vec<UsageRecord>>);

impl Observer for UsageRecords {
    fn on_event(&self, event: &AgentEvent<'_>) -> Result<(), ObserverError> {
        if let AgentEvent::Usage(record) = event {
            self.0.lock().unwrap().push((*record).clone());
        }
        Ok(())
    }
}

fn usage(input: u64, output: u64, cached: u64) -> Usage {
    Usage {
        input_tokens: input,
        output_tokens: output,
        cache_read_tokens: cached,
        cache_creation_tokens: 0,
    }
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

#[tokio::test]
async fn the_usage_of_every_request_is_summed_and_recorded_with_its_turn() {
    let echo = calls(&[("call_1", "Echo", json!({"text": "hi"}))]);
    let model = Metered {
        inner: model(vec![echo.clone(), echo, answer("done")]),
        usages: Mutex::new(vec![Some(usage(100, 10, 0)), None, Some(usage(130, 5, 96))]),
    };
    let records = Arc::new(UsageRecords::default());
    let agent = Agent::builder(Arc::new(model), ToolRegistry::with_builtins().unwrap())
        .workspace(Workspace::new(std::env::temp_dir()))
        .observer(records.clone())
        .build();
    let report = agent.run("echo twice", CancellationToken::new()).await;
    assert_eq!(
        (
            report.turns,
            report.usage,
            records.0.lock().unwrap().clone()
        ),
        (
            3,
            usage(230, 15, 96),
            vec![
                UsageRecord {
                    turn: 1,
                    usage: usage(100, 10, 0)
                },
                UsageRecord {
                    turn: 3,
                    usage: usage(130, 5, 96)
                },
            ]
        )
    );
}

#[tokio::test]
async fn asks_nobody_can_answer_are_denied_and_reported_with_how_to_allow_them() {
    let dir = tempfile::TempDir::new().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let script = model(vec![
        calls(&[
            ("call_1", "Bash", json!({"command": "npm test"})),
            (
                "call_2",
                "Write",
                json!({"file_path": "a.txt", "content": "x"}),
            ),
            ("call_3", "Read", json!({"file_path": "../elsewhere.txt"})),
        ]),
        answer("could not"),
    ]);
    let agent = Agent::builder(script, ToolRegistry::with_builtins().unwrap())
        .workspace(Workspace::new(root.clone()))
        .build();
    let report = agent.run("test and write", CancellationToken::new()).await;
    let not_run = "Error [permission_denied]: the tool was not run: permission denied";
    let outside = format!(
        "{} is outside the workspace ({})",
        root.parent().unwrap().join("elsewhere.txt").display(),
        root.display()
    );
    assert_eq!(
        (tool_results(&report), report.permission_denials),
        (
            vec![
                format!("{not_run}: approval required"),
                format!("{not_run}: approval required"),
                format!("{not_run}: {outside}"),
            ],
            vec![
                PermissionDenial {
                    tool_name: "Bash".into(),
                    tool_use_id: "call_1".into(),
                    tool_input: json!({"command": "npm test"}),
                    reason: "approval required".into(),
                    how_to_allow: Some(HowToAllow::Rules(vec!["Bash(npm test:*)".into()])),
                },
                PermissionDenial {
                    tool_name: "Write".into(),
                    tool_use_id: "call_2".into(),
                    tool_input: json!({"file_path": "a.txt", "content": "x"}),
                    reason: "approval required".into(),
                    how_to_allow: Some(HowToAllow::Mode(PermissionMode::AcceptEdits)),
                },
                PermissionDenial {
                    tool_name: "Read".into(),
                    tool_use_id: "call_3".into(),
                    tool_input: json!({"file_path": "../elsewhere.txt"}),
                    reason: outside,
                    how_to_allow: None,
                },
            ]
        )
    );
}

/// The scripted model, each reply taking `delay` to arrive.
struct Slow {
    inner: Arc<RecordingModel>,
    delay: std::time::Duration,
}

impl ChatModel for Slow {
    fn complete<'a>(
        &'a self,
        request: ModelRequest<'a>,
        events: &'a dyn ModelEvents,
        cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, Result<AssistantReply, ModelError>> {
        Box::pin(async move {
            tokio::time::sleep(self.delay).await;
            self.inner.complete(request, events, cancel).await
        })
    }
}

#[tokio::test]
async fn the_time_spent_in_model_requests_is_reported_apart_from_the_runs() {
    // Two requests of at least 40 ms each: the API time is at least their
    // sum, and never more than the run's whole time.
    let echo = calls(&[("call_1", "Echo", json!({"text": "hi"}))]);
    let model = Slow {
        inner: model(vec![echo, answer("done")]),
        delay: std::time::Duration::from_millis(40),
    };
    let agent = Agent::builder(Arc::new(model), ToolRegistry::with_builtins().unwrap())
        .workspace(Workspace::new(std::env::temp_dir()))
        .build();
    let report = agent.run("echo once", CancellationToken::new()).await;
    assert_eq!(
        (
            report.duration_api_ms >= 80,
            report.duration_api_ms <= report.duration_ms
        ),
        (true, true),
        "api {} ms of {} ms",
        report.duration_api_ms,
        report.duration_ms
    );
}
