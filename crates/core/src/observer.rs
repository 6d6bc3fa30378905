//! Observers: everything the loop does is told to them, in order. The transcript
//! writer, the console lines and `stream-json` output are all observers.

use crate::{PermissionDenial, SubagentInfo};
use agenthub_protocol::{
    CheckpointRecord, CompactionRecord, ErrorCode, HookRecord, Message, OutcomeRecord,
    PermissionMode, PermissionModeRecord, PermissionRecord, RewindRecord, SessionRecord,
    StopReason, ToolCall, TranscriptRecord, UsageRecord,
};
use std::sync::Arc;
use thiserror::Error;

/// One thing that happened during a run, in the order it happened; borrowed,
/// so an observer that keeps it must clone.
#[derive(Debug, Clone, Copy)]
pub enum AgentEvent<'a> {
    /// A new session begins: told once, before anything else of it.
    Session(&'a SessionRecord),
    /// A message entered the history (or was produced by the model).
    Message(&'a Message),
    /// A hook ran (or failed): which, for which call, and what it decided.
    Hook(&'a HookRecord),
    /// A permission decision for one call, with the reason: the audit line.
    /// An observer that fails on it stops the call from running.
    Permission(&'a PermissionRecord),
    /// Permission refused a call (told after its decisions); the front end
    /// may say how to allow it. Not a transcript record: the permission
    /// records already are.
    PermissionDenied(&'a PermissionDenial),
    /// The provider reported the tokens of a model request (told right
    /// before the assistant message it produced).
    Usage(&'a UsageRecord),
    /// How the model ended the reply whose assistant message follows (told
    /// right before it, after its usage): `max_tokens` when it was cut at
    /// the output limit (contract §33). The transcript's assistant line and
    /// `stream-json`'s carry it; not a record of its own.
    StopReason(StopReason),
    /// Something the user should know that is not part of the conversation.
    Warning(&'a str),
    /// A failure that did not change the call's result or end the run (a
    /// PostToolUse hook that failed after the tool ran), named by its contract §7 code.
    Failure(ErrorCode, &'a str),
    /// Assistant text as the model streams it.
    TextDelta(&'a str),
    /// A model request begins: which of the run's requests it is, counted
    /// from 1 (as [`UsageRecord::turn`]). Its usage and assistant message
    /// follow when it ends. Not a transcript record: it marks a time.
    ModelRequest(u32),
    /// A tool call enters the pipeline (before its hooks and permission).
    /// Not a transcript record: it marks a time.
    ToolCallStarted(&'a ToolCall),
    /// A tool call has its result: the text the model will read (written
    /// with the round's other results) and, when the call failed or was not
    /// run, its contract §7 code — set where the failure was made, so no
    /// observer reads it back from the text. Told when the pipeline gives the
    /// result, and by the round for every result it makes itself (a call the
    /// run cancelled, or skipped after a hook or the loop guard ended it, and
    /// each call of a reply cut at the output limit, never run;
    /// such a call may never have been told as started, and one the round
    /// overrode after it ran is told twice, the round's result last). Not a
    /// transcript record: the tool message is.
    ToolCallEnded(&'a ToolCall, &'a str, Option<ErrorCode>),
    /// The history was compacted; the summary message follows as a `Message`.
    Compaction(&'a CompactionRecord),
    /// The run ended: its status, final answer or error, and turn count.
    Outcome(&'a OutcomeRecord),
    /// The workspace's files were checkpointed before a round that may
    /// write (contract §24).
    Checkpoint(&'a CheckpointRecord),
    /// The front end rewound the files and/or the conversation (contract §24).
    Rewind(&'a RewindRecord),
    /// The front end changed the session's permission mode (an editor's
    /// `session/set_mode`, contract §31); a resumed session goes on in it.
    PermissionMode(PermissionMode),
    /// A subagent was started by a Task call (contract §17); its events follow
    /// as [`AgentEvent::Subagent`], its `Outcome` last.
    SubagentStarted(&'a SubagentInfo),
    /// An event of a running subagent. Its messages are recorded as sidechain
    /// lines with its `agentId` and its usage on its assistant lines; its
    /// hook and permission records with its `agent_id`; its outcome is not
    /// (the Task result says it).
    Subagent(&'a SubagentInfo, &'a AgentEvent<'a>),
}

impl AgentEvent<'_> {
    /// AgentHub's own transcript record of this event (session, hook,
    /// permission, compaction, outcome); `None` for events that are not
    /// recorded and for messages and usage, which become Claude Code's
    /// conversation lines (see [`LineChain`](crate::LineChain)).
    pub fn to_record(&self) -> Option<TranscriptRecord> {
        match *self {
            AgentEvent::Session(record) => Some(TranscriptRecord::Session(record.clone())),
            AgentEvent::Hook(record) => Some(TranscriptRecord::Hook(record.clone())),
            AgentEvent::Permission(record) => Some(TranscriptRecord::Permission(record.clone())),
            AgentEvent::Outcome(record) => Some(TranscriptRecord::Outcome(record.clone())),
            AgentEvent::Compaction(record) => Some(TranscriptRecord::Compaction(*record)),
            AgentEvent::Checkpoint(record) => Some(TranscriptRecord::Checkpoint(record.clone())),
            AgentEvent::Subagent(_, AgentEvent::Checkpoint(record)) => {
                Some(TranscriptRecord::Checkpoint((*record).clone()))
            }
            AgentEvent::Rewind(record) => Some(TranscriptRecord::Rewind((*record).clone())),
            AgentEvent::PermissionMode(permission_mode) => {
                Some(TranscriptRecord::PermissionMode(PermissionModeRecord {
                    permission_mode,
                }))
            }
            AgentEvent::Subagent(info, AgentEvent::Hook(record)) => {
                Some(TranscriptRecord::Hook(HookRecord {
                    agent_id: Some(info.agent_id.clone()),
                    ..(*record).clone()
                }))
            }
            AgentEvent::Subagent(info, AgentEvent::Permission(record)) => {
                Some(TranscriptRecord::Permission(PermissionRecord {
                    agent_id: Some(info.agent_id.clone()),
                    ..(*record).clone()
                }))
            }
            AgentEvent::Subagent(..) | AgentEvent::SubagentStarted(_) => None,
            AgentEvent::Message(_)
            | AgentEvent::Usage(_)
            | AgentEvent::StopReason(_)
            | AgentEvent::Warning(_)
            | AgentEvent::Failure(..)
            | AgentEvent::TextDelta(_)
            | AgentEvent::ModelRequest(_)
            | AgentEvent::ToolCallStarted(_)
            | AgentEvent::ToolCallEnded(..)
            | AgentEvent::PermissionDenied(_) => None,
        }
    }
}

/// An observer could not take an event (a transcript write failed, …); the
/// text says why.
#[derive(Debug, Error)]
#[error("observer failed: {0}")]
pub struct ObserverError(pub String);

/// Told about every event. An error matters where the event is an audit
/// (permission decisions): the call is then not run.
pub trait Observer: Send + Sync {
    /// Takes one event. Called on the run's task: keep it quick.
    fn on_event(&self, event: &AgentEvent<'_>) -> Result<(), ObserverError>;
}

/// Ignores everything.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoopObserver;

impl Observer for NoopObserver {
    fn on_event(&self, _event: &AgentEvent<'_>) -> Result<(), ObserverError> {
        Ok(())
    }
}

/// Fans every event out to several observers, in order; every observer is told
/// even when an earlier one fails, and the first failure is returned.
#[derive(Clone, Default)]
pub struct Observers(Vec<Arc<dyn Observer>>);

impl Observers {
    /// No observers yet.
    pub fn new() -> Self {
        Observers(Vec::new())
    }

    /// Adds `observer` after the others (builder style).
    pub fn with(mut self, observer: Arc<dyn Observer>) -> Self {
        self.0.push(observer);
        self
    }

    /// Adds `observer` after the others.
    pub fn push(&mut self, observer: Arc<dyn Observer>) {
        self.0.push(observer);
    }
}

impl Observer for Observers {
    fn on_event(&self, event: &AgentEvent<'_>) -> Result<(), ObserverError> {
        let mut first_error = None;
        for observer in &self.0 {
            if let Err(error) = observer.on_event(event) {
                first_error.get_or_insert(error);
            }
        }
        first_error.map_or(Ok(()), Err)
    }
}
