//! The registry: tools by exact name, and `prepare`, which turns a model's raw
//! tool call into a [`PreparedCall`] or a rejection the model can learn from.

use crate::definition::SchemaError;
use crate::{PreparedCall, Tool, ToolDefinition};
use agenthub_protocol::{ErrorCode, ToolCall, ToolSpec};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;

/// Why a call could not be prepared. Its `code` is `unknown_tool` or
/// `invalid_arguments`; its `message` says what was wrong, where, and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    pub code: ErrorCode,
    pub message: String,
}

impl Rejection {
    pub fn result_text(&self) -> String {
        self.code.result_text(&self.message)
    }
}

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
        let definition = self.get(call.name()).ok_or_else(|| Rejection {
            code: ErrorCode::UnknownTool,
            message: format!(
                "the tool was not run: no tool is named {:?}; available tools: {}",
                call.name(),
                self.names().join(", ")
            ),
        })?;
        let input = parse_arguments(&call.function.arguments)?;
        definition.validate(&input).map_err(|problem| Rejection {
            code: ErrorCode::InvalidArguments,
            message: format!(
                "the tool was not run: the arguments of {} do not match its schema: {problem}",
                definition.name()
            ),
        })?;
        Ok(PreparedCall::new(
            call.id.clone(),
            definition.clone(),
            input,
        ))
    }

    fn names(&self) -> Vec<&str> {
        self.order
            .iter()
            .map(|definition| definition.name())
            .collect()
    }
}

fn parse_arguments(arguments: &str) -> Result<Value, Rejection> {
    let text = if arguments.trim().is_empty() {
        "{}"
    } else {
        arguments
    };
    serde_json::from_str(text).map_err(|error| Rejection {
        code: ErrorCode::InvalidArguments,
        message: format!(
            "the tool was not run: the arguments are not valid JSON ({error}); expected a JSON object"
        ),
    })
}

#[cfg(test)]
#[path = "registry_tests.rs"]
mod tests;
