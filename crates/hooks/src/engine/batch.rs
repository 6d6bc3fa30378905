//! The PostToolBatch verdict (contract §21): after every call of one assistant
//! message has its result (denied and blocked ones included), hooks see the
//! whole batch and may add context for the model. Nothing here can undo a
//! call; a failing hook is recorded and the run goes on.

use super::fold::{run_chain, EventFold, Flow};
use super::{push_context, Observed, Trail};
use crate::observed::{PostToolBatchContext, PostToolBatchResult};
use crate::{FailurePolicy, HookError, HookEvent, HookRegistry, HookRun};

/// What the PostToolBatch hooks added together.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PostToolBatchVerdict {
    /// The hooks' additional context, in order, written after the batch's results.
    pub context: Vec<String>,
}

impl HookRegistry {
    /// Runs the PostToolBatch hooks on one message's calls.
    pub async fn run_post_tool_batch(
        &self,
        context: PostToolBatchContext,
    ) -> HookRun<PostToolBatchVerdict> {
        let fold = BatchFold {
            context,
            verdict: PostToolBatchVerdict::default(),
        };
        run_chain(&self.post_tool_batch, fold).await
    }
}

struct BatchFold {
    context: PostToolBatchContext,
    verdict: PostToolBatchVerdict,
}

impl EventFold for BatchFold {
    type Context = PostToolBatchContext;
    type Result = PostToolBatchResult;
    type Verdict = PostToolBatchVerdict;
    const EVENT: HookEvent = HookEvent::PostToolBatch;

    fn context(&self) -> PostToolBatchContext {
        self.context.clone()
    }

    fn step(
        &mut self,
        trail: &mut Trail,
        observed: Observed,
        result: PostToolBatchResult,
    ) -> Flow<PostToolBatchVerdict> {
        trail.message(&observed, result.system_message);
        push_context(&mut self.verdict.context, result.additional_context);
        trail.applied(observed, None);
        Flow::Next
    }

    /// Unreached: the batch has run, so a failure never closes anything.
    fn failed_closed(&mut self, _message: String, _error: &HookError) -> PostToolBatchVerdict {
        std::mem::take(&mut self.verdict)
    }

    /// The run goes on whatever the policy: a failure is recorded.
    fn fail(
        &mut self,
        trail: &mut Trail,
        observed: Observed,
        _policy: FailurePolicy,
        error: HookError,
    ) -> Flow<PostToolBatchVerdict> {
        trail.records.push(observed.failed_continuing(&error));
        Flow::Next
    }

    fn finish(self) -> PostToolBatchVerdict {
        self.verdict
    }
}
