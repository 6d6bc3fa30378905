//! How a run ended (contract §9 `status`).

use serde::{Deserialize, Serialize};
use std::fmt;

/// How a run ended: the `status` of the outcome record and of
/// `--output-format json`, and the source of the exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// The model gave a final answer and the Stop hooks let it stand.
    Completed,
    /// A hook ended the run on purpose (`continue: false` or
    /// prevent-continuation on SessionStart, UserPromptSubmit, Stop or a tool
    /// event).
    Stopped,
    /// A UserPromptSubmit hook blocked the prompt; the model was not asked.
    Blocked,
    /// The run could not go on: a model request failed, or a hook on a gate
    /// failed.
    Failed,
    /// The run reached its turn limit before a final answer.
    MaxTurns,
    /// The run was cancelled (Ctrl-C).
    Cancelled,
}

impl RunStatus {
    /// The status as written in JSON output and the transcript, e.g. `max_turns`.
    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Completed => "completed",
            RunStatus::Stopped => "stopped",
            RunStatus::Blocked => "blocked",
            RunStatus::Failed => "failed",
            RunStatus::MaxTurns => "max_turns",
            RunStatus::Cancelled => "cancelled",
        }
    }

    /// The process exit status of contract §9: 0 for an outcome reached on purpose,
    /// 1 for a failed run, 130 for a cancelled one.
    pub fn exit_code(self) -> i32 {
        match self {
            RunStatus::Completed | RunStatus::Stopped | RunStatus::Blocked => 0,
            RunStatus::Failed | RunStatus::MaxTurns => 1,
            RunStatus::Cancelled => 130,
        }
    }
}

impl fmt::Display for RunStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
