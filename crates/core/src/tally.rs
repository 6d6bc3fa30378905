//! What a run counts as it goes, for its report (contract §12, "Usage"): the
//! tokens the provider reported, the calls permission refused, the time (the
//! run's, and the part of it spent waiting for model requests).
//!
//! It only counts: it never decides, prints or words a suggestion (the
//! front end says how to allow a call, from the typed [`HowToAllow`]).

use agenthub_policy::HowToAllow;
use agenthub_protocol::Usage;
use serde_json::Value;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// A tool call that permission refused: a deny (rule, boundary, mode,
/// protected path, hook suggestion) or an ask nobody allowed. Claude Code's
/// `permission_denials`, plus how it could have been allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PermissionDenial {
    /// The tool the call asked for.
    pub tool_name: String,
    /// The call's id, as its tool result answers it.
    pub tool_use_id: String,
    /// The call's arguments as the policy saw them (after any hook rewrite).
    pub tool_input: Value,
    /// Why it was refused: the deciding participant's reason, or the
    /// approver's (`approval required` when nobody could answer).
    pub reason: String,
    /// For an ask nobody could answer: what would have allowed it. `None`
    /// for every other refusal.
    pub how_to_allow: Option<HowToAllow>,
}

/// The running totals of one run.
#[derive(Debug)]
pub(crate) struct Tally {
    started: Instant,
    /// Time spent in this run's own model requests.
    pub(crate) api: ApiClock,
    pub(crate) usage: Usage,
    pub(crate) denials: Vec<PermissionDenial>,
    /// What the subagents this run started counted: added by their Task
    /// calls, which run inside the pipeline and cannot reach this tally.
    pub(crate) subagents: Arc<Mutex<SubagentTotals>>,
}

/// The usage and permission denials of a run's subagents.
#[derive(Debug, Default)]
pub(crate) struct SubagentTotals {
    pub(crate) usage: Usage,
    /// Milliseconds the subagents' model requests took.
    pub(crate) api_ms: u64,
    pub(crate) denials: Vec<PermissionDenial>,
}

impl Tally {
    /// Starts counting now.
    pub(crate) fn start() -> Self {
        Tally {
            started: Instant::now(),
            api: ApiClock::default(),
            usage: Usage::default(),
            denials: Vec::new(),
            subagents: Arc::default(),
        }
    }

    /// The run's own usage plus its subagents'.
    pub(crate) fn total_usage(&self) -> Usage {
        let children = self
            .subagents
            .lock()
            .map(|totals| totals.usage)
            .unwrap_or_default();
        self.usage + children
    }

    /// The calls permission refused: the run's own, then its subagents'.
    pub(crate) fn all_denials(&mut self) -> Vec<PermissionDenial> {
        let mut denials = std::mem::take(&mut self.denials);
        if let Ok(mut totals) = self.subagents.lock() {
            denials.append(&mut totals.denials);
        }
        denials
    }

    /// Milliseconds since the run started.
    pub(crate) fn elapsed_ms(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Milliseconds spent in model requests: the run's own and its
    /// subagents' (Claude Code's `duration_api_ms`).
    pub(crate) fn api_ms(&self) -> u64 {
        let children = self
            .subagents
            .lock()
            .map(|totals| totals.api_ms)
            .unwrap_or_default();
        self.api.millis().saturating_add(children)
    }
}

/// The time a run spent waiting for model requests, summed over requests
/// (turns, compaction summaries), finished or not. Shared by reference, so
/// a request timed through `&self` still counts.
#[derive(Debug, Default)]
pub(crate) struct ApiClock {
    micros: AtomicU64,
}

impl ApiClock {
    /// Runs `request`, adding the time it took.
    pub(crate) async fn time<F: Future>(&self, request: F) -> F::Output {
        let started = Instant::now();
        let output = request.await;
        let micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
        self.micros.fetch_add(micros, Ordering::Relaxed);
        output
    }

    /// The time so far, in whole milliseconds.
    pub(crate) fn millis(&self) -> u64 {
        self.micros.load(Ordering::Relaxed) / 1000
    }
}
