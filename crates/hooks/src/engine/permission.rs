//! The PermissionRequest verdict: hooks that answer a policy's `ask` before
//! anyone is prompted. A deny from any hook wins and stops the rest; an allow
//! holds unless a later hook denies; no answer leaves the ask to the approver.
//!
//! This never grants more than an `ask` allows: the policy's deny and boundary
//! verdicts never reach these hooks.

use super::fold::{run_chain, EventFold, Flow};
use super::{default_if_blank, Observed, Trail};
use crate::context::PermissionRequestContext;
use crate::result::{PermissionBehavior, PermissionRequestResult};
use crate::{HookError, HookEvent, HookRegistry, HookRun};
use agenthub_protocol::HookDecision;
use agenthub_tools::PreparedCall;

/// How the PermissionRequest hooks answered an `ask`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PermissionRequestVerdict {
    /// No hook answered: the approver decides.
    Undecided,
    /// A hook allowed and none denied after it: the call runs, no one is prompted.
    Allow {
        /// The hook that allowed.
        hook: String,
    },
    /// A hook denied: the call does not run (`Error [permission_denied]`).
    Deny {
        /// Why, as the hook told the model.
        message: String,
    },
    /// A hook failed under a `Block` policy: the ask is denied with this text.
    Failed {
        /// Which hook and why it failed.
        message: String,
    },
}

impl HookRegistry {
    /// Runs the PermissionRequest hooks that match the call.
    pub async fn run_permission_request(
        &self,
        context: PermissionRequestContext,
    ) -> HookRun<PermissionRequestVerdict> {
        let fold = PermissionRequestFold {
            context,
            verdict: PermissionRequestVerdict::Undecided,
        };
        run_chain(&self.permission_request, fold).await
    }
}

struct PermissionRequestFold {
    context: PermissionRequestContext,
    verdict: PermissionRequestVerdict,
}

impl EventFold for PermissionRequestFold {
    type Context = PermissionRequestContext;
    type Result = PermissionRequestResult;
    type Verdict = PermissionRequestVerdict;
    const EVENT: HookEvent = HookEvent::PermissionRequest;

    fn context(&self) -> PermissionRequestContext {
        self.context.clone()
    }

    fn call(&self) -> Option<&PreparedCall> {
        Some(&self.context.call)
    }

    fn step(
        &mut self,
        trail: &mut Trail,
        observed: Observed,
        result: PermissionRequestResult,
    ) -> Flow<PermissionRequestVerdict> {
        trail.message(&observed, result.system_message);
        let hook = observed.hook.clone();
        match result.behavior {
            Some(PermissionBehavior::Deny) => {
                trail.applied(observed, Some(HookDecision::Deny));
                let default = "denied by a PermissionRequest hook";
                let message = result.message.unwrap_or_default();
                return Flow::Done(PermissionRequestVerdict::Deny {
                    message: default_if_blank(message, default, &hook),
                });
            }
            Some(PermissionBehavior::Allow) => {
                trail.applied(observed, Some(HookDecision::Allow));
                if self.verdict == PermissionRequestVerdict::Undecided {
                    self.verdict = PermissionRequestVerdict::Allow { hook };
                }
            }
            None => trail.applied(observed, None),
        }
        Flow::Next
    }

    fn failed_closed(&mut self, message: String, _error: &HookError) -> PermissionRequestVerdict {
        PermissionRequestVerdict::Failed { message }
    }

    fn finish(self) -> PermissionRequestVerdict {
        self.verdict
    }
}
