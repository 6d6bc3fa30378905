//! How a run ended (SPEC §9 `status`).

use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    Completed,
    Stopped,
    Blocked,
    Failed,
    MaxTurns,
    Cancelled,
}

impl RunStatus {
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

    /// The process exit status of SPEC §9: 0 for an outcome reached on purpose,
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
