//! SubagentStart: hooks may add context to a subagent before its prompt. A
//! subagent cannot be blocked here (Claude Code's SubagentStart is an observer
//! with context); a failing hook is recorded and the subagent starts, unless
//! the hook's `onFailure` is `block`: then it does not. Matchers see the
//! subagent's type.

use super::*;
use crate::command::{RawRun, ReadAs};
use crate::engine::{push_context, run_chain, EventFold, Flow, Observed, Trail};
use crate::{HookCommon, HookError, HookEvent, HookRegistry, HookRun};
use serde::{Deserialize, Serialize};

/// What a SubagentStart hook sees: a subagent is about to get its prompt.
/// `common.agent` names it.
#[derive(Debug, Clone)]
pub struct SubagentStartContext {
    /// What every event carries; `agent` is the subagent starting.
    pub common: HookCommon,
    /// What the parent asked it to do (the Task call's `description`).
    pub description: String,
}

/// What a SubagentStart hook may say. `Default` lets the subagent start as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SubagentStartResult {
    /// Text for the subagent's model, added as a system message before its prompt.
    pub additional_context: Option<String>,
    /// A warning shown to the user, never to the model.
    pub system_message: Option<String>,
}

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
    type Event = SubagentStart;

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

/// SubagentStart's stdin: the common fields (with `agent_id` and `agent_type`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubagentStartInput {
    /// The common fields (`agent_id` and `agent_type` among them).
    #[serde(flatten)]
    pub common: CommonInput,
}

/// SubagentStart's stdin for this firing.
pub fn input(context: &SubagentStartContext) -> SubagentStartInput {
    SubagentStartInput {
        common: CommonInput::of(&context.common, "SubagentStart"),
    }
}

/// Stop: exit 2 or `decision: "block"` continue with the reason (a default
/// naming the hook when blank); `additionalContext` alone continues with
/// that context, as in Claude Code.
/// SubagentStart: plain stdout or `additionalContext` is context for the
/// subagent; a blocking exit cannot stop it and is shown to the user.
pub(crate) fn read_output(run: &RawRun, as_: ReadAs<'_>) -> Result<SubagentStartResult, HookError> {
    super::session_start::read_output(run, as_).map(|started| SubagentStartResult {
        additional_context: started.additional_context,
        system_message: started.system_message,
    })
}

/// SubagentStart: a subagent is about to get its prompt; hooks may add context to it.
pub struct SubagentStart;

impl EventSpec for SubagentStart {
    const EVENT: HookEvent = HookEvent::SubagentStart;
    const WIRE: WireContract = WireContract::CONTEXT;
    type Context = SubagentStartContext;
    type Result = SubagentStartResult;
    type Verdict = SubagentStartVerdict;
    type Input = SubagentStartInput;

    fn common(context: &SubagentStartContext) -> &HookCommon {
        &context.common
    }

    fn input(context: &SubagentStartContext) -> SubagentStartInput {
        input(context)
    }

    fn sample(
        input: SubagentStartInput,
        env: &SampleEnv<'_>,
    ) -> Result<SubagentStartContext, SampleError> {
        Ok(SubagentStartContext {
            common: env.subagent_common(input.common),
            description: super::input::sample_reason(),
        })
    }

    async fn try_run(
        registry: &HookRegistry,
        context: SubagentStartContext,
    ) -> HookRun<SubagentStartVerdict> {
        registry.run_subagent_start(context).await
    }

    fn explain(verdict: SubagentStartVerdict) -> Vec<String> {
        let mut lines = verdict.context;
        lines.extend(verdict.failure);
        lines
    }

    fn subject(context: &SubagentStartContext) -> MatcherSubject<'_> {
        MatcherSubject::Value(agent_type(&context.common))
    }

    fn read(
        run: &RawRun,
        as_: ReadAs<'_>,
        _: &SubagentStartContext,
    ) -> Result<SubagentStartResult, HookError> {
        read_output(run, as_)
    }
}

/// The subagent type a SubagentStart or SubagentStop matcher is compared with.
pub(crate) fn agent_type(common: &HookCommon) -> &str {
    common
        .agent
        .as_ref()
        .map_or("", |agent| agent.agent_type.as_str())
}
