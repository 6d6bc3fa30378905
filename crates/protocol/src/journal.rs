//! The "run this step durably" seam (contract §18 "Durability"): the loop hands
//! each model request, tool handler and hook run to a [`StepJournal`] as a
//! named step whose output is JSON. A journal that records steps (a Restate
//! worker) returns a recorded output on replay instead of running the step
//! again; without a journal the loop calls the step directly.
//!
//! This module only names the contract. It must never do IO or know which
//! engine keeps the journal.

use serde_json::Value;
use std::future::Future;
use std::pin::Pin;

/// A step's work, or a journal's answer: its JSON output, or why it could
/// not be recorded.
pub type StepFuture<'a> = Pin<Box<dyn Future<Output = Result<Value, StepError>> + Send + 'a>>;

/// Why a journal could not give a step's output.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("journal step {step:?} failed: {reason}")]
pub struct StepError {
    /// The step's name, as the loop gave it.
    pub step: String,
    /// What went wrong (the worker stopped, the engine refused the entry, …).
    pub reason: String,
}

/// What a step is: a journal may act around one kind (a worker checkpoints
/// a git workspace before each model request, that is after each tool round).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepKind {
    /// One model request; its output is the assistant reply.
    ModelRequest,
    /// The empty step recorded just before a tool handler starts.
    ToolBegan,
    /// One tool handler run; its output is the handler's result.
    ToolHandler,
    /// One hook handler run; its output is the raw run (exit code, output).
    HookRun,
}

/// Where steps are run and recorded. Steps of one run arrive one at a time,
/// in the same order on every attempt, so a journal can match a replayed
/// attempt's steps to the recorded ones by position.
pub trait StepJournal: Send + Sync {
    /// Runs `work` and records its output under `name`, or, when this step
    /// was recorded by an earlier attempt, returns the recorded output
    /// without polling `work`.
    fn step<'a>(&'a self, kind: StepKind, name: &'a str, work: StepFuture<'a>) -> StepFuture<'a>;
}
