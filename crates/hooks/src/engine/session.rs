//! Verdicts of the session-level events SessionStart and UserPromptSubmit
//! (SessionEnd only observes: `observe_only.rs`). A hook's `stop_run`
//! (Claude Code's `continue: false`) wins over everything else it said and
//! ends the run as `stopped`.

use super::fold::{run_chain, EventFold, Flow};
use super::{push_context, Observed, Trail};
use crate::context::*;
use crate::result::*;
use crate::{HookError, HookEvent, HookRegistry, HookRun};
use agenthub_protocol::{HookDecision, HookOutcomeKind};

/// What the SessionStart hooks decided together.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionStartVerdict {
    /// The hooks' additional context, in order, written before the prompt.
    pub context: Vec<String>,
    /// A hook that failed under a `Block` policy: the run fails.
    pub failure: Option<String>,
    /// A hook ended the run (`continue: false`), with this reason.
    pub stop: Option<String>,
}

/// What the UserPromptSubmit hooks decided together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UserPromptSubmitVerdict {
    /// The prompt goes to the model.
    Proceed {
        /// The hooks' additional context, in order, written after the prompt.
        context: Vec<String>,
    },
    /// A hook blocked the prompt: the run ends as `blocked`.
    Blocked {
        /// The blocking hook's reason.
        reason: String,
        /// The hooks' additional context, in order.
        context: Vec<String>,
    },
    /// A hook ended the run (`continue: false`) before any model request.
    Stopped {
        /// The hook's stop reason.
        reason: String,
        /// The hooks' additional context, in order.
        context: Vec<String>,
    },
    /// A hook failed under a `Block` policy: the run fails before any model request.
    Failed {
        /// Which hook and why it failed.
        message: String,
    },
}

impl HookRegistry {
    /// Runs the SessionStart hooks that match the session's source.
    pub async fn run_session_start(
        &self,
        context: SessionStartContext,
    ) -> HookRun<SessionStartVerdict> {
        let fold = SessionStartFold {
            context,
            verdict: SessionStartVerdict::default(),
        };
        run_chain(&self.session_start, fold).await
    }

    /// Runs the UserPromptSubmit hooks; stops at the first block or stop.
    pub async fn run_user_prompt_submit(
        &self,
        context: UserPromptSubmitContext,
    ) -> HookRun<UserPromptSubmitVerdict> {
        let fold = UserPromptSubmitFold {
            context,
            collected: Vec::new(),
        };
        run_chain(&self.user_prompt_submit, fold).await
    }
}

struct SessionStartFold {
    context: SessionStartContext,
    verdict: SessionStartVerdict,
}

impl EventFold for SessionStartFold {
    type Context = SessionStartContext;
    type Result = SessionStartResult;
    type Verdict = SessionStartVerdict;
    const EVENT: HookEvent = HookEvent::SessionStart;

    fn context(&self) -> SessionStartContext {
        self.context.clone()
    }

    fn step(
        &mut self,
        trail: &mut Trail,
        observed: Observed,
        result: SessionStartResult,
    ) -> Flow<SessionStartVerdict> {
        trail.message(&observed, result.system_message);
        push_context(&mut self.verdict.context, result.additional_context);
        match result.stop_run {
            Some(reason) => {
                self.verdict.stop = Some(trail.stopped(observed, reason));
                Flow::Done(std::mem::take(&mut self.verdict))
            }
            None => {
                trail.applied(observed, None);
                Flow::Next
            }
        }
    }

    fn failed_closed(&mut self, message: String, _error: &HookError) -> SessionStartVerdict {
        self.verdict.failure = Some(message);
        std::mem::take(&mut self.verdict)
    }

    fn finish(self) -> SessionStartVerdict {
        self.verdict
    }
}

struct UserPromptSubmitFold {
    context: UserPromptSubmitContext,
    collected: Vec<String>,
}

impl EventFold for UserPromptSubmitFold {
    type Context = UserPromptSubmitContext;
    type Result = UserPromptSubmitResult;
    type Verdict = UserPromptSubmitVerdict;
    const EVENT: HookEvent = HookEvent::UserPromptSubmit;

    fn context(&self) -> UserPromptSubmitContext {
        self.context.clone()
    }

    fn step(
        &mut self,
        trail: &mut Trail,
        observed: Observed,
        result: UserPromptSubmitResult,
    ) -> Flow<UserPromptSubmitVerdict> {
        prompt_step(
            &mut self.collected,
            trail,
            observed,
            result,
            "the prompt was blocked by a UserPromptSubmit hook",
        )
    }

    fn failed_closed(&mut self, message: String, _error: &HookError) -> UserPromptSubmitVerdict {
        UserPromptSubmitVerdict::Failed { message }
    }

    fn finish(self) -> UserPromptSubmitVerdict {
        UserPromptSubmitVerdict::Proceed {
            context: self.collected,
        }
    }
}

/// One hook's answer about a prompt about to be sent (UserPromptSubmit, and
/// UserPromptExpansion for a command): its context is kept; a stop or a block
/// ends the chain with the context so far; `blocked` is the reason when the
/// hook gives none.
pub(super) fn prompt_step(
    collected: &mut Vec<String>,
    trail: &mut Trail,
    observed: Observed,
    result: UserPromptSubmitResult,
    blocked: &str,
) -> Flow<UserPromptSubmitVerdict> {
    push_context(collected, result.additional_context);
    trail.message(&observed, result.system_message);
    if let Some(reason) = result.stop_run {
        let reason = trail.stopped(observed, reason);
        let context = std::mem::take(collected);
        return Flow::Done(UserPromptSubmitVerdict::Stopped { reason, context });
    }
    if let Some(reason) = result.block {
        let reason = trail.decided(
            observed,
            HookOutcomeKind::Blocked,
            HookDecision::Block,
            reason,
            blocked,
        );
        let context = std::mem::take(collected);
        return Flow::Done(UserPromptSubmitVerdict::Blocked { reason, context });
    }
    trail.applied(observed, None);
    Flow::Next
}
