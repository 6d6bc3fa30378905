//! What every event's context carries (contract §3 table); each event's own
//! fields are in its module under `events/`.

use agenthub_protocol::PermissionMode;
use std::path::PathBuf;
use tokio_util::sync::CancellationToken;

/// What every event carries: the session, the workspace, the transcript, the
/// permission mode, and a token that is cancelled when the run is.
#[derive(Debug, Clone)]
pub struct HookCommon {
    /// The run's session id (command hooks' `session_id`), to correlate a
    /// hook's events with each other and with the transcript.
    pub session_id: String,
    /// The workspace root (command hooks' `cwd`); tool paths are resolved
    /// against it.
    pub workspace: PathBuf,
    /// Where the run's transcript is written, when it is.
    pub transcript_path: Option<PathBuf>,
    /// The permission mode in force; hooks' stdin spells it as settings do
    /// (`default`, `plan`, `acceptEdits`, …).
    pub permission_mode: PermissionMode,
    /// Cancelled when the run is: a long-running hook should stop early.
    pub cancel: CancellationToken,
    /// The subagent whose run fired the event (contract §17): command hooks get
    /// its `agent_id` and `agent_type`. `None` for the session's own run.
    pub agent: Option<SubagentIdentity>,
}

/// Which subagent a hook event belongs to: every hook of a subagent's run
/// is told, so one script can govern parent and child alike.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubagentIdentity {
    /// Unique within the session: names the subagent's records in the
    /// transcript and its hook payloads (`agent_id`).
    pub agent_id: String,
    /// The definition it was started from, e.g. `general-purpose` (`agent_type`).
    pub agent_type: String,
}

#[cfg(test)]
impl HookCommon {
    /// The common fields of a session `s` in `workspace`, for this crate's tests.
    pub(crate) fn sample(workspace: impl Into<PathBuf>) -> HookCommon {
        HookCommon {
            session_id: "s".to_owned(),
            workspace: workspace.into(),
            transcript_path: None,
            permission_mode: PermissionMode::Default,
            cancel: CancellationToken::new(),
            agent: None,
        }
    }
}
