//! The local batch (contract §18): every task of a list as an independent
//! session, N at a time, each result line written — and flushed — as its task
//! finishes, in completion order. The tasks share the MCP servers configured
//! the same for them (a user-level server starts once per batch; see
//! [`crate::run_task`]).
//!
//! It must never lose a line: a task that fails, panics, or is cancelled
//! before or while it runs (Ctrl-C) still gets its line; one task's failure
//! never stops the others. It never prints anything but the lines; progress
//! goes to a [`BatchProgress`] the front end draws.

use crate::result_line::{NotStarted, TaskOutcome};
use crate::run_task::{run_task_with, BatchParts, TaskRunOptions};
use crate::task::TaskSpec;
use agenthub::CancellationToken;
use std::collections::HashMap;
use std::io::Write;
use std::sync::Arc;
use thiserror::Error;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

/// How the batch runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchOptions {
    /// Tasks running at once (at least 1).
    pub parallel: usize,
    /// What the runner decides for every task (`--trust-project`, `--keep`).
    pub task: TaskRunOptions,
}

/// Told of each task as it starts and ends (a progress display).
pub trait BatchProgress: Send + Sync {
    /// The task `id`'s session is about to be prepared.
    fn started(&self, id: &str);
    /// The task ended (its line is already written).
    fn finished(&self, outcome: &TaskOutcome);
}

/// Progress nobody watches.
pub struct NoProgress;

impl BatchProgress for NoProgress {
    fn started(&self, _id: &str) {}
    fn finished(&self, _outcome: &TaskOutcome) {}
}

/// How many tasks ended how.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BatchSummary {
    /// Tasks in the list.
    pub total: usize,
    /// Tasks that ended without error (completed, stopped or blocked on purpose).
    pub succeeded: usize,
    /// Tasks that failed (including those that could not start).
    pub failed: usize,
    /// Tasks cancelled, while running or before they started.
    pub cancelled: usize,
}

impl BatchSummary {
    /// Whether every task succeeded.
    pub fn all_succeeded(&self) -> bool {
        self.succeeded == self.total
    }

    pub(crate) fn count(&mut self, outcome: &TaskOutcome) {
        match (outcome.is_error(), outcome.status()) {
            (false, _) => self.succeeded += 1,
            (true, agenthub::RunStatus::Cancelled) => self.cancelled += 1,
            (true, _) => self.failed += 1,
        }
    }
}

/// The results could not be written.
#[derive(Debug, Error)]
#[error("cannot write the result of task \"{id}\": {error}")]
pub struct BatchError {
    /// The task whose line could not be written (the batch was cancelled then).
    pub id: String,
    /// Why.
    pub error: std::io::Error,
}

/// Runs `tasks`, `options.parallel` at a time, writing each result line to
/// `out` as its task finishes; `cancel` (Ctrl-C) cancels every task, and
/// every task still gets its line. A line that cannot be written cancels the
/// rest and is the error.
pub async fn run_batch(
    tasks: Vec<TaskSpec>,
    options: BatchOptions,
    out: &mut (dyn Write + Send),
    progress: Arc<dyn BatchProgress>,
    cancel: CancellationToken,
) -> Result<BatchSummary, BatchError> {
    let mut summary = BatchSummary {
        total: tasks.len(),
        ..BatchSummary::default()
    };
    let mut running = spawn_all(tasks, options, &progress, &cancel);
    let mut failed_write = None;
    while let Some((outcome, _permit)) = next_outcome(&mut running).await {
        summary.count(&outcome);
        if failed_write.is_none() {
            if let Err(error) = write_line(out, &outcome) {
                cancel.cancel();
                failed_write = Some(BatchError {
                    id: outcome.id().to_owned(),
                    error,
                });
            }
        }
        progress.finished(&outcome);
    }
    match failed_write {
        Some(error) => Err(error),
        None => Ok(summary),
    }
}

/// The tasks spawned, and each spawned task's id (for a task that panics).
struct Running {
    set: JoinSet<(TaskOutcome, Permit)>,
    ids: HashMap<tokio::task::Id, String>,
}

/// A running slot, held until the task's line is written (and its clone
/// removed), so no more than `parallel` workspaces exist at once.
type Permit = Option<tokio::sync::OwnedSemaphorePermit>;

fn spawn_all(
    tasks: Vec<TaskSpec>,
    options: BatchOptions,
    progress: &Arc<dyn BatchProgress>,
    cancel: &CancellationToken,
) -> Running {
    let slots = Arc::new(Semaphore::new(options.parallel.max(1)));
    let parts = Arc::new(BatchParts {
        mcp: Arc::new(agenthub::SharedServers::new()),
    });
    let mut running = Running {
        set: JoinSet::new(),
        ids: HashMap::new(),
    };
    for task in tasks {
        let id = task.id.clone();
        let (slots, progress, cancel) = (slots.clone(), progress.clone(), cancel.clone());
        let parts = parts.clone();
        let task_options = options.task.clone();
        let handle = running
            .set
            .spawn(agenthub::tracing_export::carry_trace(async move {
                let permit = tokio::select! {
                    biased;
                    () = cancel.cancelled() => None,
                    permit = slots.acquire_owned() => permit.ok(),
                };
                if permit.is_none() {
                    return (
                        TaskOutcome::not_started(&task.id, NotStarted::cancelled(), 0),
                        None,
                    );
                }
                progress.started(&task.id);
                let attributes = vec![("agenthub.task.id", task.id.as_str().into())];
                let run = run_task_with(&task, &task_options, cancel, parts.as_ref());
                let outcome = agenthub::tracing_export::traced("task", attributes, run).await;
                (outcome, permit)
            }));
        running.ids.insert(handle.id(), id);
    }
    running
}

