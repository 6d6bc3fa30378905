//! The built-in tools, with Claude Code's names and input shapes (SPEC §5), so
//! that hook scripts and permission rules written for Claude Code apply unchanged.
//!
//! Every path argument is checked with [`crate::Workspace::check_inside`] and
//! every file is opened through the `Workspace` (no-follow, from the root
//! down), never with a plain `std::fs`/`tokio::fs` open of the argument: so a
//! tool called directly, bypassing the permission policy, still cannot leave
//! the workspace, even through a path swapped for a symlink after the check.
//! Searches (Glob, Grep) also skip files the read guard refuses. The tools
//! never decide whether they may run (permission does that before a handler is
//! called) and never cut their own output (core applies the output cap).

mod access;
mod bash;
mod echo;
mod edit;
#[cfg(test)]
mod escape_tests;
mod glob;
mod grep;
mod process_group;
mod read;
mod text_file;
mod walk;
mod write;

pub use bash::{Bash, BashInput, DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS};
pub use echo::{Echo, EchoInput};
pub use edit::{Edit, EditInput};
pub use glob::{Glob, GlobInput, MAX_GLOB_RESULTS};
pub use grep::{Grep, GrepInput, GrepOutputMode};
pub use read::{Read, ReadInput, DEFAULT_READ_LIMIT};
pub use write::{Write, WriteInput};

use crate::definition::SchemaError;
use crate::ToolRegistry;

/// Registers every built-in tool, in the order the model is told about them.
pub fn register_all(registry: &mut ToolRegistry) -> Result<(), SchemaError> {
    registry.register(Read)?;
    registry.register(Write)?;
    registry.register(Edit)?;
    registry.register(Bash)?;
    registry.register(Glob)?;
    registry.register(Grep)?;
    registry.register(Echo)?;
    Ok(())
}
