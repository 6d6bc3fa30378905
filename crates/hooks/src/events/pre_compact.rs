//! PreCompact: the history is about to be summarised. The verdict: the first
//! block wins and ends the chain. Whether a block cancels the compaction
//! (manual) or is only shown (auto) is the caller's rule, not this module's.

use super::*;
use crate::command::decision::Decision;
use crate::command::wire::{read, Fields, Output, Said};
use crate::command::{RawRun, ReadAs};
use crate::engine::{run_chain, EventFold, Flow, Observed, Trail};
use crate::{HookCommon, HookError, HookEvent, HookRegistry, HookRun};
use agenthub_protocol::{CompactionTrigger, HookDecision, HookOutcomeKind};
use serde::{Deserialize, Serialize};

/// What a PreCompact hook sees: the history is about to be summarised.
#[derive(Debug, Clone)]
pub struct PreCompactContext {
    /// What every event carries.
    pub common: HookCommon,
    /// Whether the user asked (`manual`) or the budget did (`auto`).
    pub trigger: CompactionTrigger,
    /// What the user asked the summary to focus on (manual only; empty otherwise).
    pub custom_instructions: String,
}

/// What a PreCompact hook may say. `Default` lets the compaction happen.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PreCompactResult {
    /// Cancels a manual compaction with this reason; an automatic one goes
    /// on (the reason is shown to the user).
    pub block: Option<String>,
    /// A warning shown to the user, never to the model.
    pub system_message: Option<String>,
}

impl PreCompactResult {
    /// Cancels a manual compaction with `reason`.
    pub fn block(reason: impl Into<String>) -> Self {
        PreCompactResult {
            block: Some(reason.into()),
            ..Self::default()
        }
    }
}

/// What the PreCompact hooks decided together.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PreCompactVerdict {
    /// A hook blocked (or failed under a `block` policy), with its reason.
    pub blocked: Option<String>,
}

impl HookRegistry {
    /// Runs the PreCompact hooks that match the trigger; stops at the first block.
    pub async fn run_pre_compact(&self, context: PreCompactContext) -> HookRun<PreCompactVerdict> {
        run_chain(&self.pre_compact, PreCompactFold(context)).await
    }
}

struct PreCompactFold(PreCompactContext);

impl EventFold for PreCompactFold {
    type Event = PreCompact;

    fn context(&self) -> PreCompactContext {
        self.0.clone()
    }

    fn step(
        &mut self,
        trail: &mut Trail,
        observed: Observed,
        result: PreCompactResult,
    ) -> Flow<PreCompactVerdict> {
        trail.message(&observed, result.system_message);
        match result.block {
            Some(reason) => {
                let reason = trail.decided(
                    observed,
                    HookOutcomeKind::Blocked,
                    HookDecision::Block,
                    reason,
                    "the compaction was blocked by a PreCompact hook",
                );
                Flow::Done(PreCompactVerdict {
                    blocked: Some(reason),
                })
            }
            None => {
                trail.applied(observed, None);
                Flow::Next
            }
        }
    }

    fn failed_closed(&mut self, message: String, _error: &HookError) -> PreCompactVerdict {
        PreCompactVerdict {
            blocked: Some(message),
        }
    }

    fn finish(self) -> PreCompactVerdict {
        PreCompactVerdict::default()
    }
}

/// PreCompact's stdin: the common fields, `trigger` and `custom_instructions`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PreCompactInput {
    /// The common fields.
    #[serde(flatten)]
    pub common: CommonInput,
    /// `manual` or `auto`.
    #[serde(default = "super::input::manual")]
    pub trigger: String,
    /// What the person asked the summary to keep (manual compaction).
    #[serde(default)]
    pub custom_instructions: String,
}

/// PreCompact's stdin for this firing.
pub fn input(context: &PreCompactContext) -> PreCompactInput {
    PreCompactInput {
        common: CommonInput::of(&context.common, "PreCompact"),
        trigger: context.trigger.as_str().to_owned(),
        custom_instructions: context.custom_instructions.clone(),
    }
}

/// PreCompact: exit 2 (stderr), `decision: "block"` (`reason`) or
/// `continue: false` (`stopReason`) block; a blank reason still blocks.
pub(crate) fn read_output(run: &RawRun, as_: ReadAs<'_>) -> Result<PreCompactResult, HookError> {
    let from_json = |fields: Fields| PreCompactResult {
        block: fields.stop.or_else(|| {
            (fields.decision == Some(Decision::Block))
                .then(|| fields.reason.clone().unwrap_or_default())
        }),
        system_message: fields.system_message,
    };
    match read(run, as_)? {
        Said::Output(Output::Text(_)) => Ok(PreCompactResult::default()),
        Said::Output(Output::Warning(text)) => Ok(PreCompactResult {
            system_message: Some(text),
            ..PreCompactResult::default()
        }),
        Said::Output(Output::Json(fields)) => Ok(from_json(fields)),
        Said::Blocking { reason, json } => {
            let base = json.map(from_json).unwrap_or_default();
            Ok(PreCompactResult {
                block: Some(reason),
                ..base
            })
        }
    }
}

