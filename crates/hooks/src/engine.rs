//! The rules that turn several hooks' results into one verdict per event
//! (SPEC §3): pipelines for rewrites, short circuits on block and force_continue,
//! strictest-wins permission suggestions, context kept in order, and failures
//! mapped through each hook's failure policy.
//!
//! Every hook run yields a [`HookRecord`]; the verdicts carry them for the
//! observers. Nothing here touches history or runs a tool.

use crate::context::*;
use crate::result::*;
use crate::{FailurePolicy, HookEntry, HookError, HookEvent, HookOrigin, HookRegistry};
use agenthub_protocol::{HookOutcomeKind, HookRecord, PermissionSuggestion};
use agenthub_tools::PreparedCall;
use std::time::Instant;

/// A verdict plus the record of every hook that ran for it.
#[derive(Debug, Clone)]
pub struct HookRun<V> {
    pub verdict: V,
    pub records: Vec<HookRecord>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionStartVerdict {
    pub context: Vec<String>,
    /// A hook that failed under a `Block` policy: the run fails.
    pub failure: Option<String>,
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
    Failed {
        message: String,
    },
}

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
    /// The result that enters history, after every rewrite.
    pub output: String,
    /// Set when a hook asked to end the run after this round.
    pub stop_reason: Option<String>,
    pub context: Vec<String>,
    /// Hooks that failed; the tool result is kept regardless.
    pub failures: Vec<String>,
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
    Failed {
        message: String,
    },
}

/// What one hook run looked like, before it becomes a record.
struct Observed {
    event: HookEvent,
    hook: String,
    origin: HookOrigin,
    tool_use_id: Option<String>,
    tool_name: Option<String>,
    started: Instant,
}

impl Observed {
    fn start<C, R>(event: HookEvent, entry: &HookEntry<C, R>, call: Option<&PreparedCall>) -> Self {
        Observed {
            event,
            hook: entry.name.clone(),
            origin: entry.origin.clone(),
            tool_use_id: call.map(|call| call.id().to_owned()),
            tool_name: call.map(|call| call.name().to_owned()),
            started: Instant::now(),
        }
    }

    fn finish(
        self,
        outcome: HookOutcomeKind,
        decision: Option<&str>,
        error: Option<&HookError>,
    ) -> HookRecord {
        let (source, index) = match self.origin {
            HookOrigin::InProcess => (None, None),
            HookOrigin::Settings { file, index } => (Some(file), Some(index)),
        };
        HookRecord {
            event: self.event.as_str().to_owned(),
            hook: self.hook,
            tool_use_id: self.tool_use_id,
            tool_name: self.tool_name,
            tool_result: None,
            outcome,
            decision: decision.map(str::to_owned),
            elapsed_ms: self.started.elapsed().as_secs_f64() * 1000.0,
            handler_ran: None,
            error: error.map(ToString::to_string),
            source,
            index,
        }
    }

    fn failed(self, error: &HookError) -> HookRecord {
        let outcome = match error {
            HookError::Execution(_) => HookOutcomeKind::ExecutionError,
            HookError::Contract(_) => HookOutcomeKind::ContractError,
        };
        self.finish(outcome, None, Some(error))
    }
}

fn failure_text(event: HookEvent, hook: &str, error: &HookError) -> String {
    match error {
        HookError::Execution(message) => format!("{event} hook {hook:?} failed: {message}"),
        HookError::Contract(message) => {
            format!("{event} hook {hook:?} broke its contract: {message}")
        }
    }
}

fn push_context(context: &mut Vec<String>, text: Option<String>) {
    if let Some(text) = text.filter(|text| !text.trim().is_empty()) {
        context.push(text);
    }
}

impl HookRegistry {
    pub async fn run_session_start(
        &self,
        context: SessionStartContext,
    ) -> HookRun<SessionStartVerdict> {
        let mut verdict = SessionStartVerdict::default();
        let mut records = Vec::new();
        for entry in self
            .session_start
            .iter()
            .filter(|entry| entry.matches(&context))
        {
            let observed = Observed::start(HookEvent::SessionStart, entry, None);
            match entry.call(context.clone()).await {
                Ok(result) => {
                    records.push(observed.finish(HookOutcomeKind::Ok, None, None));
                    push_context(&mut verdict.context, result.additional_context);
                }
                Err(error) => {
                    records.push(observed.failed(&error));
                    if entry.on_failure == FailurePolicy::Block {
                        verdict.failure =
                            Some(failure_text(HookEvent::SessionStart, &entry.name, &error));
                        break;
                    }
                }
            }
        }
        HookRun { verdict, records }
    }

