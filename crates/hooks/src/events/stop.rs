//! Stop: the model answered without tool calls. The verdict: hooks judge a
//! candidate answer. The first `force_continue` asks the model once more and
//! stops the rest; once the run has used its forced continuations, a
//! `force_continue` is dropped, named in the verdict, and the remaining hooks
//! still run.

use super::*;
use crate::command::decision::Decision;
use crate::command::interpret::to_model;
use crate::command::wire::{read, Fields, Output, Said};
use crate::command::{RawRun, ReadAs};
use crate::engine::{push_context, run_chain, EventFold, Flow, Observed, Trail};
use crate::{ContractError, HookCommon, HookError, HookEvent, HookRegistry, HookRun};
use agenthub_protocol::{HookDecision, Message};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// What a Stop hook sees: the model answered without tool calls, and the
/// answer is only a candidate until the Stop hooks let it stand.
#[derive(Debug, Clone)]
pub struct StopContext {
    /// What every event carries.
    pub common: HookCommon,
    /// The whole conversation so far, to judge whether the task is done.
    pub history: Arc<[Message]>,
    /// The candidate final answer.
    pub last_assistant_message: String,
    /// True when the run already continues because of a Stop hook.
    pub stop_hook_active: bool,
}

/// What a Stop hook may say about a candidate answer. `Default` lets it stand.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StopResult {
    /// Asks the model once more, with this reason as a user message. Must not be blank.
    pub force_continue: Option<String>,
    /// Text for the model, added as a system message.
    pub additional_context: Option<String>,
    /// Ends the run (outcome `stopped`) with this reason; wins over `force_continue`.
    pub stop_run: Option<String>,
    /// A warning shown to the user, never to the model.
    pub system_message: Option<String>,
}

impl StopResult {
    /// Refuses the answer: the model is asked once more with `reason` (which
    /// must not be blank). At most one forced continuation per run.
    pub fn force_continue(reason: impl Into<String>) -> Self {
        StopResult {
            force_continue: Some(reason.into()),
            ..Self::default()
        }
    }

    /// Lets the answer stand and adds `text` for the model.
    pub fn context(text: impl Into<String>) -> Self {
        StopResult {
            additional_context: Some(text.into()),
            ..Self::default()
        }
    }
}

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
    type Event = Stop;

    fn context(&self) -> StopContext {
        self.context.clone()
    }

    /// A `force_continue` needs a reason the model can act on.
    fn accept(&self, result: StopResult) -> Result<StopResult, HookError> {
        match &result.force_continue {
            Some(reason) if reason.trim().is_empty() => {
                Err(ContractError::BlankForceContinue.into())
            }
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

/// Stop's stdin: the common fields, `stop_hook_active` and
/// `last_assistant_message`; in a subagent's run it is SubagentStop's, whose
/// common fields carry `agent_id` and `agent_type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StopInput {
    /// The common fields.
    #[serde(flatten)]
    pub common: CommonInput,
    /// Whether the model is already answering a Stop hook's `block`.
    #[serde(default)]
    pub stop_hook_active: bool,
    /// The candidate final answer.
    #[serde(default)]
    pub last_assistant_message: String,
}

/// Stop's (in a subagent's run, SubagentStop's) stdin for this firing.
pub fn input(context: &StopContext) -> StopInput {
    let event = match context.common.agent {
        Some(_) => "SubagentStop",
        None => "Stop",
    };
    StopInput {
        common: CommonInput::of(&context.common, event),
        stop_hook_active: context.stop_hook_active,
        last_assistant_message: context.last_assistant_message.clone(),
    }
}

pub(crate) fn read_output(run: &RawRun, as_: ReadAs<'_>) -> Result<StopResult, HookError> {
    let from_json = |fields: Fields| -> Result<StopResult, HookError> {
        let context = fields.specific_string("additionalContext")?;
        let force_continue = match fields.decision {
            Some(Decision::Block) => Some(to_model(
                fields
                    .reason
                    .clone()
                    .filter(|reason| !reason.trim().is_empty())
                    .unwrap_or_else(|| as_.default_reason()),
            )),
            _ => None,
        };
        let (force_continue, additional_context) = match (force_continue, context) {
            (None, Some(context)) if !context.trim().is_empty() => (Some(context), None),
            (force_continue, context) => (force_continue, context),
        };
        Ok(StopResult {
            force_continue,
            additional_context,
            stop_run: fields.stop,
            system_message: fields.system_message,
        })
    };
    match read(run, as_)? {
        Said::Output(Output::Text(_)) => Ok(StopResult::default()),
        Said::Output(Output::Warning(text)) => Ok(StopResult {
            system_message: Some(text),
            ..StopResult::default()
        }),
        Said::Output(Output::Json(fields)) => from_json(fields),
        Said::Blocking { reason, json } => {
            let base = json.map(from_json).and_then(Result::ok).unwrap_or_default();
            Ok(StopResult {
                force_continue: Some(to_model(reason)),
                ..base
            })
        }
    }
}

/// Stop: the model answered without tool calls; hooks may make it go on.
pub struct Stop;

impl EventSpec for Stop {
    const EVENT: HookEvent = HookEvent::Stop;
    const WIRE: WireContract = WireContract::BLOCK_WITH_CONTEXT;
    type Context = StopContext;
    type Result = StopResult;
    type Verdict = StopVerdict;
    type Input = StopInput;

    fn common(context: &StopContext) -> &HookCommon {
        &context.common
    }

    fn input(context: &StopContext) -> StopInput {
        input(context)
    }

    fn sample(input: StopInput, env: &SampleEnv<'_>) -> Result<StopContext, SampleError> {
        let common = env.common(input.common.clone());
        Ok(sample_context(input, common))
    }

    async fn try_run(registry: &HookRegistry, context: StopContext) -> HookRun<StopVerdict> {
        registry.run_stop(context, true).await
    }

    fn explain(verdict: StopVerdict) -> Vec<String> {
        explain(verdict)
    }

    fn subject(_: &StopContext) -> MatcherSubject<'_> {
        MatcherSubject::Everything
    }

    fn read(run: &RawRun, as_: ReadAs<'_>, _: &StopContext) -> Result<StopResult, HookError> {
        read_output(run, as_)
    }
}

