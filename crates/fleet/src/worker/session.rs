//! One task's session on a worker: the local run of a task (`run_task`)
//! with the worker's parts added — the bridge as journal and approver, one
//! subagent at a time (journal steps must come in a fixed order), the
//! session id the handler journaled, and a git workspace restored from its
//! last checkpoint. It must never change what a task's session is: hooks,
//! trust, sandbox and transcript are the local path's.

use super::bridge::Bridge;
use super::checkpoint;
use crate::run_task::{run_task_with, SessionParts, TaskRunOptions};
use crate::task::TaskSpec;
use crate::workspace::PreparedWorkspace;
use agenthub::crates::settings::Settings;
use agenthub::{AgentBuilder, CancellationToken, StepJournal};
use futures::future::BoxFuture;
use serde_json::Value;
use std::sync::{Arc, PoisonError};

/// Runs `task` with its steps and asks going through `bridge`; its result line.
pub(crate) async fn run_durably(
    task: TaskSpec,
    options: TaskRunOptions,
    bridge: Bridge,
    session_id: String,
    cancel: CancellationToken,
) -> Value {
    let journal: Arc<dyn StepJournal> = Arc::new(bridge.clone());
    let parts = WorkerParts {
        bridge,
        session_id,
        task_id: task.id.clone(),
    };
    let run = run_task_with(&task, &options, cancel, &parts);
    let outcome = agenthub::journal_hooks(journal, run).await;
    outcome.line().clone()
}

struct WorkerParts {
    bridge: Bridge,
    session_id: String,
    task_id: String,
}

impl SessionParts for WorkerParts {
    fn session_id(&self) -> Option<String> {
        Some(self.session_id.clone())
    }

    fn workspace_ready<'a>(
        &'a self,
        workspace: &'a PreparedWorkspace,
    ) -> BoxFuture<'a, Result<(), checkpoint::CheckpointError>> {
        Box::pin(async move {
            if !workspace.is_clone() {
                return Ok(());
            }
            checkpoint::restore(workspace.path(), &self.task_id).await?;
            *self
                .bridge
                .learned
                .git_workspace
                .lock()
                .unwrap_or_else(PoisonError::into_inner) = Some(workspace.path().to_path_buf());
            Ok(())
        })
    }

    fn agent(&self, builder: AgentBuilder, settings: &Settings) -> AgentBuilder {
        *self
            .bridge
            .learned
            .approval_timeout
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = settings.approval_timeout;
        builder
            .approver(Arc::new(self.bridge.clone()))
            .journal(Arc::new(self.bridge.clone()))
            .max_parallel_agents(1)
    }
}
