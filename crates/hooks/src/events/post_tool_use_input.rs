//! PostToolUse's and PostToolUseFailure's stdin as one serde type (the
//! engine writes it, a sample is read back through it), and what a sample
//! of either comes to. Kept apart from `post_tool_use.rs` only for size.

use super::super::input::{empty_input, sample_tool_use_id};
use super::super::sample::{self, SampleEnv, SampleError};
use super::super::CommonInput;
use super::{PostToolUseContext, PostToolUseVerdict, ToolOutcome};
use crate::command::payload::tool_input;
use agenthub_tools::ToolError;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::time::Duration;

/// PostToolUse (the tool succeeded) or PostToolUseFailure (it failed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PostToolUseInput {
    /// The common fields.
    #[serde(flatten)]
    pub common: CommonInput,
    /// The tool the call asked for.
    pub tool_name: String,
    /// The call's input, declared paths absolute.
    #[serde(default = "empty_input")]
    pub tool_input: Value,
    /// The call's id.
    #[serde(default = "sample_tool_use_id")]
    pub tool_use_id: String,
    /// How long the tool ran.
    #[serde(default)]
    pub duration_ms: u64,
    /// PostToolUseFailure: the tool's error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// PostToolUse: the tool's structured result (Claude Code's shape) or its text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_response: Option<Value>,
}

/// PostToolUse's (or PostToolUseFailure's) stdin for this firing.
pub fn input(context: &PostToolUseContext) -> PostToolUseInput {
    let event = if context.result.is_error() {
        "PostToolUseFailure"
    } else {
        "PostToolUse"
    };
    let (error, tool_response) = match &context.result.failure {
        Some(failure) => (Some(failure.message.clone()), None),
        None => (None, Some(tool_response(&context.result))),
    };
    PostToolUseInput {
        common: CommonInput::of(&context.common, event),
        tool_name: context.call.name().to_owned(),
        tool_input: tool_input(&context.common, &context.call),
        tool_use_id: context.call.id().to_owned(),
        duration_ms: u64::try_from(context.result.elapsed.as_millis()).unwrap_or(u64::MAX),
        error,
        tool_response,
    }
}

/// PostToolUse `tool_response`: the tool's structured result, shaped like
/// Claude Code's (e.g. Bash `{stdout, stderr, …}`), when it has one; else the
/// result text (see [`ToolOutcome::structured`] for when that is).
fn tool_response(result: &ToolOutcome) -> Value {
    match &result.structured {
        Some(structured) => structured.clone(),
        None => json!(result.output),
    }
}

/// Which of the two events a sample stands for.
pub(super) enum Kind {
    /// PostToolUse: the tool succeeded.
    Succeeded,
    /// PostToolUseFailure: the tool failed.
    Failed,
}

/// The context of a sample of either event: a structured `tool_response`
/// (Claude Code's shape) is passed on as it is, its JSON text standing in
/// for the text the model would see.
pub(super) fn sample(
    input: PostToolUseInput,
    env: &SampleEnv<'_>,
    kind: Kind,
) -> Result<PostToolUseContext, SampleError> {
    let elapsed = Duration::from_millis(input.duration_ms);
    let result = match kind {
        Kind::Failed => {
            let error = input.error.unwrap_or_else(|| "the tool failed".to_owned());
            ToolOutcome::failed(ToolError::new(error), elapsed)
        }
        Kind::Succeeded => {
            let (output, structured) = match input.tool_response {
                None => (String::new(), None),
                Some(Value::String(text)) => (text, None),
                Some(other) => (other.to_string(), Some(other)),
            };
            ToolOutcome::succeeded(output, structured, elapsed)
        }
    };
    Ok(PostToolUseContext {
        call: env.call(&input.tool_use_id, &input.tool_name, &input.tool_input)?,
        common: env.common(input.common),
        result,
    })
}

/// What the verdict would mean for the result the model sees, in words.
pub(super) fn explain(verdict: PostToolUseVerdict) -> Vec<String> {
    let mut lines = vec![format!("the model sees: {}", verdict.output)];
    if let Some(reason) = verdict.stop_reason {
        lines.push(format!("the run would stop after this round: {reason}"));
    }
    lines.extend(sample::contexts(&verdict.context));
    lines.extend(
        verdict
            .failures
            .iter()
            .map(|failure| format!("reported (the result is kept): {failure}")),
    );
    lines
}
