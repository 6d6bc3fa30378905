//! SubagentStop: a subagent answered without tool calls. It is Stop with
//! `common.agent` naming the subagent: the same context, result and reading of
//! a hook's answer, and in the subagent's run its hooks take Stop's place
//! (`HookRegistry::for_subagent`), so it has no fold of its own. Matchers see
//! the subagent's type.

use super::*;
use crate::command::{RawRun, ReadAs};
use crate::{HookCommon, HookError, HookEvent};

/// What a SubagentStop hook sees: the subagent answered without tool calls.
/// It is Stop's context (the subagent's history, its candidate answer,
/// `stop_hook_active`) with `common.agent` naming the subagent, and a
/// SubagentStop hook may force one continuation exactly as a Stop hook does.
pub type SubagentStopContext = StopContext;

/// What a SubagentStop hook may say: Stop's fields, with the same rules
/// (one forced continuation, a non-empty reason).
pub type SubagentStopResult = StopResult;

/// SubagentStop: a subagent answered without tool calls; its hooks run with Stop's rules in a subagent's run (see `HookRegistry::for_subagent`), so this event has no fold of its own.
pub struct SubagentStop;

impl EventSpec for SubagentStop {
    const EVENT: HookEvent = HookEvent::SubagentStop;
    const WIRE: WireContract = WireContract::BLOCK_WITH_CONTEXT;
    type Context = StopContext;
    type Result = StopResult;
    type Verdict = StopVerdict;
    type Input = super::stop::StopInput;

    fn common(context: &StopContext) -> &HookCommon {
        &context.common
    }

    fn input(context: &StopContext) -> super::stop::StopInput {
        super::stop::input(context)
    }

    fn sample(
        input: super::stop::StopInput,
        env: &SampleEnv<'_>,
    ) -> Result<StopContext, SampleError> {
        let common = env.subagent_common(input.common.clone());
        Ok(super::stop::sample_context(input, common))
    }

    async fn try_run(registry: &HookRegistry, context: StopContext) -> HookRun<StopVerdict> {
        registry.run_subagent_stop(context, true).await
    }

    fn explain(verdict: StopVerdict) -> Vec<String> {
        super::stop::explain(verdict)
    }

    fn subject(context: &StopContext) -> MatcherSubject<'_> {
        MatcherSubject::Value(super::subagent_start::agent_type(&context.common))
    }

    fn read(run: &RawRun, as_: ReadAs<'_>, _: &StopContext) -> Result<StopResult, HookError> {
        super::stop::read_output(run, as_)
    }
}