/// PreCompact: the history is about to be summarised; hooks may cancel a manual compaction.
pub struct PreCompact;

impl EventSpec for PreCompact {
    const EVENT: HookEvent = HookEvent::PreCompact;
    const WIRE: WireContract = WireContract {
        decisions: BLOCK,
        ..WireContract::COMMON_ONLY
    };
    type Context = PreCompactContext;
    type Result = PreCompactResult;
    type Verdict = PreCompactVerdict;
    type Input = PreCompactInput;

    fn common(context: &PreCompactContext) -> &HookCommon {
        &context.common
    }

    fn input(context: &PreCompactContext) -> PreCompactInput {
        input(context)
    }

    fn sample(
        input: PreCompactInput,
        env: &SampleEnv<'_>,
    ) -> Result<PreCompactContext, SampleError> {
        Ok(PreCompactContext {
            trigger: sample::trigger(&input.trigger)?,
            common: env.common(input.common),
            custom_instructions: input.custom_instructions,
        })
    }

    async fn try_run(
        registry: &HookRegistry,
        context: PreCompactContext,
    ) -> HookRun<PreCompactVerdict> {
        registry.run_pre_compact(context).await
    }

    fn explain(verdict: PreCompactVerdict) -> Vec<String> {
        vec![match verdict.blocked {
            Some(reason) => {
                format!("a manual compaction is cancelled ({reason}); an automatic one goes on")
            }
            None => "the compaction goes on".to_owned(),
        }]
    }

    fn subject(context: &PreCompactContext) -> MatcherSubject<'_> {
        MatcherSubject::Value(context.trigger.as_str())
    }

    fn read(
        run: &RawRun,
        as_: ReadAs<'_>,
        _: &PreCompactContext,
    ) -> Result<PreCompactResult, HookError> {
        read_output(run, as_)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::HookCommon;
    use agenthub_protocol::CompactionTrigger;

    fn context() -> PreCompactContext {
        PreCompactContext {
            common: HookCommon {
                session_id: "s".to_owned(),
                workspace: std::env::temp_dir(),
                transcript_path: None,
                permission_mode: agenthub_protocol::PermissionMode::Default,
                cancel: Default::default(),
                agent: None,
            },
            trigger: CompactionTrigger::Manual,
            custom_instructions: String::new(),
        }
    }

    #[tokio::test]
    async fn the_first_block_ends_the_chain_with_its_reason() {
        let hooks = HookRegistry::new()
            .pre_compact("keep", |_| async { Ok(PreCompactResult::block("keep it")) })
            .pre_compact("never", |_| async {
                Ok(PreCompactResult::block("not reached"))
            });
        let run = hooks.run_pre_compact(context()).await;
        assert_eq!(
            (run.verdict, run.records.len()),
            (
                PreCompactVerdict {
                    blocked: Some("keep it".to_owned())
                },
                1
            )
        );
    }

    #[tokio::test]
    async fn hooks_that_say_nothing_let_the_compaction_happen() {
        let hooks =
            HookRegistry::new().pre_compact("log", |_| async { Ok(PreCompactResult::default()) });
        let run = hooks.run_pre_compact(context()).await;
        assert_eq!(run.verdict, PreCompactVerdict::default());
    }

    #[test]
    fn pre_compact_blocks_on_exit_2_decision_block_and_continue_false() {
        let results: Vec<Option<String>> = [
            RawRun::exited(2, "", "keep it"),
            RawRun::exited(0, r#"{"decision": "block", "reason": "not yet"}"#, ""),
            RawRun::exited(0, r#"{"continue": false, "stopReason": "stop"}"#, ""),
            RawRun::exited(0, "just a log line", ""),
        ]
        .iter()
        .map(|run| {
            read_output(run, ReadAs::sample::<PreCompact>())
                .ok()
                .and_then(|result| result.block)
        })
        .collect();
        assert_eq!(
            results,
            vec![
                Some("keep it".to_owned()),
                Some("not yet".to_owned()),
                Some("stop".to_owned()),
                None
            ]
        );
    }

    #[test]
    fn pre_compact_refuses_hook_specific_output_as_a_contract_error() {
        let run = RawRun::exited(
            0,
            r#"{"hookSpecificOutput": {"hookEventName": "PreCompact", "additionalContext": "x"}}"#,
            "",
        );
        assert!(matches!(
            read_output(&run, ReadAs::sample::<PreCompact>()),
            Err(HookError::Contract(_))
        ));
    }
}
