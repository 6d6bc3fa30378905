//! What a handler returns ([`ToolOutput`]: the text the model sees, plus an
//! optional structured value for hooks) and the output cap: large texts are
//! cut with a marker that says how much. The structured value never reaches
//! the model and is never cut.

use serde_json::Value;

/// A handler's result. `text` is what the model sees (after the output cap);
/// `structured` is the same result as a JSON value shaped like Claude Code's
/// tool output, which command hooks receive as PostToolUse `tool_response`.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutput {
    /// What the model reads as the tool result (cut at [`OUTPUT_CAP_CHARS`] by core).
    pub text: String,
    /// The result as JSON for PostToolUse hooks' `tool_response`; `None`:
    /// hooks receive the text.
    pub structured: Option<Value>,
}

impl ToolOutput {
    /// A result with both the model's text and the hooks' structured value.
    pub fn with_structured(text: impl Into<String>, structured: Value) -> Self {
        ToolOutput {
            text: text.into(),
            structured: Some(structured),
        }
    }
}

impl From<String> for ToolOutput {
    fn from(text: String) -> Self {
        ToolOutput {
            text,
            structured: None,
        }
    }
}

/// Tool outputs longer than this many characters are cut.
pub const OUTPUT_CAP_CHARS: usize = 30_000;

/// Keeps the first `cap` characters and appends a marker naming how many were cut.
pub fn truncate_output(text: String, cap: usize) -> String {
    let total = text.chars().count();
    if total <= cap {
        return text;
    }
    let cut_at = text
        .char_indices()
        .nth(cap)
        .map_or(text.len(), |(index, _)| index);
    let mut kept = text;
    kept.truncate(cut_at);
    kept.push_str(&format!(
        "\n[output truncated: {} of {} characters cut]",
        total - cap,
        total
    ));
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_output_is_kept_whole() {
        assert_eq!(truncate_output("abc".into(), 3), "abc");
    }

    #[test]
    fn long_output_is_cut_with_a_marker_counting_characters() {
        assert_eq!(
            truncate_output("héllo".into(), 2),
            "hé\n[output truncated: 3 of 5 characters cut]"
        );
    }
}
