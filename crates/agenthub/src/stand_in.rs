//! A stand-in for a tool AgentHub does not have (an MCP tool that is not
//! connected, a tool named in a hook test payload), so that rules and hooks for
//! it can be explained and tested. It never runs.

use agenthub_tools::{Tool, ToolContext, ToolEffect, ToolError, ToolOutput, ToolRegistry};
use serde_json::Value;

/// A tool with any name that accepts any JSON object and refuses to run.
pub struct StandInTool {
    name: String,
}

impl StandInTool {
    /// A stand-in named `name`.
    pub fn new(name: impl Into<String>) -> StandInTool {
        StandInTool { name: name.into() }
    }

    /// A registry holding only a stand-in named `name`.
    pub fn registry(name: &str) -> Option<ToolRegistry> {
        let mut registry = ToolRegistry::new();
        registry.register(StandInTool::new(name)).ok()?;
        Some(registry)
    }
}

impl Tool for StandInTool {
    type Input = Value;

    fn name(&self) -> &str {
        &self.name
    }

    fn description(&self) -> &str {
        "A stand-in for a tool AgentHub does not have; it never runs."
    }

    fn effect(&self) -> ToolEffect {
        ToolEffect::SideEffects
    }

    async fn call(&self, _input: Value, _context: ToolContext) -> Result<ToolOutput, ToolError> {
        Err(ToolError::new("a stand-in tool never runs"))
    }
}
