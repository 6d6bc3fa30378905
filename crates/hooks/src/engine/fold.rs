//! The one hook chain: every event runs its hooks through [`run_chain`] — in
//! registration order, identical command hooks once, each run observed and
//! recorded — and only the rules of the event differ, in its [`EventFold`].
//!
//! The chain never decides what a result means; an event's fold never loops.

use super::{Observed, Ran, Trail};
use crate::{FailurePolicy, HookEntry, HookError, HookEvent, HookRun};
use agenthub_tools::PreparedCall;

/// Whether the chain goes on to the next hook or ends with a verdict now.
pub(super) enum Flow<V> {
    Next,
    Done(V),
}

/// One event's rules for folding its hooks' results into its verdict.
pub(super) trait EventFold {
    /// What each hook is given.
    type Context;
    /// What each hook returns.
    type Result;
    /// What the chain ends with.
    type Verdict;

    /// The event the hooks' records are named after (unless an entry says otherwise).
    const EVENT: HookEvent;

    /// The context the next hook sees: in a pipeline, as rewritten by the hooks before it.
    fn context(&self) -> Self::Context;

    /// The call the hooks are about, for their records.
    fn call(&self) -> Option<&PreparedCall> {
        None
    }

    /// Checks a hook's result before it is applied; an `Err` is that hook's
    /// contract error (a rewrite that changes the call's identity, …).
    fn accept(&self, result: Self::Result) -> Result<Self::Result, HookError> {
        Ok(result)
    }

    /// Applies one accepted result; `Done` short-circuits the rest.
    fn step(
        &mut self,
        trail: &mut Trail,
        observed: Observed,
        result: Self::Result,
    ) -> Flow<Self::Verdict>;

    /// The verdict when a hook failed under a `Block` policy: `message`
    /// names the hook and why, and the event's action does not happen.
    fn failed_closed(&mut self, message: String, error: &HookError) -> Self::Verdict;

    /// Applies one hook's failure under its failure policy: always recorded;
    /// under `Block` the chain ends with [`EventFold::failed_closed`].
    fn fail(
        &mut self,
        trail: &mut Trail,
        observed: Observed,
        policy: FailurePolicy,
        error: HookError,
    ) -> Flow<Self::Verdict> {
        match trail.fails_closed(observed, policy, &error) {
            Some(message) => Flow::Done(self.failed_closed(message, &error)),
            None => Flow::Next,
        }
    }

    /// The verdict when every hook ran without a short circuit.
    fn finish(self) -> Self::Verdict;
}

/// Runs `entries` for one firing of an event, folding their results with `fold`.
pub(super) async fn run_chain<F: EventFold>(
    entries: &[HookEntry<F::Context, F::Result>],
    mut fold: F,
) -> HookRun<F::Verdict>
where
    F::Context: Send + 'static,
    F::Result: Send + 'static,
{
    let mut trail = Trail::default();
    let mut ran = Ran::default();
    for entry in entries {
        let context = fold.context();
        if !entry.matches(&context) || !ran.first(entry) {
            continue;
        }
        let mut observed = Observed::start(F::EVENT, entry, fold.call());
        let (answer, exit_code) = crate::command::exit_code::capture(entry.call(context)).await;
        observed.exit_code = exit_code;
        let flow = match answer.and_then(|result| fold.accept(result)) {
            Ok(result) => fold.step(&mut trail, observed, result),
            Err(error) => fold.fail(&mut trail, observed, entry.on_failure, error),
        };
        if let Flow::Done(verdict) = flow {
            return trail.finish(verdict);
        }
    }
    let verdict = fold.finish();
    trail.finish(verdict)
}
