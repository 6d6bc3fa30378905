//! The durable-step seam (contract §18): with a journal, model requests and tool
//! handlers are steps a replay takes from the journal instead of repeating,
//! and a call that began but never finished is not run again.

use crate::support;

use agenthub_protocol::{RunStatus, StepFuture, StepJournal, StepKind};
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use support::*;
use tokio_util::sync::CancellationToken;

/// Replays `recorded` steps by position, then runs and records the rest.
#[derive(Default)]
struct MemoryJournal {
    recorded: Mutex<Vec<(String, Value)>>,
    position: Mutex<usize>,
}

impl MemoryJournal {
    fn replaying(recorded: Vec<(String, Value)>) -> Arc<Self> {
        Arc::new(MemoryJournal {
            recorded: Mutex::new(recorded),
            position: Mutex::new(0),
        })
    }

    fn steps(&self) -> Vec<(String, Value)> {
        self.recorded.lock().unwrap().clone()
    }
}

impl StepJournal for MemoryJournal {
    fn step<'a>(&'a self, _: StepKind, name: &'a str, work: StepFuture<'a>) -> StepFuture<'a> {
        Box::pin(async move {
            let index = {
                let mut position = self.position.lock().unwrap();
                *position += 1;
                *position - 1
            };
            if let Some((_, value)) = self.recorded.lock().unwrap().get(index) {
                return Ok(value.clone());
            }
            let value = work.await?;
            self.recorded
                .lock()
                .unwrap()
                .push((name.to_owned(), value.clone()));
            Ok(value)
        })
    }
}

fn script() -> Vec<Value> {
    vec![
        calls(&[("call_1", "Probe", json!({"text": "once"}))]),
        answer("{{last_tool_result}}"),
    ]
}

#[tokio::test]
async fn a_journaled_run_records_each_model_request_and_each_call_as_steps() {
    let log = Log::default();
    let journal = Arc::new(MemoryJournal::default());
    let agent = agent(model(script()), &log, Default::default())
        .journal(journal.clone())
        .build();
    let report = agent.run("go", CancellationToken::new()).await;
    let names: Vec<String> = journal.steps().into_iter().map(|(name, _)| name).collect();
    assert_eq!(
        (report.status, report.result.as_deref(), names),
        (
            RunStatus::Completed,
            Some("probed once"),
            vec![
                "model request".to_owned(),
                "tool call call_1 began".to_owned(),
                "tool call call_1".to_owned(),
                "model request".to_owned(),
            ]
        )
    );
}

#[tokio::test]
async fn a_replay_repeats_no_model_request_and_no_handler() {
    let first = Arc::new(MemoryJournal::default());
    let log = Log::default();
    agent(model(script()), &log, Default::default())
        .journal(first.clone())
        .build()
        .run("go", CancellationToken::new())
        .await;
    let replay_log = Log::default();
    let replay_model = model(script());
    let report = agent(replay_model.clone(), &replay_log, Default::default())
        .journal(MemoryJournal::replaying(first.steps()))
        .build()
        .run("go", CancellationToken::new())
        .await;
    let handlers: Vec<String> = replay_log
        .entries()
        .into_iter()
        .filter(|entry| entry.starts_with("handler:"))
        .collect();
    assert_eq!(
        (
            report.result.as_deref(),
            replay_model.requests().len(),
            handlers
        ),
        (Some("probed once"), 0, Vec::<String>::new())
    );
}

#[tokio::test]
async fn a_call_that_began_on_a_stopped_worker_is_interrupted_not_run_again() {
    let first = Arc::new(MemoryJournal::default());
    agent(model(script()), &Log::default(), Default::default())
        .journal(first.clone())
        .build()
        .run("go", CancellationToken::new())
        .await;
    let began: Vec<(String, Value)> = first.steps().into_iter().take(2).collect();
    let log = Log::default();
    let replay_model = model(script());
    let report = agent(replay_model.clone(), &log, Default::default())
        .journal(MemoryJournal::replaying(began))
        .build()
        .run("go", CancellationToken::new())
        .await;
    let handlers = log
        .entries()
        .into_iter()
        .filter(|entry| entry.starts_with("handler:"))
        .count();
    assert_eq!(
        (
            report.result.as_deref(),
            replay_model.requests().len(),
            handlers
        ),
        (
            Some("Error [tool_error]: interrupted: the worker running this call stopped"),
            1,
            0
        )
    );
}
