//! `agenthub batch TASKS.jsonl`: the task list read and checked, then the
//! local batch runner of `agenthub-fleet` with its result lines on `--out`
//! (or stdout) and its progress on stderr. Ctrl-C, SIGTERM and SIGHUP cancel
//! every task; every task still gets its line.
//!
//! Exit status: 0 when every task succeeded; 1 when any task failed or was
//! cancelled (a run's "failed" code, contract §9); 128 + the signal when a signal
//! stopped the batch (as `run`); 2 for a bad task list or `--out` file.

use crate::args::batch::BatchArgs;
use crate::batch_progress::{summary_line, TerminalProgress};
use crate::error::CliError;
use crate::signals::SignalWatch;
use agenthub::CancellationToken;
use agenthub_fleet::{
    read_task_list, run_batch, run_remote_batch, BatchOptions, BatchProgress, Ingress, NoProgress,
    RemoteBatchError, TaskRunOptions,
};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

pub async fn run(args: BatchArgs) -> Result<u8, CliError> {
    let ingress = args.restate.as_deref().map(Ingress::new).transpose()?;
    let tasks = read_task_list(&args.tasks).map_err(|error| CliError::Usage(error.to_string()))?;
    let mut out = results_out(args.out.as_ref())?;
    let options = BatchOptions {
        parallel: args.parallel.map_or_else(cores, usize::from),
        task: TaskRunOptions {
            trust_project: args.trust.trust_project,
            keep: args.keep,
            allow_task_settings: true,
            workspace_root: agenthub_fleet::WorkspaceRoot::Anywhere,
            mcp_config: crate::setup::mcp_config_sources(&args.mcp_config)?,
            strict_mcp_config: args.strict_mcp_config,
        },
    };
    let terminal = TerminalProgress::on_terminal(tasks.len()).map(Arc::new);
    let progress: Arc<dyn BatchProgress> = match &terminal {
        Some(display) => display.clone(),
        None => Arc::new(NoProgress),
    };
    let started = Instant::now();
    let cancel = CancellationToken::new();
    let signals = SignalWatch::start(cancel.clone());
    let summary = match &ingress {
        None => {
            let count = i64::try_from(tasks.len()).unwrap_or(i64::MAX);
            let attributes = vec![("agenthub.batch.tasks", count.into())];
            let batch = run_batch(tasks, options, out.as_mut(), progress, cancel);
            agenthub::tracing_export::traced("batch", attributes, batch)
                .await
                .map_err(|error| CliError::Usage(error.to_string()))?
        }
        Some(ingress) => {
            let count = i64::try_from(tasks.len()).unwrap_or(i64::MAX);
            let attributes = vec![("agenthub.batch.tasks", count.into())];
            let batch = run_remote_batch(ingress, tasks, out.as_mut(), progress, cancel);
            agenthub::tracing_export::traced("batch", attributes, batch)
                .await
                .map_err(|error| match error {
                    RemoteBatchError::Server(error) => CliError::from(error),
                    RemoteBatchError::Write(error) => CliError::Usage(error.to_string()),
                })?
        }
    };
    match &terminal {
        Some(display) => display.finish(&summary, started.elapsed()),
        None => crate::terminal::eprintln_neutral!(
            "agenthub: {}",
            summary_line(&summary, started.elapsed())
        ),
    }
    Ok(signals.exit_code(if summary.all_succeeded() { 0 } else { 1 }))
}

/// `--out FILE` (created or truncated), else stdout.
fn results_out(path: Option<&PathBuf>) -> Result<Box<dyn Write + Send>, CliError> {
    let Some(path) = path else {
        return Ok(Box::new(std::io::stdout()));
    };
    std::fs::File::create(path)
        .map(|file| Box::new(file) as Box<dyn Write + Send>)
        .map_err(|error| CliError::Usage(format!("cannot write {}: {error}", path.display())))
}

/// The number of cores, 1 when it cannot be known.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}
