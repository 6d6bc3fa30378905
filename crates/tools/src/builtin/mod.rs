//! The built-in tools, with Claude Code's names and input shapes (SPEC §5), so
//! that hook scripts and permission rules written for Claude Code apply unchanged.

mod echo;

pub use echo::{Echo, EchoInput};

use crate::definition::SchemaError;
use crate::ToolRegistry;

/// Registers every built-in tool.
pub fn register_all(registry: &mut ToolRegistry) -> Result<(), SchemaError> {
    registry.register(Echo)?;
    Ok(())
}
