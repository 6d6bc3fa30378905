//! The one hook chain: every event runs its hooks through [`run_chain`] — in
//! registration order, identical command hooks once, each run observed and
//! recorded — and only the rules of the event differ, in its [`EventFold`].
//!
//! The chain never decides what a result means; an event's fold never loops.

use super::{Observed, Ran, Trail};
use crate::events::EventSpec;
use crate::{FailurePolicy, HookEntry, HookError, HookRun};
use agenthub_tools::PreparedCall;

/// The context, result and verdict of the event a fold is for.
type Context<F> = <<F as EventFold>::Event as EventSpec>::Context;
type Outcome<F> = <<F as EventFold>::Event as EventSpec>::Result;
type Verdict<F> = <<F as EventFold>::Event as EventSpec>::Verdict;

/// Whether the chain goes on to the next hook or ends with a verdict now.
pub(crate) enum Flow<V> {
    Next,
    Done(V),
}

/// One event's rules for folding its hooks' results into its verdict.
pub(crate) trait EventFold {
    /// The event: what each hook is given and returns, what the chain ends
    /// with, and the name the hooks' records carry (unless an entry says otherwise).
    type Event: EventSpec;

    /// The context the next hook sees: in a pipeline, as rewritten by the hooks before it.
    fn context(&self) -> Context<Self>;

    /// The call the hooks are about, for their records.
    fn call(&self) -> Option<&PreparedCall> {
        None
    }

    /// Checks a hook's result before it is applied; an `Err` is that hook's
    /// contract error (a rewrite that changes the call's identity, …).
    fn accept(&self, result: Outcome<Self>) -> Result<Outcome<Self>, HookError> {
        Ok(result)
    }

    /// Applies one accepted result; `Done` short-circuits the rest.
    fn step(
        &mut self,
        trail: &mut Trail,
        observed: Observed,
        result: Outcome<Self>,
    ) -> Flow<Verdict<Self>>;

    /// The verdict when a hook failed under a `Block` policy: `message`
    /// names the hook and why, and the event's action does not happen.
    fn failed_closed(&mut self, message: String, error: &HookError) -> Verdict<Self>;

    /// Applies one hook's failure under its failure policy: always recorded;
    /// under `Block` the chain ends with [`EventFold::failed_closed`].
    fn fail(
        &mut self,
        trail: &mut Trail,
        observed: Observed,
        policy: FailurePolicy,
        error: HookError,
    ) -> Flow<Verdict<Self>> {
        match trail.fails_closed(observed, policy, &error) {
            Some(message) => Flow::Done(self.failed_closed(message, &error)),
            None => Flow::Next,
        }
    }

    /// The verdict when every hook ran without a short circuit.
    fn finish(self) -> Verdict<Self>;
}

/// Runs `entries` for one firing of an event, folding their results with `fold`.
pub(crate) async fn run_chain<F: EventFold>(
    entries: &[HookEntry<Context<F>, Outcome<F>>],
    mut fold: F,
) -> HookRun<Verdict<F>> {
    let mut trail = Trail::default();
    let mut ran = Ran::default();
    for entry in entries {
        let context = fold.context();
        if !entry.matches(&context) || !ran.first(entry) {
            continue;
        }
        let mut observed = Observed::start(F::Event::EVENT, entry, fold.call());
        let (answer, exit_code) = super::exit_code::capture(entry.call(context)).await;
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
