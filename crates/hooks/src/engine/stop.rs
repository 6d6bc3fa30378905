//! The Stop verdict: hooks judge a candidate answer. The first `force_continue`
//! asks the model once more and stops the rest; once the run has used its
//! forced continuations, a `force_continue` is dropped, named in the verdict,
//! and the remaining hooks still run.

use super::fold::{run_chain, EventFold, Flow};
use super::{push_context, Observed, Trail};
use crate::context::StopContext;
use crate::result::StopResult;
use crate::{HookError, HookEvent, HookRegistry, HookRun};
use agenthub_protocol::HookDecision;

/// What the Stop hooks decided, and whose `force_continue` was dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StopVerdict {
    /// Whether the answer stands, the model is asked again, or the run ends.
    pub decision: StopDecision,
    /// The hooks (by name, in order) that asked to continue after the run had
    /// used its forced continuations: their request was dropped.
    pub dropped_continues: Vec<String>,
}

/// What becomes of the candidate answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StopDecision {
    /// The answer stands; the run completes.
    Finish {
        /// The hooks' additional context, in order.
        context: Vec<String>,
    },
    /// A hook forced one more model request, with its reason as a user message.
    Continue {
        /// The forcing hook's reason, sent to the model.
        reason: String,
        /// The hooks' additional context, in order.
        context: Vec<String>,
    },
    /// A hook ended the run (`continue: false`): the answer stands, outcome `stopped`.
    Stopped {
        /// The hook's stop reason.
        reason: String,
        /// The hooks' additional context, in order.
        context: Vec<String>,
    },
    /// A hook failed under a `Block` policy: the run fails, the answer is not returned.
    Failed {
        /// Which hook and why it failed.
        message: String,
    },
}

impl HookRegistry {
    /// Runs the Stop hooks on a candidate answer. `may_continue` is false once
    /// the run has used its forced continuations: a force_continue is then
    /// dropped (and recorded as such), and the remaining hooks still run.
    pub async fn run_stop(&self, context: StopContext, may_continue: bool) -> HookRun<StopVerdict> {
        let fold = StopFold {
            context,
            may_continue,
            collected: Vec::new(),
            dropped: Vec::new(),
        };
        run_chain(&self.stop, fold).await
    }

    /// Runs the SubagentStop hooks on a subagent's candidate answer, with
    /// Stop's rules (a subagent's own run does this through
    /// [`HookRegistry::for_subagent`], which puts them in Stop's place).
    pub async fn run_subagent_stop(
        &self,
        context: StopContext,
        may_continue: bool,
    ) -> HookRun<StopVerdict> {
        let fold = StopFold {
            context,
            may_continue,
            collected: Vec::new(),
            dropped: Vec::new(),
        };
        run_chain(&self.subagent_stop, fold).await
    }
}

struct StopFold {
    context: StopContext,
    may_continue: bool,
    collected: Vec<String>,
    dropped: Vec<String>,
}

impl StopFold {
    fn done(&mut self, decision: StopDecision) -> Flow<StopVerdict> {
        Flow::Done(self.verdict(decision))
    }

    fn verdict(&mut self, decision: StopDecision) -> StopVerdict {
        StopVerdict {
            decision,
            dropped_continues: std::mem::take(&mut self.dropped),
        }
    }
}

impl EventFold for StopFold {
    type Context = StopContext;
    type Result = StopResult;
    type Verdict = StopVerdict;
    const EVENT: HookEvent = HookEvent::Stop;

    fn context(&self) -> StopContext {
        self.context.clone()
    }

    /// A `force_continue` needs a reason the model can act on.
    fn accept(&self, result: StopResult) -> Result<StopResult, HookError> {
        match &result.force_continue {
            Some(reason) if reason.trim().is_empty() => Err(HookError::contract(
                "force_continue needs a non-empty reason",
            )),
            _ => Ok(result),
        }
    }

    fn step(
        &mut self,
        trail: &mut Trail,
        observed: Observed,
        result: StopResult,
    ) -> Flow<StopVerdict> {
        push_context(&mut self.collected, result.additional_context);
        trail.message(&observed, result.system_message);
        if let Some(reason) = result.stop_run {
            let reason = trail.stopped(observed, reason);
            let context = std::mem::take(&mut self.collected);
            return self.done(StopDecision::Stopped { reason, context });
        }
        match result.force_continue {
            Some(reason) if self.may_continue => {
                trail.applied(observed, Some(HookDecision::ForceContinue));
                let context = std::mem::take(&mut self.collected);
                return self.done(StopDecision::Continue { reason, context });
            }
            Some(_) => {
                self.dropped.push(observed.hook.clone());
                trail.applied(observed, Some(HookDecision::ForceContinueDropped));
            }
            None => trail.applied(observed, None),
        }
        Flow::Next
    }

    fn failed_closed(&mut self, message: String, _error: &HookError) -> StopVerdict {
        self.verdict(StopDecision::Failed { message })
    }

    fn finish(self) -> StopVerdict {
        StopVerdict {
            decision: StopDecision::Finish {
                context: self.collected,
            },
            dropped_continues: self.dropped,
        }
    }
}
