//! End to end: command hooks written as real shell scripts in temporary
//! workspaces, configured in settings files and run through `agenthub run
//! --script ... --settings ...` (docs/hooks.md). Only what is the CLI's: that
//! the binary wires settings hooks at all, the settings files and flags it
//! reads, what it prints (`hooks list`, `hooks test`, `[Warning]` lines) and
//! its exit codes. The hook protocol itself is tested in the crate that owns
//! it (crates/hooks/tests/it), the loop's reactions in crates/core/tests/it.

mod support;

mod added_events;
mod claude_settings;
mod conditions;
mod env_file;
mod handlers;
mod new_user;
mod nothing_cut;
mod other_agents;
mod pre_compact;
mod settings_files;
mod wiring;
