//! `Echo {text}`: returns its input. The demo tool of the source articles.

use crate::{Tool, ToolContext, ToolEffect, ToolError};
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EchoInput {
    /// The text to return.
    pub text: String,
}

pub struct Echo;

impl Tool for Echo {
    type Input = EchoInput;

    fn name(&self) -> &str {
        "Echo"
    }

    fn description(&self) -> &str {
        "Returns the given text unchanged."
    }

    fn effect(&self) -> ToolEffect {
        ToolEffect::ReadOnly
    }

    async fn call(&self, input: EchoInput, _context: ToolContext) -> Result<String, ToolError> {
        Ok(input.text)
    }
}
