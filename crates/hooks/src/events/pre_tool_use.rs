//! PreToolUse: a prepared call, before permission. Its verdict: a pipeline of
//! rewrites (each hook sees the input as rewritten before it), the strictest
//! permission suggestion, and a short circuit on block, stop or a failure under
//! a `Block` policy.

use super::input::{empty_input, sample_tool_use_id};
use super::*;
use crate::command::decision::{Decision, WireDecision};
use crate::command::interpret::{to_model, to_model_opt};
use crate::command::payload::tool_input;
use crate::command::wire::{read, Fields, Output, Said};
use crate::command::{RawRun, ReadAs};
use crate::engine::{push_context, run_chain, EventFold, Flow, Observed, Trail};
use crate::{ContractError, HookCommon, HookError, HookEvent, HookRegistry, HookRun};
use agenthub_protocol::ErrorCode;
use agenthub_protocol::{HookDecision, HookOutcomeKind, PermissionEffect, PermissionSuggestion};
use agenthub_tools::PreparedCall;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A prepared call: known tool, input valid for its schema. `call.input()` is
/// the input as rewritten by the hooks before this one.
#[derive(Debug, Clone)]
pub struct PreToolUseContext {
    /// What every event carries.
    pub common: HookCommon,
    /// The call about to go to permission; return a rewrite with
    /// [`PreparedCall::with_input`].
    pub call: PreparedCall,
}

/// What a PreToolUse hook may say about one call. `Default` lets the call
/// go on to permission unchanged.
#[derive(Debug, Clone, Default)]
pub struct PreToolUseResult {
    /// A suggestion to the permission policy, never an authorisation.
    pub permission_decision: Option<PermissionEffect>,
    /// Why the hook suggests it; shown in the permission audit and, for a
    /// deny, to the model.
    pub permission_reason: Option<String>,
    /// The whole call with a new input: build it with `ctx.call.with_input(..)`.
    pub updated_input: Option<PreparedCall>,
    /// Blocks the call; a blank reason still blocks.
    pub block: Option<String>,
    /// Text for the model, added as a system message after this round's
    /// tool results.
    pub additional_context: Option<String>,
    /// Ends the run (outcome `stopped`) with this reason: the call is not run
    /// (`Error [hook_stopped_continuation]`), nor any later call. Wins over every
    /// other field.
    pub stop_run: Option<String>,
    /// A warning shown to the user, never to the model.
    pub system_message: Option<String>,
}

impl PreToolUseResult {
    /// Blocks the call: neither permission nor the handler runs, and the model
    /// reads `Error [hook_blocked]: <reason>`.
    pub fn block(reason: impl Into<String>) -> Self {
        PreToolUseResult {
            block: Some(reason.into()),
            ..Self::default()
        }
    }

    /// Suggests a permission effect to the policy (which may overrule it:
    /// a hook's allow never beats a deny or ask rule, or the workspace boundary).
    pub fn suggest(effect: PermissionEffect, reason: impl Into<String>) -> Self {
        PreToolUseResult {
            permission_decision: Some(effect),
            permission_reason: Some(reason.into()),
            ..Self::default()
        }
    }

    /// Replaces the call's input: pass `ctx.call.with_input(new_input)`. The
    /// rewrite must keep the call's id, tool and definition and pass the
    /// schema again, or the call fails with `hook_contract_error`.
    ///
    /// ```
    /// use agenthub_hooks::{HookCommon, HookRegistry, PreToolUseResult, PreToolUseVerdict};
    /// use agenthub_protocol::ToolCall;
    /// use agenthub_tools::ToolRegistry;
    /// use serde_json::json;
    ///
    /// // Every Echo call says "[checked] …" instead.
    /// let hooks = HookRegistry::new().pre_tool_use("tag", |ctx| async move {
    ///     let text = ctx.call.input()["text"].as_str().unwrap_or_default();
    ///     let tagged = json!({ "text": format!("[checked] {text}") });
    ///     Ok(PreToolUseResult::rewrite(ctx.call.with_input(tagged)))
    /// });
    ///
    /// let tools = ToolRegistry::with_builtins()?;
    /// let call = tools.prepare(&ToolCall::new("call_1", "Echo", r#"{"text": "hi"}"#))?;
    /// let common = HookCommon {
    ///     session_id: "session".to_owned(),
    ///     workspace: std::env::temp_dir(),
    ///     transcript_path: None,
    ///     permission_mode: agenthub_protocol::PermissionMode::Default,
    ///     cancel: Default::default(),
    ///     agent: None,
    /// };
    /// let run = tokio::runtime::Runtime::new()?.block_on(hooks.run_pre_tool_use(common, call));
    /// match run.verdict {
    ///     PreToolUseVerdict::Proceed { call, .. } => {
    ///         assert_eq!(call.input(), &json!({ "text": "[checked] hi" }))
    ///     }
    ///     other => panic!("the rewrite was refused: {other:?}"),
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn rewrite(call: PreparedCall) -> Self {
        PreToolUseResult {
            updated_input: Some(call),
            ..Self::default()
        }
    }

