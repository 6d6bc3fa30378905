//! Verdicts of the session-level events: SessionStart, UserPromptSubmit, Stop
//! and SessionEnd. A hook's `stop_run` (Claude Code's `continue: false`) wins
//! over everything else it said and ends the run as `stopped`.

use super::{default_if_blank, push_context, Observed, Ran, Trail};
use crate::context::*;
use crate::result::*;
use crate::{FailurePolicy, HookError, HookEvent, HookRegistry, HookRun};
use agenthub_protocol::HookOutcomeKind;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionStartVerdict {
    pub context: Vec<String>,
    /// A hook that failed under a `Block` policy: the run fails.
    pub failure: Option<String>,
    /// A hook ended the run (`continue: false`), with this reason.
    pub stop: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UserPromptSubmitVerdict {
    Proceed {
        context: Vec<String>,
    },
    Blocked {
        reason: String,
        context: Vec<String>,
    },
    /// A hook ended the run (`continue: false`) before any model request.
    Stopped {
        reason: String,
        context: Vec<String>,
    },
    Failed {
        message: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StopVerdict {
    Finish {
        context: Vec<String>,
    },
    Continue {
        reason: String,
        context: Vec<String>,
    },
    /// A hook ended the run (`continue: false`): the answer stands, outcome `stopped`.
    Stopped {
        reason: String,
        context: Vec<String>,
    },
    Failed {
        message: String,
    },
}

fn stop_decision(stop_run: &Option<String>) -> Option<&'static str> {
    stop_run.as_ref().map(|_| "stop")
}

impl HookRegistry {
    pub async fn run_session_start(
        &self,
        context: SessionStartContext,
    ) -> HookRun<SessionStartVerdict> {
        let mut verdict = SessionStartVerdict::default();
        let mut trail = Trail::default();
        let mut ran = Ran::default();
        for entry in self
            .session_start
            .iter()
            .filter(|entry| entry.matches(&context) && ran.first(entry))
        {
            let observed = Observed::start(HookEvent::SessionStart, entry, None);
            match entry.call(context.clone()).await {
                Ok(result) => {
                    trail.message(&observed, result.system_message);
                    let decision = stop_decision(&result.stop_run);
                    trail
                        .records
                        .push(observed.finish(HookOutcomeKind::Ok, decision, None));
                    push_context(&mut verdict.context, result.additional_context);
                    if let Some(reason) = result.stop_run {
                        let default = "a SessionStart hook ended the run";
                        verdict.stop = Some(default_if_blank(reason, default, &entry.name));
                        break;
                    }
                }
                Err(error) => {
                    let failure = trail.failure(observed, &error);
                    if entry.on_failure == FailurePolicy::Block {
                        verdict.failure = Some(failure);
                        break;
                    }
                }
            }
        }
        trail.finish(verdict)
    }

    pub async fn run_user_prompt_submit(
        &self,
        context: UserPromptSubmitContext,
    ) -> HookRun<UserPromptSubmitVerdict> {
        let mut collected = Vec::new();
        let mut trail = Trail::default();
        let mut ran = Ran::default();
        for entry in self.user_prompt_submit.iter() {
            if !ran.first(entry) {
                continue;
            }
            let observed = Observed::start(HookEvent::UserPromptSubmit, entry, None);
            let result = match entry.call(context.clone()).await {
                Ok(result) => result,
                Err(error) => {
                    let message = trail.failure(observed, &error);
                    if entry.on_failure == FailurePolicy::Block {
                        return trail.finish(UserPromptSubmitVerdict::Failed { message });
                    }
                    continue;
                }
            };
            push_context(&mut collected, result.additional_context);
            trail.message(&observed, result.system_message);
            if let Some(reason) = result.stop_run {
                let reason = trail.stopped(observed, reason);
                return trail.finish(UserPromptSubmitVerdict::Stopped {
                    reason,
                    context: collected,
                });
            }
            if let Some(reason) = result.block {
                let reason = trail.decided(
                    observed,
                    HookOutcomeKind::Blocked,
                    "block",
                    reason,
                    "the prompt was blocked by a UserPromptSubmit hook",
                );
                return trail.finish(UserPromptSubmitVerdict::Blocked {
                    reason,
                    context: collected,
                });
            }
            trail
                .records
                .push(observed.finish(HookOutcomeKind::Ok, None, None));
        }
        trail.finish(UserPromptSubmitVerdict::Proceed { context: collected })
    }

    /// Runs the Stop hooks on a candidate answer. `may_continue` is false once
    /// the run has used its forced continuations: a force_continue is then
    /// dropped (and recorded as such), and the remaining hooks still run.
    pub async fn run_stop(&self, context: StopContext, may_continue: bool) -> HookRun<StopVerdict> {
        let mut collected = Vec::new();
        let mut trail = Trail::default();
        let mut ran = Ran::default();
        for entry in &self.stop {
            if !ran.first(entry) {
                continue;
            }
            let observed = Observed::start(HookEvent::Stop, entry, None);
            let outcome = match entry.call(context.clone()).await {
                Ok(result) => accept_stop_result(result),
                Err(error) => Err(error),
            };
            let result = match outcome {
                Ok(result) => result,
                Err(error) => {
                    let message = trail.failure(observed, &error);
                    if entry.on_failure == FailurePolicy::Block {
                        return trail.finish(StopVerdict::Failed { message });
                    }
                    continue;
                }
            };
            push_context(&mut collected, result.additional_context);
            trail.message(&observed, result.system_message);
            if let Some(reason) = result.stop_run {
                let reason = trail.stopped(observed, reason);
                return trail.finish(StopVerdict::Stopped {
                    reason,
                    context: collected,
                });
            }
            match result.force_continue {
                Some(reason) if may_continue => {
                    trail.records.push(observed.finish(
                        HookOutcomeKind::Ok,
                        Some("force_continue"),
                        None,
                    ));
                    return trail.finish(StopVerdict::Continue {
                        reason,
                        context: collected,
                    });
                }
                Some(_) => trail.records.push(observed.finish(
                    HookOutcomeKind::Ok,
                    Some("force_continue_dropped"),
                    None,
                )),
                None => trail
                    .records
                    .push(observed.finish(HookOutcomeKind::Ok, None, None)),
            }
        }
        trail.finish(StopVerdict::Finish { context: collected })
    }

    /// Runs the SessionEnd observers; their failures are only recorded.
    pub async fn run_session_end(&self, context: SessionEndContext) -> HookRun<()> {
        let mut trail = Trail::default();
        let mut ran = Ran::default();
        for entry in self
            .session_end
            .iter()
            .filter(|entry| entry.matches(&context) && ran.first(entry))
        {
            let observed = Observed::start(HookEvent::SessionEnd, entry, None);
            match entry.call(context.clone()).await {
                Ok(result) => {
                    trail.message(&observed, result.system_message);
                    trail
                        .records
                        .push(observed.finish(HookOutcomeKind::Ok, None, None));
                }
                Err(error) => trail.records.push(observed.failed(&error)),
            }
        }
        trail.finish(())
    }
}

fn accept_stop_result(result: StopResult) -> Result<StopResult, HookError> {
    match &result.force_continue {
        Some(reason) if reason.trim().is_empty() => Err(HookError::contract(
            "force_continue needs a non-empty reason",
        )),
        _ => Ok(result),
    }
}
