//! The rules that turn several hooks' results into one verdict per event
//! (contract §3): pipelines for rewrites, short circuits on block and force_continue,
//! strictest-wins permission suggestions, context kept in order, and failures
//! mapped through each hook's failure policy.
//!
//! Every hook run yields a [`HookRecord`]; the verdicts carry them for the
//! observers, together with the messages hooks asked to show the user. Nothing
//! here touches history or runs a tool.

pub(crate) mod exit_code;
mod fold;
mod observe_only;

pub(crate) use fold::{run_chain, EventFold, Flow};
pub use observe_only::ObservedResult;
pub(crate) use observe_only::Observing;

use crate::{FailurePolicy, HookEntry, HookError, HookEvent, HookOrigin};
use agenthub_protocol::{HookDecision, HookOutcomeKind, HookRecord};
use agenthub_tools::PreparedCall;
use std::time::Instant;

/// A verdict plus the record of every hook that ran for it.
#[derive(Debug, Clone)]
pub struct HookRun<V> {
    /// What the event's hooks decided together; the loop acts on it.
    pub verdict: V,
    /// One record per hook that ran (or failed), in order, for observers
    /// and the transcript.
    pub records: Vec<HookRecord>,
    /// What hooks asked to show the user (`systemMessage`), never the model, in order.
    pub messages: Vec<String>,
}

/// Records and user messages gathered while an event's hooks run.
#[derive(Default)]
pub(crate) struct Trail {
    pub(crate) records: Vec<HookRecord>,
    pub(crate) messages: Vec<String>,
}

impl Trail {
    pub(crate) fn message(&mut self, observed: &Observed, text: Option<String>) {
        if let Some(text) = text.filter(|text| !text.trim().is_empty()) {
            self.messages.push(format!(
                "{} hook {:?}: {text}",
                observed.event, observed.hook
            ));
        }
    }

    /// Records a hook that could not complete; returns the text naming it and why.
    pub(crate) fn failure(&mut self, observed: Observed, error: &HookError) -> String {
        let message = observed.failure_text(error);
        self.records.push(observed.failed(error));
        message
    }

    /// Records a hook that failed; under a `Block` policy returns the text
    /// naming it and why (the event's action does not happen), else `None`.
    pub(crate) fn fails_closed(
        &mut self,
        observed: Observed,
        policy: FailurePolicy,
        error: &HookError,
    ) -> Option<String> {
        if policy == FailurePolicy::Block {
            return Some(self.failure(observed, error));
        }
        self.records.push(observed.failed_continuing(error));
        None
    }

    /// Records a hook that applied its result, with what it decided if anything.
    pub(crate) fn applied(&mut self, observed: Observed, decision: Option<HookDecision>) {
        self.records
            .push(observed.finish(HookOutcomeKind::Ok, decision, None));
    }

    /// Records a hook that decided (`block`, `stop`, …) and returns its reason;
    /// a blank reason becomes `default`, naming the hook: it never undoes the decision.
    pub(crate) fn decided(
        &mut self,
        observed: Observed,
        outcome: HookOutcomeKind,
        decision: HookDecision,
        reason: String,
        default: &str,
    ) -> String {
        let reason = default_if_blank(reason, default, &observed.hook);
        self.records
            .push(observed.finish(outcome, Some(decision), None));
        reason
    }

    /// Records a hook that ended the run (`continue: false`) and returns its
    /// stop reason; a blank one becomes "a <Event> hook ended the run".
    pub(crate) fn stopped(&mut self, observed: Observed, reason: String) -> String {
        let default = format!("a {} hook ended the run", observed.event);
        self.decided(
            observed,
            HookOutcomeKind::Ok,
            HookDecision::Stop,
            reason,
            &default,
        )
    }

    fn finish<V>(self, verdict: V) -> HookRun<V> {
        HookRun {
            verdict,
            records: self.records,
            messages: self.messages,
        }
    }
}

/// The identities of the hooks that already ran for one firing of an event:
/// identical command hooks from several settings files run once.
#[derive(Default)]
struct Ran(std::collections::HashSet<String>);

