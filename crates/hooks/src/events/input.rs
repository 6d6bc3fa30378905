//! The stdin fields every event shares (docs/hooks.md "stdin JSON"), as one
//! serde type each event's own stdin type flattens into itself. The engine
//! serializes an event's stdin type to give a command hook its stdin;
//! `agenthub hooks test` deserializes a sample through the same type, so the
//! wire is written in one place. Field names are Claude Code's; this module
//! never adds a field Claude Code does not send.

use crate::HookCommon;
use agenthub_protocol::PermissionMode;
use serde::{Deserialize, Serialize};

/// What every event's stdin carries: the session, the transcript, the
/// workspace (`cwd`), the permission mode, the event's name and, in a
/// subagent's run, the subagent. A sample read back (`agenthub hooks test`)
/// may leave out any of them: a missing one reads as a test value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommonInput {
    /// The run's session id.
    #[serde(default = "sample_session_id")]
    pub session_id: String,
    /// The transcript's absolute path; `null` when the run writes none.
    #[serde(default)]
    pub transcript_path: Option<String>,
    /// The workspace root.
    #[serde(default)]
    pub cwd: String,
    /// The permission mode, as settings spell it (`default`, `plan`, …).
    #[serde(default)]
    pub permission_mode: PermissionMode,
    /// The event's name, as Claude Code spells it.
    #[serde(default)]
    pub hook_event_name: String,
    /// The subagent whose run fired the event; absent in the session's own run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    /// The subagent's definition (e.g. `general-purpose`); absent with `agent_id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_type: Option<String>,
}

impl CommonInput {
    /// The common fields of `common`, `hook_event_name` set to `event`.
    pub fn of(common: &HookCommon, event: &str) -> CommonInput {
        CommonInput {
            session_id: common.session_id.clone(),
            transcript_path: common.transcript_path.as_ref().map(|path| {
                std::path::absolute(path)
                    .unwrap_or_else(|_| path.clone())
                    .display()
                    .to_string()
            }),
            cwd: common.workspace.display().to_string(),
            permission_mode: common.permission_mode,
            hook_event_name: event.to_owned(),
            agent_id: common.agent.as_ref().map(|agent| agent.agent_id.clone()),
            agent_type: common.agent.as_ref().map(|agent| agent.agent_type.clone()),
        }
    }
}

fn sample_session_id() -> String {
    "hooks-test".to_owned()
}

/// A tool call's input when a sample gives none.
pub(crate) fn empty_input() -> serde_json::Value {
    serde_json::Value::Object(serde_json::Map::new())
}

/// A tool call's id when a sample gives none.
pub(crate) fn sample_tool_use_id() -> String {
    "toolu_hooks_test".to_owned()
}

/// A reason when a sample gives none.
pub(crate) fn sample_reason() -> String {
    "hooks test".to_owned()
}

/// A compaction's trigger when a sample gives none.
pub(crate) fn manual() -> String {
    "manual".to_owned()
}
