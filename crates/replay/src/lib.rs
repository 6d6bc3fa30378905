//! Policy replay (contract §25): every tool call a transcript records,
//! decided again under another configuration — the session workspace's own
//! settings layers plus the caller's extra settings files, rules and mode —
//! without running a tool or a model. Each call gets its recorded and its
//! new decision; a replay says which calls would now be denied, allowed, or
//! decided otherwise.
//!
//! The new decision comes from the run's own machinery, never a second
//! decider: the call is prepared by the configuration's tool registry (an
//! MCP tool that is not running gets the stand-in `permissions explain`
//! uses), the PreToolUse hooks' suggestion is merged by the hooks engine, and
//! the policy engine explains the call as `permissions explain` does. The
//! [`Configuration`] is given (the facade's `Assembly` is one): this crate
//! never reads settings or builds a run itself. With
//! [`HookReplay::Run`] the PreToolUse and PermissionRequest hooks run on the
//! recorded payloads; otherwise what the recorded hooks said stands (a
//! recorded block stays a block, a recorded suggestion is suggested again).
//!
//! Compared: the policy's decision (`allow`, `ask`, `deny`; a hook's block
//! counts as `deny`). The answer to an ask (a person, a PermissionRequest
//! hook) is reported beside it, and compared only when hooks run again.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod configuration;
mod decide;
mod recorded;

pub use configuration::{Configuration, Unprepared};
pub use recorded::{read_recorded_session, RecordedCall, RecordedSession, RecordedSessionError};

use agenthub_protocol::PermissionEffect;
use std::path::{Path, PathBuf};

/// Whether the hooks run again on the recorded payloads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookReplay {
    /// What the recorded hooks said stands; no hook runs.
    Recorded,
    /// The configuration's PreToolUse and PermissionRequest hooks run on the
    /// recorded calls (`--with-hooks`).
    Run,
}

/// One decision on a call: allow, ask or deny, who made it, and the answer
/// to an ask when there was one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decided {
    /// The policy's decision (a hook's block is a deny).
    pub effect: PermissionEffect,
    /// Who made it: `rule <rule (file)>`, `mode`, `default`, `hook <command>`, …
    pub by: String,
    /// For an ask: the answer (allow or deny) and who gave it.
    pub approval: Option<(PermissionEffect, String)>,
}

/// How a call's new decision compares with its recorded one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// The same decision (its decider may differ).
    Unchanged,
    /// Now denied, before allowed or asked.
    NewlyDenied,
    /// Now allowed, before denied or asked.
    NewlyAllowed,
    /// Now asked, before allowed or denied.
    NowAsked,
}

impl Change {
    /// `unchanged`, `newly_denied`, `newly_allowed`, `now_asked`.
    pub fn as_str(self) -> &'static str {
        match self {
            Change::Unchanged => "unchanged",
            Change::NewlyDenied => "newly_denied",
            Change::NewlyAllowed => "newly_allowed",
            Change::NowAsked => "now_asked",
        }
    }

    fn between(recorded: &Decided, replayed: &Decided) -> Change {
        let approval_changed = match (&recorded.approval, &replayed.approval) {
            (Some(before), Some(now)) => before.0 != now.0,
            _ => false,
        };
        match replayed.effect {
            _ if recorded.effect == replayed.effect && !approval_changed => Change::Unchanged,
            PermissionEffect::Deny => Change::NewlyDenied,
            PermissionEffect::Allow => Change::NewlyAllowed,
            PermissionEffect::Ask => match replayed.approval {
                Some((PermissionEffect::Deny, _)) => Change::NewlyDenied,
                Some((PermissionEffect::Allow, _)) => Change::NewlyAllowed,
                _ => Change::NowAsked,
            },
        }
    }
}

/// One call, decided then and now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayedCall {
    /// The subagent that made it, if one did.
    pub agent_id: Option<String>,
    /// The call's id.
    pub tool_use_id: String,
    /// The tool.
    pub tool_name: String,
    /// What was decided when the session ran.
    pub recorded: Decided,
    /// What the configuration decides now.
    pub replayed: Decided,
    /// How the two compare.
    pub change: Change,
}

/// A recorded call that cannot be compared, and why (it never reached
/// permission, or cannot be prepared under this configuration).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkippedCall {
    /// The subagent that made it, if one did.
    pub agent_id: Option<String>,
    /// The call's id.
    pub tool_use_id: String,
    /// The tool.
    pub tool_name: String,
    /// Why it is not compared.
    pub reason: String,
}

/// A session replayed: each call's two decisions, and the calls skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionReplay {
    /// The session's id.
    pub session_id: String,
    /// Its transcript.
    pub transcript: PathBuf,
    /// The workspace whose configuration decided.
    pub workspace: PathBuf,
    /// The compared calls, in the order they were made.
    pub calls: Vec<ReplayedCall>,
    /// The calls not compared.
    pub skipped: Vec<SkippedCall>,
}

impl SessionReplay {
    /// How many calls changed in the way `change` says.
    pub fn count(&self, change: Change) -> usize {
        self.calls
            .iter()
            .filter(|call| call.change == change)
            .count()
    }

    /// Whether any call is decided otherwise now.
    pub fn changed(&self) -> bool {
        self.calls
            .iter()
            .any(|call| call.change != Change::Unchanged)
    }
}

/// Decides every call of `session` again under `configuration` (built for
/// the session's workspace, or another when the session is replayed
/// elsewhere: then paths under the recorded workspace are read under it).
pub async fn replay_session(
    configuration: &dyn Configuration,
    session: &RecordedSession,
    hooks: HookReplay,
) -> SessionReplay {
    let recorded_root = Path::new(&session.record.workspace);
    let root = configuration.workspace().root().to_path_buf();
    let mut calls = Vec::new();
    let mut skipped = Vec::new();
    for call in &session.calls {
        let skip = |reason: String| SkippedCall {
            agent_id: call.agent_id.clone(),
            tool_use_id: call.tool_use_id.clone(),
            tool_name: call.tool_name.clone(),
            reason,
        };
        let Some(recorded) = decide::recorded(call) else {
            skipped.push(skip(decide::why_undecided(call)));
            continue;
        };
        let input = decide::rebase(&call.input, recorded_root, &root);
        match decide::again(configuration, session, call, &input, hooks).await {
            Ok(replayed) => calls.push(ReplayedCall {
                agent_id: call.agent_id.clone(),
                tool_use_id: call.tool_use_id.clone(),
                tool_name: call.tool_name.clone(),
                change: Change::between(&recorded, &replayed),
                recorded,
                replayed,
            }),
            Err(reason) => skipped.push(skip(reason)),
        }
    }
    SessionReplay {
        session_id: session.record.session_id.clone(),
        transcript: session.transcript.clone(),
        workspace: root,
        calls,
        skipped,
    }
}
