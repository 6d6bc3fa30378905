//! End to end: command hooks written as real shell scripts in temporary
//! workspaces, configured in settings files and run through `agenthub run
//! --script ... --settings ...` (docs/hooks.md; the conformance checks of
//! research/hooks-landscape.md §1.10). One behaviour per test; transcripts are
//! compared as whole values.

mod command_hooks;
#[path = "support/history.rs"]
mod history;
