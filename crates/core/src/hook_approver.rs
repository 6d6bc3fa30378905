//! PermissionRequest hooks as an [`Approver`]: when the policy answers `ask`,
//! the hooks answer first; only when none answers is the inner approver (a
//! terminal prompt, or deny without one) asked — after Notification hooks
//! are told (`permission_prompt`) when that approver waits for a person.
//!
//! It sits at the approval seam, so it can only answer an `ask`: the policy's
//! deny rules and workspace boundary never reach it, and it never turns a
//! deny into an allow.

use crate::{AgentEvent, Observer};
use agenthub_hooks::{
    HookCommon, HookRegistry, NotificationContext, PermissionRequestContext,
    PermissionRequestVerdict,
};
use agenthub_policy::{Approval, Approver, Decision};
use agenthub_tools::PreparedCall;
use futures::future::BoxFuture;
use std::sync::Arc;

/// Runs the registry's PermissionRequest hooks before the inner approver.
pub struct HookApprover {
    inner: Arc<dyn Approver>,
    hooks: HookRegistry,
    observer: Arc<dyn Observer>,
    common: HookCommon,
}

impl HookApprover {
    /// `common` is what the hooks are told about the session; its cancel token
    /// is not the run's (the approval future is dropped when the run is
    /// cancelled, which kills a running command hook).
    pub fn new(
        inner: Arc<dyn Approver>,
        hooks: HookRegistry,
        observer: Arc<dyn Observer>,
        common: HookCommon,
    ) -> Self {
        HookApprover {
            inner,
            hooks,
            observer,
            common,
        }
    }

    fn tell(&self, event: AgentEvent<'_>) {
        // Hook records are not audits: a failing observer does not change the answer.
        let _ = self.observer.on_event(&event);
    }

    /// Asks the inner approver, telling Notification hooks first when a
    /// person has to answer.
    async fn ask_inner(&self, call: &PreparedCall, decision: &Decision) -> Approval {
        if self.inner.waits_for_a_person() && !self.hooks.notification.is_empty() {
            let context = NotificationContext {
                common: self.common.clone(),
                message: format!(
                    "AgentHub needs your permission to use {}",
                    call.definition().name()
                ),
                notification_type: "permission_prompt".to_owned(),
            };
            let run = self.hooks.run_notification(context).await;
            for record in &run.records {
                self.tell(AgentEvent::Hook(record));
            }
        }
        self.inner.approve(call, decision).await
    }
}

impl Approver for HookApprover {
    fn approve<'a>(
        &'a self,
        call: &'a PreparedCall,
        decision: &'a Decision,
    ) -> BoxFuture<'a, Approval> {
        Box::pin(async move {
            let context = PermissionRequestContext {
                common: self.common.clone(),
                call: call.clone(),
                reason: decision.reason.clone(),
            };
            let run = self.hooks.run_permission_request(context).await;
            for record in &run.records {
                self.tell(AgentEvent::Hook(record));
            }
            for message in &run.messages {
                self.tell(AgentEvent::Warning(message));
            }
            match run.verdict {
                PermissionRequestVerdict::Undecided => self.ask_inner(call, decision).await,
                PermissionRequestVerdict::Allow {
                    hook,
                    updated_input: None,
                } => Approval::AllowOnce {
                    by: format!("PermissionRequest hook {hook:?}"),
                },
                PermissionRequestVerdict::Allow {
                    hook,
                    updated_input: Some(input),
                } => Approval::AllowWithInput {
                    by: format!("PermissionRequest hook {hook:?}"),
                    input,
                },
                PermissionRequestVerdict::Deny { message }
                | PermissionRequestVerdict::Failed { message } => {
                    Approval::Deny { reason: message }
                }
            }
        })
    }
}
