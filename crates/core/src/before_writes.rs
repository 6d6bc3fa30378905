//! The one seam before a tool round whose calls may write (contract §24):
//! checkpoints of the workspace's files enter the loop here, and nothing
//! else does. A call "may write" when its tool declares side effects
//! ([`ToolEffect`](agenthub_tools::ToolEffect)): Write, Edit, Bash, every MCP
//! tool (not Task: its subagent's own rounds pass this seam). The tools' own
//! declarations decide, never their names.
//!
//! The seam only acts before the round starts; it never sees or changes a
//! call, its permission or its result, and it cannot stop the run.

use crate::run::Run;
use crate::Observer;
use agenthub_protocol::ToolCall;
use agenthub_tools::ToolEffect;
use futures::future::BoxFuture;
use std::path::Path;

/// What the seam is told about the round about to run.
pub struct WritingRound<'a> {
    /// The session the round belongs to.
    pub session_id: &'a str,
    /// The session's transcript, when it has one.
    pub transcript_path: Option<&'a Path>,
    /// The workspace root.
    pub workspace: &'a Path,
    /// The round's calls (at least one of them may write).
    pub calls: &'a [ToolCall],
    /// The calls run before their prompt is written (a command's inline
    /// shell): they belong to the prompt after the transcript's last one.
    pub before_prompt: bool,
    /// Where to tell what happened (a checkpoint record, a warning): the
    /// agent's observers (a subagent's tag its events).
    pub observer: &'a dyn Observer,
}

/// Acts before every tool round with a call that may write, e.g. a
/// checkpoint of the workspace. Set with
/// [`AgentBuilder::before_writes`](crate::AgentBuilder::before_writes); a
/// subagent's rounds reach the same one.
pub trait BeforeWrites: Send + Sync {
    /// Called once per such round, before its first call is decided on.
    /// Failures are the implementation's to report (as a warning event).
    fn before_writing_round<'a>(&'a self, round: WritingRound<'a>) -> BoxFuture<'a, ()>;
}

impl Run<'_> {
    /// Calls the agent's [`BeforeWrites`], if any, when a call of `calls`
    /// may write.
    pub(crate) async fn before_writes(&self, calls: &[ToolCall]) {
        self.before_writes_of(calls, false).await;
    }

    /// As [`Run::before_writes`], for calls that run before their prompt
    /// is written when `before_prompt`.
    pub(crate) async fn before_writes_of(&self, calls: &[ToolCall], before_prompt: bool) {
        let Some(seam) = &self.agent.before_writes else {
            return;
        };
        let may_write = calls.iter().any(|call| {
            self.agent
                .tools
                .get(call.name())
                .is_some_and(|tool| tool.effect() == ToolEffect::SideEffects)
        });
        if !may_write {
            return;
        }
        let round = WritingRound {
            session_id: &self.agent.session_id,
            transcript_path: self.agent.transcript_path.as_deref(),
            workspace: self.agent.workspace.root(),
            calls,
            before_prompt,
            observer: self.agent.observer.as_ref(),
        };
        seam.before_writing_round(round).await;
    }
}