    /// Lets the call go on and adds `text` for the model.
    pub fn context(text: impl Into<String>) -> Self {
        PreToolUseResult {
            additional_context: Some(text.into()),
            ..Self::default()
        }
    }
}

/// What the PreToolUse hooks of one call decided together.
#[derive(Debug, Clone)]
pub enum PreToolUseVerdict {
    /// Go on to permission with this (possibly rewritten, now immutable) call.
    Proceed {
        /// The call permission and the handler will see.
        call: PreparedCall,
        /// The strictest permission suggestion any hook made, for the policy.
        suggestion: Option<PermissionSuggestion>,
        /// The hooks' additional context, in order.
        context: Vec<String>,
    },
    /// A hook blocked the call (`Error [hook_blocked]`); the handler does not run.
    Blocked {
        /// The blocking hook's reason (a default text when it gave a blank one).
        reason: String,
        /// The hooks' additional context, in order.
        context: Vec<String>,
    },
    /// A hook ended the run (`continue: false`): this call is not run, nor any
    /// later one; the run's outcome is `stopped` with this reason.
    Stopped {
        /// The hook's stop reason.
        reason: String,
        /// The hooks' additional context, in order.
        context: Vec<String>,
    },
    /// A hook broke its contract under a `Block` policy (`Error [hook_contract_error]`).
    ContractError {
        /// Which hook and what it broke.
        message: String,
        /// The hooks' additional context, in order.
        context: Vec<String>,
    },
    /// A hook failed under a `Block` policy (`Error [hook_execution_error]`).
    ExecutionError {
        /// Which hook and why it failed.
        message: String,
        /// The hooks' additional context, in order.
        context: Vec<String>,
    },
}

impl HookRegistry {
    /// Runs the PreToolUse hooks that match `call`, each seeing the input as
    /// rewritten by the hooks before it; stops at the first block or stop.
    pub async fn run_pre_tool_use(
        &self,
        common: HookCommon,
        call: PreparedCall,
    ) -> HookRun<PreToolUseVerdict> {
        let fold = PreToolUseFold {
            common,
            call,
            suggestion: None,
            context: Vec::new(),
        };
        run_chain(&self.pre_tool_use, fold).await
    }
}

struct PreToolUseFold {
    common: HookCommon,
    call: PreparedCall,
    suggestion: Option<PermissionSuggestion>,
    context: Vec<String>,
}

impl EventFold for PreToolUseFold {
    type Event = PreToolUse;

    fn context(&self) -> PreToolUseContext {
        PreToolUseContext {
            common: self.common.clone(),
            call: self.call.clone(),
        }
    }

    fn call(&self) -> Option<&PreparedCall> {
        Some(&self.call)
    }

    /// A rewrite must keep the call's identity and pass the schema again.
    fn accept(&self, mut result: PreToolUseResult) -> Result<PreToolUseResult, HookError> {
        if let Some(rewritten) = result.updated_input.take() {
            let accepted = self
                .call
                .accept_rewrite(rewritten)
                .map_err(|rejection| HookError::Contract(rejection.into()))?;
            result.updated_input = Some(accepted);
        }
        Ok(result)
    }

