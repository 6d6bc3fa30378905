//! The PreToolUse verdict: a pipeline of rewrites (each hook sees the input as
//! rewritten before it), the strictest permission suggestion, and a short
//! circuit on block, stop or a failure under a `Block` policy.

use super::fold::{run_chain, EventFold, Flow};
use super::{push_context, Observed, Trail};
use crate::context::{HookCommon, PreToolUseContext};
use crate::result::PreToolUseResult;
use crate::{HookError, HookEvent, HookRegistry, HookRun};
use agenthub_protocol::{HookDecision, HookOutcomeKind, PermissionSuggestion};
use agenthub_tools::PreparedCall;

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
    type Context = PreToolUseContext;
    type Result = PreToolUseResult;
    type Verdict = PreToolUseVerdict;
    const EVENT: HookEvent = HookEvent::PreToolUse;

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
                .map_err(|rejection| HookError::contract(rejection.to_string()))?;
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
