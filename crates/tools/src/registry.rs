//! The registry: tools by exact name, and `prepare`, which turns a model's raw
//! tool call into a [`PreparedCall`] or a rejection the model can learn from.

use crate::definition::SchemaError;
use crate::{PreparedCall, Rejection, Tool, ToolDefinition};
use agenthub_protocol::{ToolCall, ToolSpec};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;

#[derive(Debug, Default)]
pub struct ToolRegistry {
    by_name: HashMap<String, Arc<ToolDefinition>>,
    order: Vec<Arc<ToolDefinition>>,
}

impl ToolRegistry {
    pub fn new() -> Self {
        ToolRegistry::default()
    }

    /// The built-in tools (SPEC §5).
    pub fn with_builtins() -> Result<Self, SchemaError> {
        let mut registry = ToolRegistry::new();
        crate::builtin::register_all(&mut registry)?;
        Ok(registry)
    }

    /// Registers a typed tool; a tool of the same name is replaced.
    pub fn register<T: Tool>(&mut self, tool: T) -> Result<Arc<ToolDefinition>, SchemaError> {
        let definition = Arc::new(ToolDefinition::new(tool)?);
        self.insert(definition.clone());
        Ok(definition)
    }

    fn insert(&mut self, definition: Arc<ToolDefinition>) {
        let name = definition.name().to_owned();
        self.order.retain(|existing| existing.name() != name);
        self.order.push(definition.clone());
        self.by_name.insert(name, definition);
    }

    pub fn get(&self, name: &str) -> Option<&Arc<ToolDefinition>> {
        self.by_name.get(name)
    }

    /// What the model is told about every tool, in registration order.
    pub fn specs(&self) -> Vec<ToolSpec> {
        self.order
            .iter()
            .map(|definition| ToolSpec {
                name: definition.name().to_owned(),
                description: definition.description().to_owned(),
                parameters: definition.input_schema().clone(),
            })
            .collect()
    }

    /// Looks the tool up by exact name, parses the arguments as JSON and
    /// validates them against the tool's schema.
    pub fn prepare(&self, call: &ToolCall) -> Result<PreparedCall, Rejection> {
        let definition = self
            .get(call.name())
            .ok_or_else(|| Rejection::UnknownTool {
                name: call.name().to_owned(),
                available: self.names(),
            })?;
        let input = parse_arguments(&call.function.arguments)?;
        definition
            .validate(&input)
            .map_err(|mismatch| Rejection::mismatch(definition.name(), mismatch))?;
        Ok(PreparedCall::new(
            call.id.clone(),
            definition.clone(),
            input,
        ))
    }

    fn names(&self) -> Vec<String> {
        self.order
            .iter()
            .map(|definition| definition.name().to_owned())
            .collect()
    }
}

fn parse_arguments(arguments: &str) -> Result<Value, Rejection> {
    let text = if arguments.trim().is_empty() {
        "{}"
    } else {
        arguments
    };
    serde_json::from_str(text).map_err(|error| Rejection::NotJson {
        error: error.to_string(),
    })
}

#[cfg(test)]
#[path = "registry_tests.rs"]
mod tests;
