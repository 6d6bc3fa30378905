//! What a model is told about a tool.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A tool as offered to the model: name, description, JSON Schema of its input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub parameters: Value,
}
