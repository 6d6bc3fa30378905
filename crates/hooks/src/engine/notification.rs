//! The Notification event: the session waits for the person (an approval,
//! an idle prompt). Hooks only observe — a desktop notification, a sound —
//! so a failing one is recorded and nothing waits on it.

use super::fold::{run_chain, EventFold, Flow};
use super::{Observed, Trail};
use crate::context::NotificationContext;
use crate::result::NotificationResult;
use crate::{FailurePolicy, HookError, HookEvent, HookRegistry, HookRun};

impl HookRegistry {
    /// Runs the Notification observers; their failures are only recorded.
    pub async fn run_notification(&self, context: NotificationContext) -> HookRun<()> {
        run_chain(&self.notification, NotificationFold(context)).await
    }
}

struct NotificationFold(NotificationContext);

impl EventFold for NotificationFold {
    type Context = NotificationContext;
    type Result = NotificationResult;
    type Verdict = ();
    const EVENT: HookEvent = HookEvent::Notification;

    fn context(&self) -> NotificationContext {
        self.0.clone()
    }

    fn step(
        &mut self,
        trail: &mut Trail,
        observed: Observed,
        result: NotificationResult,
    ) -> Flow<()> {
        trail.message(&observed, result.system_message);
        trail.applied(observed, None);
        Flow::Next
    }

    /// Unreached: Notification hooks only observe, so a failure never closes.
    fn failed_closed(&mut self, _message: String, _error: &HookError) {}

    fn fail(
        &mut self,
        trail: &mut Trail,
        observed: Observed,
        _policy: FailurePolicy,
        error: HookError,
    ) -> Flow<()> {
        trail.records.push(observed.failed_continuing(&error));
        Flow::Next
    }

    fn finish(self) {}
}
