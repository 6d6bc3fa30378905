//! Verdicts of the tool events: PreToolUse (a pipeline of rewrites, strictest
//! permission suggestion, short circuit on block or stop) and PostToolUse (a
//! pipeline of output rewrites that a failing hook can never undo).

use super::{push_context, Observed, Ran, Trail};
use crate::context::*;
use crate::result::*;
use crate::{FailurePolicy, HookError, HookEvent, HookRegistry, HookRun};
use agenthub_protocol::{HookOutcomeKind, PermissionEffect, PermissionSuggestion};
use agenthub_tools::PreparedCall;

#[derive(Debug, Clone)]
pub enum PreToolUseVerdict {
    /// Go on to permission with this (possibly rewritten, now immutable) call.
    Proceed {
        call: PreparedCall,
        suggestion: Option<PermissionSuggestion>,
        context: Vec<String>,
    },
    Blocked {
        reason: String,
        context: Vec<String>,
    },
    /// A hook ended the run (`continue: false`): this call is not run, nor any
    /// later one; the run's outcome is `stopped` with this reason.
    Stopped {
        reason: String,
        context: Vec<String>,
    },
    ContractError {
        message: String,
        context: Vec<String>,
    },
    ExecutionError {
        message: String,
        context: Vec<String>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PostToolUseVerdict {
    /// The result that enters history, after every rewrite, followed by any
    /// feedback hooks gave the model about it.
    pub output: String,
    /// Set when a hook asked to end the run after this round.
    pub stop_reason: Option<String>,
    pub context: Vec<String>,
    /// Hooks that failed; the tool result is kept regardless.
    pub failures: Vec<String>,
}

impl HookRegistry {
    /// Runs the PreToolUse hooks that match `call`, each seeing the input as
    /// rewritten by the hooks before it; stops at the first block or stop.
    pub async fn run_pre_tool_use(
        &self,
        common: HookCommon,
        call: PreparedCall,
    ) -> HookRun<PreToolUseVerdict> {
        let mut current = call;
        let mut suggestion: Option<PermissionSuggestion> = None;
        let mut collected = Vec::new();
        let mut trail = Trail::default();
        let mut ran = Ran::default();
        for entry in &self.pre_tool_use {
            let context = PreToolUseContext {
                common: common.clone(),
                call: current.clone(),
            };
            if !entry.matches(&context) || !ran.first(entry) {
                continue;
            }
            let observed = Observed::start(HookEvent::PreToolUse, entry, Some(&current));
            let outcome = match entry.call(context).await {
                Ok(result) => accept_pre_tool_result(&current, result),
                Err(error) => Err(error),
            };
            let accepted = match outcome {
                Ok(accepted) => accepted,
                Err(error) => {
                    let message = trail.failure(observed, &error);
                    if entry.on_failure == FailurePolicy::Continue {
                        continue;
                    }
                    let verdict = match error {
                        HookError::Contract(_) => PreToolUseVerdict::ContractError {
                            message,
                            context: collected,
                        },
                        HookError::Execution(_) => PreToolUseVerdict::ExecutionError {
                            message,
                            context: collected,
                        },
                    };
                    return trail.finish(verdict);
                }
            };
            push_context(&mut collected, accepted.additional_context);
            trail.message(&observed, accepted.system_message);
            if let Some(reason) = accepted.stop_run {
                let reason = trail.stopped(observed, reason);
                return trail.finish(PreToolUseVerdict::Stopped {
                    reason,
                    context: collected,
                });
            }
            if let Some(reason) = accepted.block {
                let reason = trail.decided(
                    observed,
                    HookOutcomeKind::Blocked,
                    "block",
                    reason,
                    "the call was blocked by a PreToolUse hook",
                );
                return trail.finish(PreToolUseVerdict::Blocked {
                    reason,
                    context: collected,
                });
            }
            let decision =
                describe_pre_decision(accepted.suggestion.as_ref(), accepted.call.is_some());
            trail
                .records
                .push(observed.finish(HookOutcomeKind::Ok, decision.as_deref(), None));
            if let Some(rewritten) = accepted.call {
                current = rewritten;
            }
            if let Some(effect) = accepted.suggestion {
                let next = PermissionSuggestion {
                    effect,
                    reason: accepted.reason,
                    hook: entry.name.clone(),
                };
                suggestion = Some(match suggestion {
                    Some(earlier) => earlier.merge(next),
                    None => next,
                });
            }
        }
        trail.finish(PreToolUseVerdict::Proceed {
            call: current,
            suggestion,
            context: collected,
        })
    }

    /// Runs the PostToolUse hooks that match `call`, each seeing the output as
    /// rewritten by the hooks before it. A failing hook never changes the result.
    pub async fn run_post_tool_use(
        &self,
        common: HookCommon,
        call: PreparedCall,
        result: ToolOutcome,
    ) -> HookRun<PostToolUseVerdict> {
        let mut verdict = PostToolUseVerdict {
            output: result.output.clone(),
            stop_reason: None,
            context: Vec::new(),
            failures: Vec::new(),
        };
        let mut feedback = Vec::new();
        let mut trail = Trail::default();
        let tool_result = if result.is_error { "error" } else { "ok" };
        let mut ran = Ran::default();
        let mut structured = result.structured.clone();
        for entry in &self.post_tool_use {
            let context = PostToolUseContext {
                common: common.clone(),
                call: call.clone(),
                result: ToolOutcome {
                    output: verdict.output.clone(),
                    structured: structured.clone(),
                    ..result.clone()
                },
            };
            if !entry.matches(&context) || !ran.first(entry) {
                continue;
            }
            let observed = Observed::start(HookEvent::PostToolUse, entry, Some(&call));
            let mut record = match entry.call(context).await {
                Ok(hook_result) => {
                    trail.message(&observed, hook_result.system_message.clone());
                    let event = observed.event;
                    let decision = describe_post_decision(&hook_result);
                    let record = observed.finish(HookOutcomeKind::Ok, decision.as_deref(), None);
                    if let Some(output) = hook_result.updated_output {
                        verdict.output = output;
                        structured = None;
                    }
                    if verdict.stop_reason.is_none() {
                        verdict.stop_reason = hook_result.prevent_continuation;
                    }
                    push_context(&mut verdict.context, hook_result.additional_context);
                    if let Some(text) = hook_result.feedback.filter(|text| !text.trim().is_empty())
                    {
                        feedback.push(format!(
                            "{event} hook feedback (the tool already ran): {text}"
                        ));
                    }
                    record
                }
                Err(error) => {
                    verdict.failures.push(observed.failure_text(&error));
                    let mut record = observed.failed(&error);
                    record.outcome = HookOutcomeKind::ExecutionError;
                    record.handler_ran = Some(true);
                    record
                }
            };
            record.tool_result = Some(tool_result.to_owned());
            trail.records.push(record);
        }
        if !feedback.is_empty() {
            verdict.output = format!("{}\n\n{}", verdict.output, feedback.join("\n\n"));
        }
        trail.finish(verdict)
    }
}

/// A PreToolUse result whose rewrite passed the identity and schema checks.
struct AcceptedPreToolResult {
    call: Option<PreparedCall>,
    suggestion: Option<PermissionEffect>,
    reason: Option<String>,
    block: Option<String>,
    additional_context: Option<String>,
    stop_run: Option<String>,
    system_message: Option<String>,
}

fn accept_pre_tool_result(
    current: &PreparedCall,
    result: PreToolUseResult,
) -> Result<AcceptedPreToolResult, HookError> {
    let call = match result.updated_input {
        Some(rewritten) => Some(
            current
                .accept_rewrite(rewritten)
                .map_err(|rejection| HookError::contract(rejection.to_string()))?,
        ),
        None => None,
    };
    Ok(AcceptedPreToolResult {
        call,
        suggestion: result.permission_decision,
        reason: result.permission_reason,
        block: result.block,
        additional_context: result.additional_context,
        stop_run: result.stop_run,
        system_message: result.system_message,
    })
}

fn describe_pre_decision(suggestion: Option<&PermissionEffect>, rewrote: bool) -> Option<String> {
    match (suggestion, rewrote) {
        (Some(effect), true) => Some(format!("{effect}+updated_input")),
        (Some(effect), false) => Some(effect.to_string()),
        (None, true) => Some("updated_input".to_owned()),
        (None, false) => None,
    }
}

fn describe_post_decision(result: &PostToolUseResult) -> Option<String> {
    match (&result.updated_output, &result.prevent_continuation) {
        (_, Some(_)) => Some("prevent_continuation".to_owned()),
        (Some(_), None) => Some("updated_output".to_owned()),
        (None, None) => result.feedback.as_ref().map(|_| "feedback".to_owned()),
    }
}