/// What a Stop (or SubagentStop) verdict would mean for the answer, in words.
pub(crate) fn explain(verdict: StopVerdict) -> Vec<String> {
    match verdict.decision {
        StopDecision::Finish { context } => sample::with_contexts("the answer stands", &context),
        StopDecision::Continue { reason, context } => sample::with_contexts(
            &format!("the model is asked once more with: {reason}"),
            &context,
        ),
        StopDecision::Stopped { reason, context } => {
            sample::with_contexts(&format!("the run would stop: {reason}"), &context)
        }
        StopDecision::Failed { message } => vec![format!("the run would fail: {message}")],
    }
}

/// A Stop (or SubagentStop) context from its sample stdin.
pub(crate) fn sample_context(input: StopInput, common: HookCommon) -> StopContext {
    StopContext {
        common,
        history: Arc::from(Vec::new()),
        last_assistant_message: input.last_assistant_message,
        stop_hook_active: input.stop_hook_active,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_exit_2_with_blank_stderr_takes_the_reason_from_stdout_json() {
        let run = RawRun::exited(2, r#"{"decision":"block","reason":"tests fail"}"#, "  ");
        assert_eq!(
            read_output(&run, ReadAs::sample::<Stop>()).map(|result| result.force_continue),
            Ok(Some("tests fail".to_owned()))
        );
    }

    #[test]
    fn stop_exit_2_without_any_reason_continues_with_a_default_naming_the_hook() {
        assert_eq!(
            read_output(&RawRun::exited(2, "", ""), ReadAs::sample::<Stop>())
                .map(|result| result.force_continue),
            Ok(Some(
                "the Stop hook \"./h.sh\" blocked without a reason".to_owned()
            ))
        );
    }

    #[test]
    fn stop_additional_context_continues_the_run_with_it() {
        let run = RawRun::exited(
            0,
            r#"{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"also run the linter"}}"#,
            "",
        );
        assert_eq!(
            read_output(&run, ReadAs::sample::<Stop>()),
            Ok(StopResult {
                force_continue: Some("also run the linter".to_owned()),
                ..StopResult::default()
            })
        );
    }

    #[test]
    fn stop_decision_allow_lets_the_answer_go() {
        assert_eq!(
            read_output(
                &RawRun::exited(0, r#"{"decision":"allow"}"#, ""),
                ReadAs::sample::<Stop>()
            ),
            Ok(StopResult::default())
        );
    }
}
