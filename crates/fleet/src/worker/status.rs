//! What `status` reports about one task's session, kept in the virtual
//! object's state by its `run` handler. Plain data: it must never hold
//! anything a replay could not rebuild.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The state key the status is kept under.
pub(crate) const STATUS: &str = "status";

/// One ask waiting for `agenthub approve`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PendingAsk {
    /// The tool call's id: what `approve` names.
    pub call_id: String,
    /// The tool the model wants to run.
    pub tool: String,
    /// Its input.
    pub input: Value,
    /// Why the policy asks.
    pub reason: String,
    /// The Restate awakeable `approve` resolves.
    pub awakeable: String,
}

/// A task's session as `agenthub status` shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum SessionStatus {
    /// The session is running (no ask waiting).
    Running,
    /// The session waits for an answer to each of `pending`.
    WaitingForApproval {
        /// The asks waiting, oldest first.
        pending: Vec<PendingAsk>,
    },
    /// The session ended; `result` is its result line.
    Done {
        /// The task's result line.
        result: Value,
    },
}