    fn step(
        &mut self,
        trail: &mut Trail,
        observed: Observed,
        accepted: PreToolUseResult,
    ) -> Flow<PreToolUseVerdict> {
        push_context(&mut self.context, accepted.additional_context);
        trail.message(&observed, accepted.system_message);
        if let Some(reason) = accepted.stop_run {
            let reason = trail.stopped(observed, reason);
            let context = std::mem::take(&mut self.context);
            return Flow::Done(PreToolUseVerdict::Stopped { reason, context });
        }
        if let Some(reason) = accepted.block {
            let reason = trail.decided(
                observed,
                HookOutcomeKind::Blocked,
                HookDecision::Block,
                reason,
                "the call was blocked by a PreToolUse hook",
            );
            let context = std::mem::take(&mut self.context);
            return Flow::Done(PreToolUseVerdict::Blocked { reason, context });
        }
        let hook = observed.hook.clone();
        let decision = HookDecision::pre_tool_use(
            accepted.permission_decision,
            accepted.updated_input.is_some(),
        );
        trail.applied(observed, decision);
        if let Some(rewritten) = accepted.updated_input {
            self.call = rewritten;
        }
        if let Some(effect) = accepted.permission_decision {
            self.suggest(PermissionSuggestion {
                effect,
                reason: accepted.permission_reason,
                hook,
            });
        }
        Flow::Next
    }

    fn failed_closed(&mut self, message: String, error: &HookError) -> PreToolUseVerdict {
        let context = std::mem::take(&mut self.context);
        match error {
            HookError::Contract(_) => PreToolUseVerdict::ContractError { message, context },
            HookError::Execution(_) => PreToolUseVerdict::ExecutionError { message, context },
        }
    }

    fn finish(self) -> PreToolUseVerdict {
        PreToolUseVerdict::Proceed {
            call: self.call,
            suggestion: self.suggestion,
            context: self.context,
        }
    }
}

impl PreToolUseFold {
    /// Merges a hook's suggestion with the earlier ones: the strictest wins.
    fn suggest(&mut self, next: PermissionSuggestion) {
        self.suggestion = Some(match self.suggestion.take() {
            Some(earlier) => earlier.merge(next),
            None => next,
        });
    }
}

/// PreToolUse's stdin: the common fields, `tool_name`, `tool_input` (declared
/// paths absolute) and `tool_use_id`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PreToolUseInput {
    /// The common fields.
    #[serde(flatten)]
    pub common: CommonInput,
    /// The tool the call asks for.
    pub tool_name: String,
    /// The call's input, declared paths absolute.
    #[serde(default = "empty_input")]
    pub tool_input: Value,
    /// The call's id.
    #[serde(default = "sample_tool_use_id")]
    pub tool_use_id: String,
}

/// PreToolUse's stdin for this firing.
pub fn input(context: &PreToolUseContext) -> PreToolUseInput {
    PreToolUseInput {
        common: CommonInput::of(&context.common, "PreToolUse"),
        tool_name: context.call.name().to_owned(),
        tool_input: tool_input(&context.common, &context.call),
        tool_use_id: context.call.id().to_owned(),
    }
}

pub(crate) fn read_output(
    run: &RawRun,
    as_: ReadAs<'_>,
    context: &PreToolUseContext,
) -> Result<PreToolUseResult, HookError> {
    let from_json = |fields: Fields| -> Result<PreToolUseResult, HookError> {
        let (decision, reason) = match fields.specific_string("permissionDecision")? {
            Some(text) => (
                Some(permission_effect(&text)?),
                fields.specific_string("permissionDecisionReason")?,
            ),
            None => (legacy_decision(fields.decision), fields.reason.clone()),
        };
        let updated_input = fields
            .specific
            .get("updatedInput")
            .map(|input| context.call.with_input(input.clone()));
        Ok(PreToolUseResult {
            permission_decision: decision,
            permission_reason: to_model_opt(reason),
            updated_input,
            block: None,
            additional_context: fields.specific_string("additionalContext")?,
            stop_run: fields.stop,
            system_message: fields.system_message,
        })
    };
    match read(run, as_)? {
        Said::Output(Output::Text(_)) => Ok(PreToolUseResult::default()),
        Said::Output(Output::Warning(text)) => Ok(PreToolUseResult {
            system_message: Some(text),
            ..PreToolUseResult::default()
        }),
        Said::Output(Output::Json(fields)) => from_json(fields),
        Said::Blocking { reason, json } => {
            let base = json.map(from_json).and_then(Result::ok).unwrap_or_default();
            Ok(PreToolUseResult {
                block: Some(to_model(reason)),
                ..base
            })
        }
    }
}