/// The next task to end; a task that panicked ends as failed with its id.
async fn next_outcome(running: &mut Running) -> Option<(TaskOutcome, Permit)> {
    let joined = running.set.join_next_with_id().await?;
    Some(match joined {
        Ok((_, ended)) => ended,
        Err(error) => {
            let id = running.ids.get(&error.id()).cloned().unwrap_or_default();
            let why =
                NotStarted::failed("internal_error", format!("the task's run broke: {error}"));
            (TaskOutcome::not_started(&id, why, 0), None)
        }
    })
}

/// Writes the outcome's line in one write: a reader following the file
/// never sees half a line, and an unbuffered file is not written a token
/// at a time (one system call per JSON token was a tenth of a batch's cost).
fn write_line(out: &mut (dyn Write + Send), outcome: &TaskOutcome) -> std::io::Result<()> {
    let mut line = outcome.line().to_string();
    line.push('\n');
    out.write_all(line.as_bytes())?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::TaskWorkspace;
    use serde_json::Value;

    fn missing_workspace_task(id: &str) -> TaskSpec {
        TaskSpec {
            id: id.to_owned(),
            prompt: "p".to_owned(),
            workspace: TaskWorkspace::Path {
                path: "/nonexistent/agenthub-batch-test".into(),
            },
            settings: None,
            script: None,
            model: None,
        }
    }

    fn options() -> BatchOptions {
        BatchOptions {
            parallel: 2,
            task: TaskRunOptions::default(),
        }
    }

    fn ids_and_subtypes(out: &[u8]) -> Vec<(String, String)> {
        let mut lines: Vec<(String, String)> = String::from_utf8_lossy(out)
            .lines()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .map(|line| {
                (
                    line["id"].as_str().unwrap_or_default().to_owned(),
                    line["subtype"].as_str().unwrap_or_default().to_owned(),
                )
            })
            .collect();
        lines.sort();
        lines
    }

    /// Keeps each `write` call apart, as a file's reader would see them.
    #[derive(Default)]
    struct Writes(Vec<Vec<u8>>);

    impl Write for Writes {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.push(bytes.to_vec());
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_result_line_is_written_whole_in_one_write() {
        let why = NotStarted::failed("workspace_error", "no such folder");
        let outcome = TaskOutcome::not_started("t1", why, 0);
        let mut writes = Writes::default();
        write_line(&mut writes, &outcome).unwrap();
        assert_eq!(writes.0, vec![format!("{}\n", outcome.line()).into_bytes()]);
    }

    #[tokio::test]
    async fn every_failing_task_still_gets_its_line_and_is_counted() {
        let tasks = vec![missing_workspace_task("a"), missing_workspace_task("b")];
        let mut out = Vec::new();
        let summary = run_batch(
            tasks,
            options(),
            &mut out,
            Arc::new(NoProgress),
            CancellationToken::new(),
        )
        .await
        .ok();
        assert_eq!(
            (summary, ids_and_subtypes(&out)),
            (
                Some(BatchSummary {
                    total: 2,
                    succeeded: 0,
                    failed: 2,
                    cancelled: 0
                }),
                vec![
                    ("a".to_owned(), "workspace_error".to_owned()),
                    ("b".to_owned(), "workspace_error".to_owned())
                ]
            )
        );
    }

    #[tokio::test]
    async fn a_batch_cancelled_before_it_starts_writes_a_cancelled_line_per_task() {
        let tasks = vec![missing_workspace_task("a"), missing_workspace_task("b")];
        let cancel = CancellationToken::new();
        cancel.cancel();
        let mut out = Vec::new();
        let summary = run_batch(tasks, options(), &mut out, Arc::new(NoProgress), cancel)
            .await
            .ok();
        assert_eq!(
            (summary.map(|s| s.cancelled), ids_and_subtypes(&out)),
            (
                Some(2),
                vec![
                    ("a".to_owned(), "cancelled".to_owned()),
                    ("b".to_owned(), "cancelled".to_owned())
                ]
            )
        );
    }

    /// A writer that always fails.
    struct Broken;

    impl Write for Broken {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk full"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[tokio::test]
    async fn a_line_that_cannot_be_written_is_the_error() {
        let tasks = vec![missing_workspace_task("only")];
        let error = run_batch(
            tasks,
            options(),
            &mut Broken,
            Arc::new(NoProgress),
            CancellationToken::new(),
        )
        .await
        .map_err(|error| error.to_string());
        assert_eq!(
            error,
            Err("cannot write the result of task \"only\": disk full".to_owned())
        );
    }
}
