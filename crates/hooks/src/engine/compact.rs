//! The verdict of the PreCompact hooks: the first block wins and ends the
//! chain. Whether a block cancels the compaction (manual) or is only shown
//! (auto) is the caller's rule, not this module's.

use super::fold::{run_chain, EventFold, Flow};
use super::{Observed, Trail};
use crate::context::PreCompactContext;
use crate::result::PreCompactResult;
use crate::{HookError, HookEvent, HookRegistry, HookRun};
use agenthub_protocol::{HookDecision, HookOutcomeKind};

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
    type Context = PreCompactContext;
    type Result = PreCompactResult;
    type Verdict = PreCompactVerdict;
    const EVENT: HookEvent = HookEvent::PreCompact;

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
                permission_mode: "default".to_owned(),
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
}
