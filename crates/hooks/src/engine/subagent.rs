//! The SubagentStart verdict: hooks may add context to a subagent before its
//! prompt. A subagent cannot be blocked here (Claude Code's SubagentStart is
//! an observer with context); a failing hook is recorded and the subagent
//! starts, unless the hook's `onFailure` is `block`: then it does not. SubagentStop needs no fold of its own: a subagent's run folds its
//! SubagentStop hooks with Stop's rules (see `HookRegistry::for_subagent`).

use super::fold::{run_chain, EventFold, Flow};
use super::{push_context, Observed, Trail};
use crate::context::SubagentStartContext;
use crate::result::SubagentStartResult;
use crate::{HookError, HookEvent, HookRegistry, HookRun};

/// What the SubagentStart hooks decided together.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SubagentStartVerdict {
    /// The hooks' additional context, in order, written before the subagent's prompt.
    pub context: Vec<String>,
    /// A hook that failed under a `Block` policy: the subagent does not start.
    pub failure: Option<String>,
}

impl HookRegistry {
    /// Runs the SubagentStart hooks that match the subagent's type.
    pub async fn run_subagent_start(
        &self,
        context: SubagentStartContext,
    ) -> HookRun<SubagentStartVerdict> {
        let fold = SubagentStartFold {
            context,
            verdict: SubagentStartVerdict::default(),
        };
        run_chain(&self.subagent_start, fold).await
    }
}

struct SubagentStartFold {
    context: SubagentStartContext,
    verdict: SubagentStartVerdict,
}

impl EventFold for SubagentStartFold {
    type Context = SubagentStartContext;
    type Result = SubagentStartResult;
    type Verdict = SubagentStartVerdict;
    const EVENT: HookEvent = HookEvent::SubagentStart;

    fn context(&self) -> SubagentStartContext {
        self.context.clone()
    }

    fn step(
        &mut self,
        trail: &mut Trail,
        observed: Observed,
        result: SubagentStartResult,
    ) -> Flow<SubagentStartVerdict> {
        trail.message(&observed, result.system_message);
        push_context(&mut self.verdict.context, result.additional_context);
        trail.applied(observed, None);
        Flow::Next
    }

    fn failed_closed(&mut self, message: String, _error: &HookError) -> SubagentStartVerdict {
        self.verdict.failure = Some(message);
        std::mem::take(&mut self.verdict)
    }

    fn finish(self) -> SubagentStartVerdict {
        self.verdict
    }
}
