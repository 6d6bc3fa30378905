//! The one pipeline every tool call goes through (contract §2):
//! prepare → PreToolUse → permission → approval → handler → PostToolUse.
//! (An approval that gives another input is checked in `approved_input`.)
//!
//! It always returns exactly one result text for the call. It never writes
//! history: the round writes every result in call order.

use crate::loop_guard::{CallKind, Repeat};
use crate::run::Run;
use crate::{AgentEvent, PermissionDenial};
use agenthub_hooks::{HookEvent, PreToolUseVerdict, ToolOutcome};
use agenthub_policy::{Approval, Decision, HowToAllow, PermissionRequest, Source};
use agenthub_protocol::{
    ErrorCode, PermissionEffect, PermissionRecord, PermissionSuggestion, ToolCall,
};
use agenthub_tools::{
    cap_saved_whole, save_whole_and_cap, PreparedCall, Rejection, ToolContext, OUTPUT_CAP_CHARS,
};
use std::time::Instant;

/// What one call produced: its result text and, when the call failed or was
/// not run, its contract §7 code; any system context to write after the round, the event and
/// reason if a hook asked to end the run, the error if the loop guard ended
/// it, and the denial if permission refused it.
#[derive(Debug, Default)]
pub(crate) struct CallResult {
    pub content: String,
    /// Why the call failed or was not run, set where the failure text is
    /// made; `None` for a result the model reads as a success.
    pub error: Option<ErrorCode>,
    /// The tool's own structured result (Bash's `{stdout, stderr, …}`),
    /// when the text the model reads is still the tool's (no hook replaced it).
    pub structured: Option<serde_json::Value>,
    pub context: Vec<String>,
    pub stop: Option<(HookEvent, String)>,
    pub failure: Option<String>,
    pub denial: Option<PermissionDenial>,
}

/// Why a call may not run: its failure code and text, and the denial the run
/// reports when permission refused it (not when evaluating failed; boxed,
/// so that the `Result`s carrying it stay small).
pub(crate) struct NotAllowed {
    code: ErrorCode,
    message: String,
    denial: Option<Box<PermissionDenial>>,
}

impl NotAllowed {
    fn evaluation(message: String) -> Self {
        NotAllowed {
            code: ErrorCode::PermissionEvaluationError,
            message,
            denial: None,
        }
    }
}

impl CallResult {
    /// A result the model reads as-is, with the round's context so far.
    fn text(content: String, context: Vec<String>) -> Self {
        CallResult {
            content,
            error: None,
            structured: None,
            context,
            stop: None,
            failure: None,
            denial: None,
        }
    }

    /// A failure the model reads as `Error [code]: message`.
    fn failed(code: ErrorCode, message: &str, context: Vec<String>) -> Self {
        CallResult::error(code, code.result_text(message), context)
    }

    /// The handler never ran: `Error [code]: the tool was not run: message`.
    fn not_run(code: ErrorCode, message: &str, context: Vec<String>) -> Self {
        CallResult::error(code, code.not_run_text(message), context)
    }

    /// A `code` failure whose `Error [code]: …` text is already written.
    fn error(code: ErrorCode, content: String, context: Vec<String>) -> Self {
        CallResult {
            error: Some(code),
            ..CallResult::text(content, context)
        }
    }

    /// Whether the call failed or was not run (the tool message's flag).
    pub fn is_error(&self) -> bool {
        self.error.is_some()
    }
}

/// Where a call stands once hooks and permission have decided on it.
pub(crate) enum Decided {
    /// Cleared to run, with the context its PreToolUse hooks added and the
    /// loop guard's note for after its result.
    Run(PreparedCall, Vec<String>, Option<String>),
    /// Never runs: this is its result.
    Done(CallResult),
}