fn permission_effect(text: &str) -> Result<PermissionEffect, HookError> {
    match text {
        "allow" => Ok(PermissionEffect::Allow),
        "ask" => Ok(PermissionEffect::Ask),
        "deny" => Ok(PermissionEffect::Deny),
        other => Err(ContractError::PermissionDecision(other.to_owned()).into()),
    }
}

/// The deprecated top-level `decision`: `approve` = allow, `block` = deny.
fn legacy_decision(decision: Option<Decision>) -> Option<PermissionEffect> {
    match decision {
        Some(Decision::Approve) => Some(PermissionEffect::Allow),
        Some(Decision::Block) => Some(PermissionEffect::Deny),
        _ => None,
    }
}

/// PreToolUse: a prepared call, before permission; hooks may rewrite it, suggest a permission, block it or end the run.
pub struct PreToolUse;

impl EventSpec for PreToolUse {
    const EVENT: HookEvent = HookEvent::PreToolUse;
    const WIRE: WireContract = WireContract {
        decisions: &[
            (WireDecision::Approve, Decision::Approve),
            (WireDecision::Allow, Decision::Approve),
            (WireDecision::Block, Decision::Block),
            (WireDecision::Deny, Decision::Block),
        ],
        specific: &[
            "permissionDecision",
            "permissionDecisionReason",
            "updatedInput",
            "additionalContext",
        ],
        accepted_unused: &[],
    };
    type Context = PreToolUseContext;
    type Result = PreToolUseResult;
    type Verdict = PreToolUseVerdict;
    type Input = PreToolUseInput;

    fn common(context: &PreToolUseContext) -> &HookCommon {
        &context.common
    }

    fn input(context: &PreToolUseContext) -> PreToolUseInput {
        input(context)
    }

    fn sample(
        input: PreToolUseInput,
        env: &SampleEnv<'_>,
    ) -> Result<PreToolUseContext, SampleError> {
        Ok(PreToolUseContext {
            call: env.call(&input.tool_use_id, &input.tool_name, &input.tool_input)?,
            common: env.common(input.common),
        })
    }

    async fn try_run(
        registry: &HookRegistry,
        context: PreToolUseContext,
    ) -> HookRun<PreToolUseVerdict> {
        registry
            .run_pre_tool_use(context.common, context.call)
            .await
    }

    fn explain(verdict: PreToolUseVerdict) -> Vec<String> {
        explain(verdict)
    }

    fn subject(context: &PreToolUseContext) -> MatcherSubject<'_> {
        MatcherSubject::Call(&context.call)
    }

    fn read(
        run: &RawRun,
        as_: ReadAs<'_>,
        context: &PreToolUseContext,
    ) -> Result<PreToolUseResult, HookError> {
        read_output(run, as_, context)
    }
}

/// What PreToolUse's verdict would mean for the call, in words.
fn explain(verdict: PreToolUseVerdict) -> Vec<String> {
    let not_run = |code: ErrorCode, text: &str, context: &[String]| {
        sample::with_contexts(
            &format!("the tool would not run: {}", code.result_text(text)),
            context,
        )
    };
    match verdict {
        PreToolUseVerdict::Proceed {
            call,
            suggestion,
            context,
        } => {
            let mut lines = vec![format!(
                "the call goes on to permission with input {}",
                call.input()
            )];
            if let Some(suggestion) = suggestion {
                let reason = suggestion.reason.as_deref().unwrap_or("no reason given");
                lines.push(format!(
                    "permission suggestion: {} ({reason}) from {:?}",
                    suggestion.effect, suggestion.hook
                ));
            }
            lines.extend(sample::contexts(&context));
            lines
        }
        PreToolUseVerdict::Blocked { reason, context } => {
            not_run(ErrorCode::HookBlocked, &reason, &context)
        }
        PreToolUseVerdict::Stopped { reason, context } => sample::with_contexts(
            &format!("the run would stop before the tool runs: {reason}"),
            &context,
        ),
        PreToolUseVerdict::ContractError { message, context } => {
            not_run(ErrorCode::HookContractError, &message, &context)
        }
        PreToolUseVerdict::ExecutionError { message, context } => {
            not_run(ErrorCode::HookExecutionError, &message, &context)
        }
    }
}
