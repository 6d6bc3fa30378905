//! An ask answered with another input (an Agent SDK's `canUseTool` with
//! `updatedInput`, SPEC §30): the approval allowed a call the policy has not
//! seen. The new input is accepted only as a rewrite of the same call (its
//! schema checked again), then the policy decides on it again, without the
//! PreToolUse hooks' suggestion (they judged the old input): a deny — a
//! rule, the workspace boundary — refuses it; an allow runs it; an ask runs
//! it without asking again, unless only a person may answer that ask (a
//! protected path), since the approval was for another input.
//!
//! An input equal to the call's (as it is, or as it was shown with its
//! declared paths absolute) is no new input: the call runs as allowed once.
//!
//! It never lets the new input run unaudited, and never asks anyone.

use crate::pipeline::{refusal, NotAllowed};
use crate::run::Run;
use agenthub_policy::{Decision, Source};
use agenthub_protocol::PermissionEffect;
use agenthub_tools::PreparedCall;
use serde_json::Value;

impl Run<'_> {
    /// Whether `input` is `call`'s own: as it is, or as hooks and an SDK
    /// are shown it (declared paths absolute) — the SDK's `canUseTool`
    /// echoes the input it was shown when it changes nothing.
    pub(crate) fn is_own_input(&self, call: &PreparedCall, input: &Value) -> bool {
        input == call.input()
            || *input == agenthub_hooks::command::payload::tool_input(&self.hook_common(), call)
    }

    /// The call with `input`, which `by` gave when it allowed the ask
    /// `asked` about `call`, if it may run; every outcome is audited.
    pub(crate) fn authorize_approved_input(
        &self,
        call: &PreparedCall,
        asked: &Decision,
        by: &str,
        input: Value,
    ) -> Result<PreparedCall, NotAllowed> {
        let replaced = match call.accept_rewrite(call.with_input(input.clone())) {
            Ok(replaced) => replaced,
            Err(rejection) => {
                let reason = format!("the input {by} gave in place of the call's: {rejection}");
                let refused = call.with_input(input);
                return Err(self.refuse_ask(&refused, asked, reason, None));
            }
        };
        let decision = self.policy_decision(&replaced, None)?;
        match decision.effect {
            PermissionEffect::Deny => {
                let refused = Decision {
                    reason: format!(
                        "{} (the input {by} gave in place of the call's)",
                        decision.reason
                    ),
                    ..decision
                };
                self.audit(&replaced, &refused)?;
                Err(refusal(&replaced, refused.reason, None))
            }
            PermissionEffect::Ask if !decision.grantable() => {
                let reason = format!(
                    "{by} allowed the call with another input, and that input asks again where only a person may answer for it: {}",
                    decision.reason
                );
                Err(self.refuse_ask(&replaced, &decision, reason, None))
            }
            PermissionEffect::Allow | PermissionEffect::Ask => {
                let allowed = Decision {
                    rule: asked.rule.clone(),
                    ..Decision::new(
                        PermissionEffect::Allow,
                        Source::Approval,
                        format!(
                            "allowed once by {by}, with the input it gave in place of the call's"
                        ),
                    )
                };
                self.audit(&replaced, &allowed)?;
                Ok(replaced)
            }
        }
    }
}
