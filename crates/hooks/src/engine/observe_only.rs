//! The fold of events whose hooks only observe (Notification, SessionEnd,
//! StopFailure, PermissionDenied, PostCompact, InstructionsLoaded): each hook
//! may tell the user something; a failing one is recorded and nothing waits
//! on it, whatever its failure policy.

use super::fold::{run_chain, EventFold, Flow};
use super::{Observed, Trail};
use crate::events::Listed;
use crate::{FailurePolicy, HookError, HookRegistry, HookRun};

/// What an observing hook can do: tell the user something.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ObservedResult {
    /// A warning shown to the user, never to the model.
    pub system_message: Option<String>,
}

/// An event whose hooks only observe: its verdict is `()`.
pub(crate) trait Observing: Listed<Verdict = ()> {
    /// The result's message for the user, if any.
    fn message(result: Self::Result) -> Option<String>;
}

impl HookRegistry {
    /// Runs the observers of event `E` on `context`; their failures are only recorded.
    pub(crate) async fn run_observers<E: Observing>(&self, context: E::Context) -> HookRun<()> {
        run_chain(E::entries(self), ObserveOnly::<E>(context)).await
    }
}

/// The fold of an observing event: every hook runs, each one's message is kept.
pub(crate) struct ObserveOnly<E: Observing>(E::Context);

impl<E: Observing> EventFold for ObserveOnly<E> {
    type Event = E;

    fn context(&self) -> E::Context {
        self.0.clone()
    }

    fn step(&mut self, trail: &mut Trail, observed: Observed, result: E::Result) -> Flow<()> {
        trail.message(&observed, E::message(result));
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
