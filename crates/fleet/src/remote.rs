//! `agenthub batch --restate` (contract §18): every task submitted to the fleet
//! at once (the server and its workers decide how many run), each result
//! line written as its task ends, exactly as the local batch writes them.
//! Ctrl-C cancels every task still running on the fleet and waits for their
//! (cancelled) lines. It must never run a task here.

use crate::client::{ClientError, Ingress};
use crate::local::{BatchError, BatchProgress, BatchSummary};
use crate::result_line::{NotStarted, TaskOutcome};
use crate::task::TaskSpec;
use agenthub::CancellationToken;
use std::io::Write;
use std::sync::Arc;
use thiserror::Error;
use tokio::task::JoinSet;

/// Why a fleet batch stopped.
#[derive(Debug, Error)]
pub enum RemoteBatchError {
    /// The Restate server cannot be used: nothing was submitted.
    #[error(transparent)]
    Server(#[from] ClientError),
    /// A result line could not be written.
    #[error(transparent)]
    Write(#[from] BatchError),
}

/// Submits `tasks` to the fleet behind `ingress` and writes each result
/// line to `out` as it arrives.
pub async fn run_remote_batch(
    ingress: &Ingress,
    tasks: Vec<TaskSpec>,
    out: &mut (dyn Write + Send),
    progress: Arc<dyn BatchProgress>,
    cancel: CancellationToken,
) -> Result<BatchSummary, RemoteBatchError> {
    ingress.check().await?;
    let mut summary = BatchSummary {
        total: tasks.len(),
        ..BatchSummary::default()
    };
    let ids: Vec<String> = tasks.iter().map(|task| task.id.clone()).collect();
    let mut running = JoinSet::new();
    for task in tasks {
        progress.started(&task.id);
        let ingress = ingress.clone();
        running.spawn(agenthub::tracing_export::carry_trace(async move {
            let attributes = vec![("agenthub.task.id", task.id.as_str().into())];
            let submitted =
                agenthub::tracing_export::traced("task", attributes, ingress.run(&task));
            match submitted.await {
                Ok(line) => TaskOutcome::reported(&task.id, line),
                Err(error) => {
                    TaskOutcome::not_started(&task.id, NotStarted::failed("fleet_error", error), 0)
                }
            }
        }));
    }
    let canceller = tokio::spawn(cancel_on(cancel.clone(), ingress.clone(), ids));
    let mut failed_write = None;
    while let Some(joined) = running.join_next().await {
        let outcome = joined.unwrap_or_else(|error| {
            let why =
                NotStarted::failed("internal_error", format!("the submission broke: {error}"));
            TaskOutcome::not_started("", why, 0)
        });
        summary.count(&outcome);
        if failed_write.is_none() {
            if let Err(error) = writeln!(out, "{}", outcome.line()).and_then(|()| out.flush()) {
                failed_write = Some(BatchError {
                    id: outcome.id().to_owned(),
                    error,
                });
            }
        }
        progress.finished(&outcome);
    }
    canceller.abort();
    match failed_write {
        Some(error) => Err(error.into()),
        None => Ok(summary),
    }
}

/// When `cancel` fires, asks the fleet to cancel every task, and asks again
/// each second until the batch stops this (every task has its line): a task
/// no worker has started yet cannot be cancelled until it starts, and a task
/// already done answers that nothing runs.
async fn cancel_on(cancel: CancellationToken, ingress: Ingress, ids: Vec<String>) {
    cancel.cancelled().await;
    loop {
        for id in &ids {
            let _ = ingress.cancel(id).await;
        }
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    }
}
