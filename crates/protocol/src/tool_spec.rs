//! What a model is told about a tool.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A tool as offered to the model: name, description, JSON Schema of its input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    /// The name the model calls the tool by.
    pub name: String,
    /// What the tool does, in words the model reads to decide when to use it.
    pub description: String,
    /// The JSON Schema the call's arguments must fit.
    pub parameters: Value,
}
