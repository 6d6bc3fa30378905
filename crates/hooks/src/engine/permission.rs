//! The PermissionRequest verdict: hooks that answer a policy's `ask` before
//! anyone is prompted. A deny from any hook wins and stops the rest; an allow
//! holds unless a later hook denies; no answer leaves the ask to the approver.
//!
//! This never grants more than an `ask` allows: the policy's deny and boundary
//! verdicts never reach these hooks.

use super::{default_if_blank, Observed, Ran, Trail};
use crate::context::PermissionRequestContext;
use crate::result::PermissionBehavior;
use crate::{FailurePolicy, HookEvent, HookRegistry, HookRun};
use agenthub_protocol::HookOutcomeKind;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PermissionRequestVerdict {
    /// No hook answered: the approver decides.
    Undecided,
    Allow {
        /// The hook that allowed.
        hook: String,
    },
    Deny {
        message: String,
    },
    /// A hook failed under a `Block` policy: the ask is denied with this text.
    Failed {
        message: String,
    },
}

impl HookRegistry {
    /// Runs the PermissionRequest hooks that match the call.
    pub async fn run_permission_request(
        &self,
        context: PermissionRequestContext,
    ) -> HookRun<PermissionRequestVerdict> {
        let mut trail = Trail::default();
        let mut verdict = PermissionRequestVerdict::Undecided;
        let mut ran = Ran::default();
        for entry in self
            .permission_request
            .iter()
            .filter(|entry| entry.matches(&context) && ran.first(entry))
        {
            let observed =
                Observed::start(HookEvent::PermissionRequest, entry, Some(&context.call));
            let result = match entry.call(context.clone()).await {
                Ok(result) => result,
                Err(error) => {
                    let message = trail.failure(observed, &error);
                    if entry.on_failure == FailurePolicy::Block {
                        return trail.finish(PermissionRequestVerdict::Failed { message });
                    }
                    continue;
                }
            };
            trail.message(&observed, result.system_message);
            match result.behavior {
                Some(PermissionBehavior::Deny) => {
                    trail
                        .records
                        .push(observed.finish(HookOutcomeKind::Ok, Some("deny"), None));
                    let default = "denied by a PermissionRequest hook";
                    let message = result.message.unwrap_or_default();
                    return trail.finish(PermissionRequestVerdict::Deny {
                        message: default_if_blank(message, default, &entry.name),
                    });
                }
                Some(PermissionBehavior::Allow) => {
                    trail
                        .records
                        .push(observed.finish(HookOutcomeKind::Ok, Some("allow"), None));
                    if verdict == PermissionRequestVerdict::Undecided {
                        verdict = PermissionRequestVerdict::Allow {
                            hook: entry.name.clone(),
                        };
                    }
                }
                None => trail
                    .records
                    .push(observed.finish(HookOutcomeKind::Ok, None, None)),
            }
        }
        trail.finish(verdict)
    }
}