impl Ran {
    /// True the first time an entry with this identity (or any entry without one) comes by.
    fn first<C, R>(&mut self, entry: &HookEntry<C, R>) -> bool {
        entry
            .identity
            .as_ref()
            .is_none_or(|identity| self.0.insert(identity.clone()))
    }
}

/// What one hook run looked like, before it becomes a record.
pub(crate) struct Observed {
    pub(crate) event: HookEvent,
    pub(crate) hook: String,
    pub(crate) origin: HookOrigin,
    pub(crate) tool_use_id: Option<String>,
    pub(crate) tool_name: Option<String>,
    pub(crate) started: Instant,
    /// The exit code of the hook's command, once it ran.
    pub(crate) exit_code: Option<i32>,
}

impl Observed {
    /// Starts watching `entry` run for `event` (or the event it is recorded as).
    fn start<C, R>(event: HookEvent, entry: &HookEntry<C, R>, call: Option<&PreparedCall>) -> Self {
        Observed {
            event: entry.recorded_as.unwrap_or(event),
            hook: entry.name.clone(),
            origin: entry.origin.clone(),
            tool_use_id: call.map(|call| call.id().to_owned()),
            tool_name: call.map(|call| call.name().to_owned()),
            started: Instant::now(),
            exit_code: None,
        }
    }

    pub(crate) fn finish(
        self,
        outcome: HookOutcomeKind,
        decision: Option<HookDecision>,
        error: Option<&HookError>,
    ) -> HookRecord {
        let (source, index) = match self.origin {
            HookOrigin::InProcess => (None, None),
            HookOrigin::Settings { file, index } => (Some(file), Some(index)),
        };
        HookRecord {
            agent_id: None,
            event: self.event.into(),
            hook: self.hook,
            tool_use_id: self.tool_use_id,
            tool_name: self.tool_name,
            tool_result: None,
            outcome,
            decision,
            elapsed_ms: self.started.elapsed().as_secs_f64() * 1000.0,
            handler_ran: None,
            error: error.map(ToString::to_string),
            source,
            index,
            exit_code: self.exit_code,
        }
    }

    pub(crate) fn failed(self, error: &HookError) -> HookRecord {
        let outcome = match error {
            HookError::Execution(_) => HookOutcomeKind::ExecutionError,
            HookError::Contract(_) => HookOutcomeKind::ContractError,
        };
        self.finish(outcome, None, Some(error))
    }

    /// For a settings hook whose failure was let through: where it is
    /// defined and the setting that would make it block.
    pub(crate) fn continue_note(&self) -> Option<String> {
        match &self.origin {
            HookOrigin::InProcess => None,
            HookOrigin::Settings { file, .. } => Some(format!(
                "(the check could not run, the action goes on; hook from {file}; \"onFailure\": \"block\" makes it block)"
            )),
        }
    }

    /// The record of a failure the action went on after: a settings hook's
    /// error also names its file and the setting that makes it block.
    pub(crate) fn failed_continuing(self, error: &HookError) -> HookRecord {
        let note = self.continue_note();
        let mut record = self.failed(error);
        if let Some(note) = note {
            record.error = record.error.map(|error| format!("{error} {note}"));
        }
        record
    }

    pub(crate) fn failure_text(&self, error: &HookError) -> String {
        failure_text(self.event, &self.hook, error)
    }
}

fn failure_text(event: HookEvent, hook: &str, error: &HookError) -> String {
    match error {
        HookError::Execution(message) => format!("{event} hook {hook:?} failed: {message}"),
        HookError::Contract(message) => {
            format!("{event} hook {hook:?} broke its contract: {message}")
        }
    }
}

pub(crate) fn push_context(context: &mut Vec<String>, text: Option<String>) {
    if let Some(text) = text.filter(|text| !text.trim().is_empty()) {
        context.push(text);
    }
}

pub(crate) fn default_if_blank(reason: String, default: &str, hook: &str) -> String {
    if reason.trim().is_empty() {
        format!("{default} ({hook})")
    } else {
        reason
    }
}