    pub async fn run_user_prompt_submit(
        &self,
        context: UserPromptSubmitContext,
    ) -> HookRun<UserPromptSubmitVerdict> {
        let mut collected = Vec::new();
        let mut records = Vec::new();
        for entry in self.user_prompt_submit.iter() {
            let observed = Observed::start(HookEvent::UserPromptSubmit, entry, None);
            match entry.call(context.clone()).await {
                Ok(result) => {
                    push_context(&mut collected, result.additional_context);
                    if let Some(reason) = result.block {
                        records.push(observed.finish(
                            HookOutcomeKind::Blocked,
                            Some("block"),
                            None,
                        ));
                        let reason = default_if_blank(
                            reason,
                            "the prompt was blocked by a UserPromptSubmit hook",
                            &entry.name,
                        );
                        let verdict = UserPromptSubmitVerdict::Blocked {
                            reason,
                            context: collected,
                        };
                        return HookRun { verdict, records };
                    }
                    records.push(observed.finish(HookOutcomeKind::Ok, None, None));
                }
                Err(error) => {
                    records.push(observed.failed(&error));
                    if entry.on_failure == FailurePolicy::Block {
                        let message =
                            failure_text(HookEvent::UserPromptSubmit, &entry.name, &error);
                        return HookRun {
                            verdict: UserPromptSubmitVerdict::Failed { message },
                            records,
                        };
                    }
                }
            }
        }
        HookRun {
            verdict: UserPromptSubmitVerdict::Proceed { context: collected },
            records,
        }
    }