impl Run<'_> {
    /// Takes one tool call from prepare to result.
    pub(crate) async fn run_tool_call(&self, call: &ToolCall) -> CallResult {
        let decided = self.decide_call(call).await;
        self.carry_out(call, decided).await
    }

    /// Runs a decided call's handler and PostToolUse hooks, or gives the
    /// result it already has; observers are told the call has its result.
    pub(crate) async fn carry_out(&self, call: &ToolCall, decided: Decided) -> CallResult {
        let result = self.result_of(decided).await;
        self.emit(AgentEvent::ToolCallEnded(
            call,
            &result.content,
            result.error,
        ));
        result
    }

    async fn result_of(&self, decided: Decided) -> CallResult {
        match decided {
            Decided::Run(call, context, note) => {
                let mut result = self.execute(call, context).await;
                if let Some(note) = note {
                    result.content = format!("{}\n\n{note}", result.content);
                }
                result
            }
            Decided::Done(result) => result,
        }
    }

    /// The loop guard, then prepare → PreToolUse → permission → approval:
    /// whether the call runs. A repeated call's note follows its result,
    /// whatever the result is.
    pub(crate) async fn decide_call(&self, call: &ToolCall) -> Decided {
        self.emit(AgentEvent::ToolCallStarted(call));
        let kind = match self.agent.tools.get(call.name()) {
            Some(tool) if tool.is_read_only() => CallKind::ReadOnly,
            _ => CallKind::SideEffects,
        };
        match self.repeats.observe(self.agent.loop_guard, call, kind) {
            Repeat::Fine => self.decide_unrepeated(call).await,
            Repeat::Note(note) => match self.decide_unrepeated(call).await {
                Decided::Run(call, context, _) => Decided::Run(call, context, Some(note)),
                Decided::Done(mut result) => {
                    result.content = format!("{}\n\n{note}", result.content);
                    Decided::Done(result)
                }
            },
            Repeat::Stop(error) => {
                let text =
                    "the loop guard ended the run: this call repeated the same call too often";
                Decided::Done(CallResult {
                    failure: Some(error),
                    ..CallResult::not_run(ErrorCode::LoopDetected, text, Vec::new())
                })
            }
        }
    }

    async fn decide_unrepeated(&self, call: &ToolCall) -> Decided {
        let prepared = match self.agent.tools.prepare(call) {
            Ok(prepared) => prepared,
            Err(rejection) => {
                if let Rejection::UnknownTool { name, .. } = &rejection {
                    let warning = format!("the model called an unknown tool {name:?}");
                    self.emit(AgentEvent::Warning(&warning));
                }
                let text = rejection.result_text();
                return Decided::Done(CallResult::error(rejection.code(), text, Vec::new()));
            }
        };
        let pre = self
            .agent
            .hooks
            .run_pre_tool_use(self.hook_common(), prepared)
            .await;
        self.emit_hook_run(&pre);
        let (call, suggestion, context) = match pre.verdict {
            PreToolUseVerdict::Proceed {
                call,
                suggestion,
                context,
            } => (call, suggestion, context),
            PreToolUseVerdict::Blocked { reason, context } => {
                return Decided::Done(CallResult::failed(ErrorCode::HookBlocked, &reason, context))
            }
            PreToolUseVerdict::Stopped { reason, context } => {
                let text = "a PreToolUse hook ended the run";
                return Decided::Done(CallResult {
                    stop: Some((HookEvent::PreToolUse, reason)),
                    ..CallResult::not_run(ErrorCode::HookStoppedContinuation, text, context)
                });
            }
            PreToolUseVerdict::ContractError { message, context } => {
                return Decided::Done(CallResult::not_run(
                    ErrorCode::HookContractError,
                    &message,
                    context,
                ))
            }
            PreToolUseVerdict::ExecutionError { message, context } => {
                return Decided::Done(CallResult::not_run(
                    ErrorCode::HookExecutionError,
                    &message,
                    context,
                ))
            }
        };
        match self.authorize(&call, suggestion.as_ref()).await {
            Ok(call) => Decided::Run(call, context, None),
            Err(refused) => {
                if let Some(denial) = &refused.denial {
                    self.emit(AgentEvent::PermissionDenied(denial));
                    self.permission_denied(denial).await;
                }
                Decided::Done(CallResult {
                    denial: refused.denial.map(|denial| *denial),
                    ..CallResult::not_run(refused.code, &refused.message, context)
                })
            }
        }
    }

    /// Permission, then approval for an ask: the call to run (with the
    /// input an approval gave in place of its own, see `approved_input`).
    /// `Err` carries the failure code, why the tool was not run and, for a
    /// refusal, the denial to report.
    async fn authorize(
        &self,
        call: &PreparedCall,
        suggestion: Option<&PermissionSuggestion>,
    ) -> Result<PreparedCall, NotAllowed> {
        let decision = self.policy_decision(call, suggestion)?;
        self.audit(call, &decision)?;
        match decision.effect {
            PermissionEffect::Allow => Ok(call.clone()),
            PermissionEffect::Deny => Err(refusal(call, decision.reason, None)),
            PermissionEffect::Ask => match self.agent.approver.approve(call, &decision).await {
                Approval::AllowOnce { by } => self.allowed_once(call, &decision, &by),
                Approval::AllowWithInput { by, input } if self.is_own_input(call, &input) => {
                    self.allowed_once(call, &decision, &by)
                }
                Approval::AllowWithInput { by, input } => {
                    self.authorize_approved_input(call, &decision, &by, input)
                }
                Approval::Deny { reason } => Err(self.refuse_ask(call, &decision, reason, None)),
                Approval::NoOneToAsk => {
                    let how = self.agent.policy.how_to_allow(call, &decision);
                    let reason = Approval::NO_ONE_TO_ASK.to_owned();
                    Err(self.refuse_ask(call, &decision, reason, Some(how)))
                }
            },
        }
    }

    /// The policy's decision on `call`, with the PreToolUse hooks' suggestion.
    pub(crate) fn policy_decision(
        &self,
        call: &PreparedCall,
        suggestion: Option<&PermissionSuggestion>,
    ) -> Result<Decision, NotAllowed> {
        let request = PermissionRequest {
            call,
            suggestion,
            workspace: &self.agent.workspace,
        };
        self.agent
            .policy
            .decide(&request)
            .map_err(|error| NotAllowed::evaluation(error.to_string()))
    }

    /// Audits the allow of the ask `asked` by `by`; the call then runs.
    fn allowed_once(
        &self,
        call: &PreparedCall,
        asked: &Decision,
        by: &str,
    ) -> Result<PreparedCall, NotAllowed> {
        let allowed = Decision {
            rule: asked.rule.clone(),
            ..Decision::new(
                PermissionEffect::Allow,
                Source::Approval,
                format!("allowed once by {by}"),
            )
        };
        self.audit(call, &allowed)?;
        Ok(call.clone())
    }

    /// Audits the refusal of an ask; the call is then not run.
    pub(crate) fn refuse_ask(
        &self,
        call: &PreparedCall,
        asked: &Decision,
        reason: String,
        how_to_allow: Option<HowToAllow>,
    ) -> NotAllowed {
        let refused = Decision {
            rule: asked.rule.clone(),
            ..Decision::new(PermissionEffect::Deny, Source::Approval, reason)
        };
        match self.audit(call, &refused) {
            Ok(()) => refusal(call, refused.reason, how_to_allow),
            Err(failed) => failed,
        }
    }

    /// Tells the observers about a decision; a failed audit means the call does not run.
    pub(crate) fn audit(&self, call: &PreparedCall, decision: &Decision) -> Result<(), NotAllowed> {
        let record = PermissionRecord {
            agent_id: None,
            tool: call.name().to_owned(),
            tool_use_id: call.id().to_owned(),
            host: None,
            effect: decision.effect,
            source: decision.source,
            rule: decision.rule.clone(),
            reason: decision.reason.clone(),
        };
        self.agent
            .observer
            .on_event(&AgentEvent::Permission(&record))
            .map_err(|error| {
                NotAllowed::evaluation(format!("the decision could not be audited: {error}"))
            })
    }

    /// Runs the handler, then the PostToolUse hooks on its real result. The
    /// output cap cuts only the text the model sees, never the structured
    /// value hooks get, and what it cuts is saved whole ([`save_whole_and_cap`]).
    async fn execute(&self, call: PreparedCall, mut context: Vec<String>) -> CallResult {
        let tool_context = ToolContext {
            workspace: (self.agent.workspace.clone()).with_outputs_folder(self.state_folder()),
            cancel: self.cancel.clone(),
        };
        let started = Instant::now();
        let handler = call.definition().invoke(call.input().clone(), tool_context);
        let scoped = crate::subagent::scoped(self.parent_scope(call.id()), handler);
        let handled = crate::durable::tool_step(self.agent, call.id(), scoped).await;
        let concurrent = call.definition().capabilities().concurrent;
        if handled.is_err() && self.cancel.is_cancelled() && !concurrent {
            // The handler saw the cancellation before the run dropped it: a
            // call that runs alone gets the one cancelled result, whichever
            // came first. (Concurrent calls are given a grace to end after a
            // cancel, and keep what their handlers say, e.g. a subagent's.)
            let text = crate::round::cancelled_text();
            return CallResult::error(ErrorCode::Cancelled, text, context);
        }
        let elapsed = started.elapsed();
        let outcome = match handled {
            Ok(output) => {
                // A tool may name its own cap (an MCP tool's MAX_MCP_OUTPUT_TOKENS).
                let cap = call
                    .definition()
                    .capabilities()
                    .output_cap
                    .unwrap_or(OUTPUT_CAP_CHARS);
                let what = format!("{} output", call.name());
                let capped = match &output.whole {
                    Some(file) => cap_saved_whole(output.text, cap, file, &what),
                    None => save_whole_and_cap(output.text, cap, &self.state_folder(), &what),
                };
                if let Some(warning) = &capped.warning {
                    self.emit(AgentEvent::Warning(warning));
                }
                ToolOutcome::succeeded(capped.text, output.structured, elapsed)
            }
            Err(mut error) => {
                // A failure whose text the tool could not hold is cut as
                // output is, naming the file the tool saved it whole in.
                if let Some(file) = error.whole.take() {
                    let what = format!("{} output", call.name());
                    let capped = cap_saved_whole(error.message, OUTPUT_CAP_CHARS, &file, &what);
                    if let Some(warning) = &capped.warning {
                        self.emit(AgentEvent::Warning(warning));
                    }
                    error.message = capped.text;
                }
                ToolOutcome::failed(error, elapsed)
            }
        };
        let post = self
            .agent
            .hooks
            .run_post_tool_use(self.hook_common(), call, outcome)
            .await;
        self.emit_hook_run(&post);
        for failure in &post.verdict.failures {
            self.emit(AgentEvent::Failure(
                ErrorCode::HookExecutionError,
                &format!("{failure} (the tool had already run; its result is kept)"),
            ));
        }
        context.extend(post.verdict.context);
        CallResult {
            content: post.verdict.output,
            // Only a tool that ran and failed makes PostToolUse's result an
            // error; a hook's rewrite of the text does not change that.
            error: post.verdict.is_error.then_some(ErrorCode::ToolError),
            structured: post.verdict.structured,
            context,
            stop: post
                .verdict
                .stop_reason
                .map(|reason| (HookEvent::PostToolUse, reason)),
            failure: None,
            denial: None,
        }
    }
}

/// A `permission_denied` result for `call`, with the denial the run reports.
pub(crate) fn refusal(
    call: &PreparedCall,
    reason: String,
    how_to_allow: Option<HowToAllow>,
) -> NotAllowed {
    NotAllowed {
        code: ErrorCode::PermissionDenied,
        message: format!("permission denied: {reason}"),
        denial: Some(Box::new(PermissionDenial {
            tool_name: call.name().to_owned(),
            tool_use_id: call.id().to_owned(),
            tool_input: call.input().clone(),
            reason,
            how_to_allow,
        })),
    }
}
