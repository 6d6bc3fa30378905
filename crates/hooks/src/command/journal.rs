//! Hook runs as journaled steps (contract §18 "Durability"). The external part
//! of a hook — a command's exit code, stdout and stderr, an HTTP answer, a
//! prompt hook's model answer, an MCP tool's answer — is what a replay must
//! not repeat, so that raw run is the step; reading it into the event's
//! typed result stays ordinary code that runs on every attempt.
//!
//! The journal reaches the hooks through a task-local that core sets around
//! a run ([`scope`]): hook contexts stay plain data, and a hook run outside
//! any scope (the local path, `agenthub hooks test`, a background `async`
//! hook on its own task) calls its handler directly. This module must never
//! journal anything but a hook's raw run.

use super::RawRun;
use agenthub_protocol::{StepError, StepJournal, StepKind};
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

tokio::task_local! {
    static JOURNAL: Arc<dyn StepJournal>;
}

/// Runs `future` with `journal` recording every hook run inside it.
pub async fn scope<F: Future>(journal: Arc<dyn StepJournal>, future: F) -> F::Output {
    JOURNAL.scope(journal, future).await
}

/// Runs `run` as the step `name` when a journal is in scope, else directly.
/// A recorded run that cannot be read back counts as a refused run, so the
/// event's failure policy decides, as for any hook that could not answer.
pub(crate) async fn journaled<F>(name: &str, run: F) -> RawRun
where
    F: Future<Output = RawRun> + Send,
{
    let Ok(journal) = JOURNAL.try_with(Arc::clone) else {
        return run.await;
    };
    let work = Box::pin(async move {
        let raw = run.await;
        serde_json::to_value(&raw).map_err(|error| StepError {
            step: name.to_owned(),
            reason: error.to_string(),
        })
    });
    let recorded = journal
        .step(StepKind::HookRun, name, work)
        .await
        .and_then(|value| {
            serde_json::from_value::<RawRun>(value).map_err(|error| StepError {
                step: name.to_owned(),
                reason: format!("the recorded hook run cannot be read: {error}"),
            })
        });
    recorded.unwrap_or_else(|error| RawRun {
        end: super::RunEnd::Refused(error.to_string()),
        stdout: String::new(),
        stderr: String::new(),
        elapsed: Duration::ZERO,
    })
}
