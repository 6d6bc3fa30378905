//! PostToolBatch (contract §21): after every call of one assistant message has
//! its result (denied and blocked ones included), hooks see the whole batch and
//! may add context for the model. Nothing here can undo a call; a failing hook
//! is recorded and the run goes on.

use super::*;
use crate::command::interpret::joined;
use crate::command::wire::{read, Output, Said};
use crate::command::{RawRun, ReadAs};
use crate::engine::{push_context, run_chain, EventFold, Flow, Observed, Trail};
use crate::{FailurePolicy, HookCommon, HookError, HookEvent, HookRegistry, HookRun};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One call of a PostToolBatch batch, as hooks see it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BatchedCall {
    /// The tool the call asked for.
    pub tool_name: String,
    /// The call's id.
    #[serde(default = "super::input::sample_tool_use_id")]
    pub tool_use_id: String,
    /// The call's input as the model gave it (its raw text when not JSON).
    #[serde(default = "super::input::empty_input")]
    pub tool_input: Value,
    /// Whether its result is an error (failed, denied, blocked, not run).
    #[serde(default)]
    pub is_error: bool,
}

/// What a PostToolBatch hook sees: every call of one assistant message,
/// each with its result's kind, after all of them have a result.
#[derive(Debug, Clone)]
pub struct PostToolBatchContext {
    /// What every event carries.
    pub common: HookCommon,
    /// The calls, in the message's order.
    pub tool_calls: Vec<BatchedCall>,
}

/// What a PostToolBatch hook may say: context for the model, a warning.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PostToolBatchResult {
    /// Text for the model, added as a system message after the batch's results.
    pub additional_context: Option<String>,
    /// A warning shown to the user, never to the model.
    pub system_message: Option<String>,
}

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
    type Event = PostToolBatch;

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

/// PostToolBatch's stdin: the common fields and `tool_calls`, each
/// `{tool_name, tool_use_id, tool_input, is_error}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PostToolBatchInput {
    /// The common fields.
    #[serde(flatten)]
    pub common: CommonInput,
    /// Every call of the assistant message, in order.
    pub tool_calls: Vec<BatchedCall>,
}

/// PostToolBatch's stdin for this firing.
pub fn input(context: &PostToolBatchContext) -> PostToolBatchInput {
    PostToolBatchInput {
        common: CommonInput::of(&context.common, "PostToolBatch"),
        tool_calls: context.tool_calls.clone(),
    }
}

/// PostToolBatch: `additionalContext` for the model and `systemMessage`;
/// plain-text stdout is only logged, as on other events without context.
pub(crate) fn read_output(
    run: &RawRun,
    as_: ReadAs<'_>,
) -> Result<crate::PostToolBatchResult, HookError> {
    match read(run, as_)? {
        Said::Output(Output::Text(_)) => Ok(crate::PostToolBatchResult::default()),
        Said::Output(Output::Warning(text)) => Ok(crate::PostToolBatchResult {
            system_message: Some(text),
            ..crate::PostToolBatchResult::default()
        }),
        Said::Output(Output::Json(fields)) => Ok(crate::PostToolBatchResult {
            additional_context: fields.specific_string("additionalContext")?,
            system_message: fields.system_message,
        }),
        Said::Blocking { reason, json } => Ok(crate::PostToolBatchResult {
            system_message: joined(json.and_then(|fields| fields.system_message), reason),
            ..crate::PostToolBatchResult::default()
        }),
    }
}

/// PostToolBatch: every call of one assistant message has its result; hooks may add context.
pub struct PostToolBatch;

impl EventSpec for PostToolBatch {
    const EVENT: HookEvent = HookEvent::PostToolBatch;
    const WIRE: WireContract = WireContract::CONTEXT;
    type Context = PostToolBatchContext;
    type Result = PostToolBatchResult;
    type Verdict = PostToolBatchVerdict;
    type Input = PostToolBatchInput;

    fn common(context: &PostToolBatchContext) -> &HookCommon {
        &context.common
    }

    fn input(context: &PostToolBatchContext) -> PostToolBatchInput {
        input(context)
    }

    fn sample(
        input: PostToolBatchInput,
        env: &SampleEnv<'_>,
    ) -> Result<PostToolBatchContext, SampleError> {
        Ok(PostToolBatchContext {
            common: env.common(input.common),
            tool_calls: input.tool_calls,
        })
    }

    async fn try_run(
        registry: &HookRegistry,
        context: PostToolBatchContext,
    ) -> HookRun<PostToolBatchVerdict> {
        registry.run_post_tool_batch(context).await
    }

    fn explain(verdict: PostToolBatchVerdict) -> Vec<String> {
        verdict.context
    }

    fn subject(_: &PostToolBatchContext) -> MatcherSubject<'_> {
        MatcherSubject::Everything
    }

    fn read(
        run: &RawRun,
        as_: ReadAs<'_>,
        _: &PostToolBatchContext,
    ) -> Result<PostToolBatchResult, HookError> {
        read_output(run, as_)
    }
}
