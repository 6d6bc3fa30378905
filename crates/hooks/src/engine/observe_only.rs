//! Events whose hooks only observe: Notification (the session waits for the
//! person: an approval, an idle prompt), SessionEnd, and contract §21's
//! StopFailure, PermissionDenied, PostCompact and InstructionsLoaded. Each hook may tell
//! the user something; a failing one is recorded and nothing waits on it.

use super::fold::{run_chain, EventFold, Flow};
use super::{Observed, Trail};
use crate::context::{NotificationContext, SessionEndContext};
use crate::observed::{
    InstructionsLoadedContext, ObservedResult, PermissionDeniedContext, PostCompactContext,
    StopFailureContext,
};
use crate::result::{NotificationResult, SessionEndResult};
use crate::{FailurePolicy, HookError, HookEvent, HookRegistry, HookRun};

impl HookRegistry {
    /// Runs the Notification observers; their failures are only recorded.
    pub async fn run_notification(&self, context: NotificationContext) -> HookRun<()> {
        run_chain(&self.notification, ObserveOnly(context)).await
    }

    /// Runs the SessionEnd observers; their failures are only recorded.
    pub async fn run_session_end(&self, context: SessionEndContext) -> HookRun<()> {
        run_chain(&self.session_end, ObserveOnly(context)).await
    }

    /// Runs the StopFailure observers; their failures are only recorded.
    pub async fn run_stop_failure(&self, context: StopFailureContext) -> HookRun<()> {
        run_chain(&self.stop_failure, ObserveOnly(context)).await
    }

    /// Runs the PermissionDenied observers; their failures are only recorded.
    pub async fn run_permission_denied(&self, context: PermissionDeniedContext) -> HookRun<()> {
        run_chain(&self.permission_denied, ObserveOnly(context)).await
    }

    /// Runs the PostCompact observers; their failures are only recorded.
    pub async fn run_post_compact(&self, context: PostCompactContext) -> HookRun<()> {
        run_chain(&self.post_compact, ObserveOnly(context)).await
    }

    /// Runs the InstructionsLoaded observers; their failures are only recorded.
    pub async fn run_instructions_loaded(&self, context: InstructionsLoadedContext) -> HookRun<()> {
        run_chain(&self.instructions_loaded, ObserveOnly(context)).await
    }
}

macro_rules! observed_event {
    ($context:ty, $event:expr) => {
        impl ObserveOnlyEvent for $context {
            type Result = ObservedResult;
            const EVENT: HookEvent = $event;
            fn message(result: ObservedResult) -> Option<String> {
                result.system_message
            }
        }
    };
}

observed_event!(StopFailureContext, HookEvent::StopFailure);
observed_event!(PermissionDeniedContext, HookEvent::PermissionDenied);
observed_event!(PostCompactContext, HookEvent::PostCompact);
observed_event!(InstructionsLoadedContext, HookEvent::InstructionsLoaded);

/// The context of an event whose hooks only observe, and what its result may say.
trait ObserveOnlyEvent: Clone {
    type Result;
    const EVENT: HookEvent;
    /// The result's message for the user, if any.
    fn message(result: Self::Result) -> Option<String>;
}

impl ObserveOnlyEvent for NotificationContext {
    type Result = NotificationResult;
    const EVENT: HookEvent = HookEvent::Notification;
    fn message(result: NotificationResult) -> Option<String> {
        result.system_message
    }
}

impl ObserveOnlyEvent for SessionEndContext {
    type Result = SessionEndResult;
    const EVENT: HookEvent = HookEvent::SessionEnd;
    fn message(result: SessionEndResult) -> Option<String> {
        result.system_message
    }
}

struct ObserveOnly<C>(C);

impl<C: ObserveOnlyEvent> EventFold for ObserveOnly<C> {
    type Context = C;
    type Result = C::Result;
    type Verdict = ();
    const EVENT: HookEvent = C::EVENT;

    fn context(&self) -> C {
        self.0.clone()
    }

    fn step(&mut self, trail: &mut Trail, observed: Observed, result: C::Result) -> Flow<()> {
        trail.message(&observed, C::message(result));
        trail.applied(observed, None);
        Flow::Next
    }

    /// Unreached: these hooks only observe, so a failure never closes.
    fn failed_closed(&mut self, _message: String, _error: &HookError) {}

    /// The event goes on whatever the policy: a failure is recorded.
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
