//! A task's result line: the `--output-format json` object of `agenthub run`
//! (Claude Code's result message, `is_error` included) plus `id`; for a task
//! that never started its session (a bad workspace, a failed clone, bad
//! settings, cancelled first), the same keys with `"is_error": true`, a
//! `subtype` naming why and the error text.
//!
//! Every task gets exactly one line: this module has no way to make a task
//! without one.

use crate::workspace::PreparedWorkspace;
use agenthub::{RunReport, RunStatus, Usage};
use serde_json::{json, Value};
use std::path::Path;

/// Why a task never started its session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotStarted {
    /// `cancelled`, `workspace_error`, `clone_error`, `settings_error`,
    /// `script_error`, `model_error` or `setup_error`.
    pub subtype: &'static str,
    /// `cancelled` for a task cancelled before it started, else `failed`.
    pub status: RunStatus,
    /// What went wrong, in words.
    pub error: String,
}

impl NotStarted {
    /// A task that failed to start for `error`.
    pub fn failed(subtype: &'static str, error: impl ToString) -> NotStarted {
        NotStarted {
            subtype,
            status: RunStatus::Failed,
            error: error.to_string(),
        }
    }

    /// A task cancelled (Ctrl-C) before its session started.
    pub fn cancelled() -> NotStarted {
        NotStarted {
            subtype: "cancelled",
            status: RunStatus::Cancelled,
            error: "cancelled before the task's session started".to_owned(),
        }
    }
}

/// One finished task: its result line, and its workspace until the line is
/// written (a clone is removed when the outcome is dropped, unless kept).
#[derive(Debug)]
pub struct TaskOutcome {
    id: String,
    status: RunStatus,
    line: Value,
    workspace: Option<PreparedWorkspace>,
}

impl TaskOutcome {
    /// The outcome of a session that ran: `run`'s JSON object plus `id`.
    pub fn ran(
        id: &str,
        report: &RunReport,
        transcript: &Path,
        workspace: Option<PreparedWorkspace>,
    ) -> TaskOutcome {
        let mut line = agenthub::report_json(report, transcript, &crate::denial_reason);
        if let Value::Object(map) = &mut line {
            map.insert("id".to_owned(), json!(id));
        }
        TaskOutcome {
            id: id.to_owned(),
            status: report.status,
            line,
            workspace,
        }
    }

    /// The outcome of a task whose session never started.
    pub fn not_started(id: &str, why: NotStarted, duration_ms: u64) -> TaskOutcome {
        let line = json!({
            "id": id,
            "type": "result",
            "status": why.status.as_str(),
            "subtype": why.subtype,
            "is_error": true,
            "error": why.error,
            "result": null,
            "turns": 0,
            "num_turns": 0,
            "session_id": null,
            "transcript_path": null,
            "usage": agenthub::usage_json(&Usage::default()),
            "duration_ms": duration_ms,
            "duration_api_ms": 0,
            "permission_denials": [],
            "total_cost_usd": 0.0,
        });
        TaskOutcome {
            id: id.to_owned(),
            status: why.status,
            line,
            workspace: None,
        }
    }

    /// The outcome a fleet worker reported: its result line as it came.
    /// A line without a known `status` counts as failed.
    pub fn reported(id: &str, line: Value) -> TaskOutcome {
        let status = serde_json::from_value(line["status"].clone()).unwrap_or(RunStatus::Failed);
        TaskOutcome {
            id: id.to_owned(),
            status,
            line,
            workspace: None,
        }
    }

    /// The task's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// How the task ended.
    pub fn status(&self) -> RunStatus {
        self.status
    }

    /// Whether the task failed or was cancelled (`stopped` and `blocked` by
    /// a hook on purpose are not errors, as in `run`'s exit code).
    pub fn is_error(&self) -> bool {
        self.status.exit_code() != 0
    }

    /// The result line (one JSON object, without its newline).
    pub fn line(&self) -> &Value {
        &self.line
    }

    /// The workspace the task ran in, while the outcome lives.
    pub fn workspace(&self) -> Option<&PreparedWorkspace> {
        self.workspace.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_task_that_never_started_has_every_key_of_a_run_and_says_why() {
        let outcome = TaskOutcome::not_started(
            "t1",
            NotStarted::failed("clone_error", "git clone x failed: nope"),
            7,
        );
        assert_eq!(
            (outcome.is_error(), outcome.line().clone()),
            (
                true,
                json!({
                    "id": "t1", "type": "result", "status": "failed", "subtype": "clone_error",
                    "is_error": true, "error": "git clone x failed: nope", "result": null,
                    "turns": 0, "num_turns": 0, "session_id": null, "transcript_path": null,
                    "usage": {"input_tokens": 0, "output_tokens": 0, "cache_read_tokens": 0,
                              "cache_creation_tokens": 0, "cache_read_input_tokens": 0,
                              "cache_creation_input_tokens": 0},
                    "duration_ms": 7, "duration_api_ms": 0, "permission_denials": [],
                    "total_cost_usd": 0.0,
                })
            )
        );
    }

    #[test]
    fn a_cancelled_task_is_an_error_with_status_cancelled() {
        let outcome = TaskOutcome::not_started("t2", NotStarted::cancelled(), 0);
        assert_eq!(
            (
                outcome.status(),
                outcome.line()["status"].clone(),
                outcome.line()["subtype"].clone()
            ),
            (RunStatus::Cancelled, json!("cancelled"), json!("cancelled"))
        );
    }
}
