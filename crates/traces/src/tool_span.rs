//! One tool call's span and what it says about the call's permission: the
//! policy's decision and who made it, who answered an ask, or the hook that
//! kept the call from permission. Only decisions and names, never a
//! reason text that may quote the call's input.

use super::span::{FinishedSpan, OpenSpan};
use agenthub_policy::decided_by::{approval_decider, policy_decider};
use agenthub_protocol::{ErrorCode, HookRecord, PermissionEffect, PermissionRecord};

/// A tool call in flight and the records its permission attributes come from.
pub(crate) struct ToolSpan {
    pub(crate) span: OpenSpan,
    /// The policy's decision (the first permission record of the call).
    pub(crate) policy: Option<PermissionRecord>,
    /// The answer to an ask (the second record).
    pub(crate) approval: Option<PermissionRecord>,
    /// The call's PermissionRequest hook runs.
    pub(crate) permission_hooks: Vec<HookRecord>,
    /// The last PreToolUse hook that blocked or failed on the call.
    pub(crate) stopping_hook: Option<HookRecord>,
    /// Set when a PreToolUse hook kept the call from permission (its result
    /// is `hook_blocked`, `hook_contract_error` or `hook_execution_error`).
    pub(crate) stopped_by_hook: bool,
}

impl ToolSpan {
    /// The span with its permission attributes: the policy's decision, and
    /// who decided — the rule, mode, boundary, hook or default for an allow
    /// or deny; for an ask, who answered it (a PermissionRequest hook, the
    /// user, or no one when nobody could be asked).
    pub(crate) fn finish(mut self, now: u64) -> FinishedSpan {
        if let Some(policy) = &self.policy {
            self.span
                .set("agenthub.permission.decision", policy.effect.as_str());
            let source = match (&policy.effect, &self.approval) {
                (PermissionEffect::Ask, Some(approval)) => {
                    self.span
                        .set("agenthub.permission.approval", approval.effect.as_str());
                    self.span
                        .set("agenthub.permission.asked_by", policy_decider(policy));
                    let hooks: Vec<&HookRecord> = self.permission_hooks.iter().collect();
                    approval_decider(approval, &hooks)
                }
                _ => policy_decider(policy),
            };
            self.span.set("agenthub.permission.source", source);
        } else if let (true, Some(hook)) = (self.stopped_by_hook, &self.stopping_hook) {
            // The call never reached permission: the hook's block is its deny.
            self.span.set("agenthub.permission.decision", "deny");
            self.span
                .set("agenthub.permission.source", format!("hook {}", hook.hook));
        }
        self.span.finish(now)
    }
}

/// The results of a call a PreToolUse hook kept from permission.
pub(crate) const STOPPED_BY_HOOK: [ErrorCode; 3] = [
    ErrorCode::HookBlocked,
    ErrorCode::HookContractError,
    ErrorCode::HookExecutionError,
];
