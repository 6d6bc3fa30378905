//! `Echo {text}`: returns its input. The demo tool of the source articles.

use crate::{Tool, ToolContext, ToolEffect, ToolError, ToolOutput};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

/// Echo's input.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(description = "")]
pub struct EchoInput {
    /// The text to return.
    pub text: String,
}

/// Returns its `text` unchanged: the smallest tool, for demos and tests of the
/// pipeline (hooks and permission see a real call that touches nothing).
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

    /// A demo tool: never offered to a real provider.
    fn demo_only(&self) -> bool {
        true
    }

    /// Structured output for hooks: `{"text"}`.
    async fn call(&self, input: EchoInput, _context: ToolContext) -> Result<ToolOutput, ToolError> {
        let structured = json!({"text": input.text});
        Ok(ToolOutput::with_structured(input.text, structured))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Workspace;
    use tokio_util::sync::CancellationToken;

    #[tokio::test]
    async fn echo_returns_its_text_and_a_structured_text_field() {
        let context = ToolContext {
            workspace: Workspace::new("/tmp"),
            cancel: CancellationToken::new(),
        };
        let input = EchoInput {
            text: "hi".to_owned(),
        };
        assert_eq!(
            Echo.call(input, context).await,
            Ok(ToolOutput::with_structured("hi", json!({"text": "hi"})))
        );
    }
}