    /// Runs the PreToolUse hooks that match `call`, each seeing the input as
    /// rewritten by the hooks before it; stops at the first block.
    pub async fn run_pre_tool_use(
        &self,
        common: HookCommon,
        call: PreparedCall,
    ) -> HookRun<PreToolUseVerdict> {
        let mut current = call;
        let mut suggestion: Option<PermissionSuggestion> = None;
        let mut collected = Vec::new();
        let mut records = Vec::new();
        for entry in &self.pre_tool_use {
            let context = PreToolUseContext {
                common: common.clone(),
                call: current.clone(),
            };
            if !entry.matches(&context) {
                continue;
            }
            let observed = Observed::start(HookEvent::PreToolUse, entry, Some(&current));
            let outcome = match entry.call(context).await {
                Ok(result) => accept_pre_tool_result(&current, result),
                Err(error) => Err(error),
            };
            match outcome {
                Ok(accepted) => {
                    push_context(&mut collected, accepted.additional_context);
                    if let Some(reason) = accepted.block {
                        records.push(observed.finish(
                            HookOutcomeKind::Blocked,
                            Some("block"),
                            None,
                        ));
                        let reason = default_if_blank(
                            reason,
                            "the call was blocked by a PreToolUse hook",
                            &entry.name,
                        );
                        return HookRun {
                            verdict: PreToolUseVerdict::Blocked {
                                reason,
                                context: collected,
                            },
                            records,
                        };
                    }
                    let decision = describe_pre_decision(
                        accepted.suggestion.as_ref(),
                        accepted.call.is_some(),
                    );
                    records.push(observed.finish(HookOutcomeKind::Ok, decision.as_deref(), None));
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
                Err(error) => {
                    records.push(observed.failed(&error));
                    if entry.on_failure == FailurePolicy::Block {
                        let message = failure_text(HookEvent::PreToolUse, &entry.name, &error);
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
                        return HookRun { verdict, records };
                    }
                }
            }
        }
        HookRun {
            verdict: PreToolUseVerdict::Proceed {
                call: current,
                suggestion,
                context: collected,
            },
            records,
        }
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
        let mut records = Vec::new();
        let tool_result = if result.is_error { "error" } else { "ok" };
        for entry in &self.post_tool_use {
            let context = PostToolUseContext {
                common: common.clone(),
                call: call.clone(),
                result: ToolOutcome {
                    output: verdict.output.clone(),
                    ..result.clone()
                },
            };
            if !entry.matches(&context) {
                continue;
            }
            let observed = Observed::start(HookEvent::PostToolUse, entry, Some(&call));
            let mut record = match entry.call(context).await {
                Ok(hook_result) => {
                    let decision = describe_post_decision(&hook_result);
                    let record = observed.finish(HookOutcomeKind::Ok, decision.as_deref(), None);
                    if let Some(output) = hook_result.updated_output {
                        verdict.output = output;
                    }
                    if verdict.stop_reason.is_none() {
                        verdict.stop_reason = hook_result.prevent_continuation;
                    }
                    push_context(&mut verdict.context, hook_result.additional_context);
                    record
                }
                Err(error) => {
                    verdict.failures.push(failure_text(
                        HookEvent::PostToolUse,
                        &entry.name,
                        &error,
                    ));
                    let mut record = observed.failed(&error);
                    record.outcome = HookOutcomeKind::ExecutionError;
                    record.handler_ran = Some(true);
                    record
                }
            };
            record.tool_result = Some(tool_result.to_owned());
            records.push(record);
        }
        HookRun { verdict, records }
    }

    /// Runs the Stop hooks on a candidate answer. `may_continue` is false once
    /// the run has used its forced continuations: a force_continue is then
    /// dropped (and recorded as such), and the remaining hooks still run.
    pub async fn run_stop(&self, context: StopContext, may_continue: bool) -> HookRun<StopVerdict> {
        let mut collected = Vec::new();
        let mut records = Vec::new();
        for entry in &self.stop {
            let observed = Observed::start(HookEvent::Stop, entry, None);
            let outcome = match entry.call(context.clone()).await {
                Ok(result) => accept_stop_result(result),
                Err(error) => Err(error),
            };
            match outcome {
                Ok(result) => {
                    push_context(&mut collected, result.additional_context);
                    match result.force_continue {
                        Some(reason) if may_continue => {
                            records.push(observed.finish(
                                HookOutcomeKind::Ok,
                                Some("force_continue"),
                                None,
                            ));
                            return HookRun {
                                verdict: StopVerdict::Continue {
                                    reason,
                                    context: collected,
                                },
                                records,
                            };
                        }
                        Some(_) => records.push(observed.finish(
                            HookOutcomeKind::Ok,
                            Some("force_continue_dropped"),
                            None,
                        )),
                        None => records.push(observed.finish(HookOutcomeKind::Ok, None, None)),
                    }
                }
                Err(error) => {
                    records.push(observed.failed(&error));
                    if entry.on_failure == FailurePolicy::Block {
                        let message = failure_text(HookEvent::Stop, &entry.name, &error);
                        return HookRun {
                            verdict: StopVerdict::Failed { message },
                            records,
                        };
                    }
                }
            }
        }
        HookRun {
            verdict: StopVerdict::Finish { context: collected },
            records,
        }
    }

    /// Runs the SessionEnd observers; their failures are only recorded.
    pub async fn run_session_end(&self, context: SessionEndContext) -> HookRun<()> {
        let mut records = Vec::new();
        for entry in self
            .session_end
            .iter()
            .filter(|entry| entry.matches(&context))
        {
            let observed = Observed::start(HookEvent::SessionEnd, entry, None);
            records.push(match entry.call(context.clone()).await {
                Ok(()) => observed.finish(HookOutcomeKind::Ok, None, None),
                Err(error) => observed.failed(&error),
            });
        }
        HookRun {
            verdict: (),
            records,
        }
    }
}

/// A PreToolUse result whose rewrite passed the identity and schema checks.
struct AcceptedPreToolResult {
    call: Option<PreparedCall>,
    suggestion: Option<agenthub_protocol::PermissionEffect>,
    reason: Option<String>,
    block: Option<String>,
    additional_context: Option<String>,
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
    })
}

fn accept_stop_result(result: StopResult) -> Result<StopResult, HookError> {
    match &result.force_continue {
        Some(reason) if reason.trim().is_empty() => Err(HookError::contract(
            "force_continue needs a non-empty reason",
        )),
        _ => Ok(result),
    }
}

fn default_if_blank(reason: String, default: &str, hook: &str) -> String {
    if reason.trim().is_empty() {
        format!("{default} ({hook})")
    } else {
        reason
    }
}

fn describe_pre_decision(
    suggestion: Option<&agenthub_protocol::PermissionEffect>,
    rewrote: bool,
) -> Option<String> {
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
        (None, None) => None,
    }
}
