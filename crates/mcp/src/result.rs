//! A tool call's answer as AgentHub reads it: text content joined (the
//! model's text), images, audio and resources summarised as text with their
//! type, structured content kept for hooks, and `isError` kept apart so the
//! pipeline reports it as `Error [tool_error]`.
//!
//! The SDK's result is read as JSON (the protocol's wire shape), so a new
//! content kind is summarised by its `type` instead of failing the call.

use agenthub_tools::{ToolError, ToolOutput};
use rmcp::model::CallToolResult;
use serde_json::{json, Value};

/// What a server answered to one `tools/call`.
#[derive(Debug, Clone, PartialEq)]
pub struct McpCallResult {
    /// Every content block as text, joined with newlines.
    pub text: String,
    /// The server's `structuredContent`, when it sent one.
    pub structured: Option<Value>,
    /// The server's `isError`: the tool ran and failed.
    pub is_error: bool,
    /// The result as the protocol carried it (`content`, `structuredContent`,
    /// `isError`), what PostToolUse hooks receive as `tool_response`.
    pub raw: Value,
}

impl McpCallResult {
    pub(crate) fn from_result(result: CallToolResult) -> McpCallResult {
        let raw = serde_json::to_value(&result).unwrap_or(Value::Null);
        McpCallResult::from_json(raw)
    }

    /// Reads a `CallToolResult` in its wire shape.
    pub fn from_json(raw: Value) -> McpCallResult {
        let text = raw
            .get("content")
            .and_then(Value::as_array)
            .map(|blocks| blocks.iter().map(block_text).collect::<Vec<_>>().join("\n"))
            .unwrap_or_default();
        McpCallResult {
            text,
            structured: raw.get("structuredContent").cloned(),
            is_error: raw.get("isError").and_then(Value::as_bool).unwrap_or(false),
            raw,
        }
    }

    /// The pipeline's view: text for the model (the structured content as
    /// JSON text when the server sent no text), the whole answer for hooks,
    /// `isError` as the tool's failure.
    pub fn into_tool_output(self) -> Result<ToolOutput, ToolError> {
        let text = match (&self.text, &self.structured) {
            (text, Some(structured)) if text.is_empty() => structured.to_string(),
            (text, _) => text.clone(),
        };
        if self.is_error {
            return Err(ToolError::new(if text.is_empty() {
                "the tool reported an error without a message".to_owned()
            } else {
                text
            }));
        }
        Ok(ToolOutput::with_structured(text, self.raw))
    }
}

/// One content block as text: text as it is, anything else as a line naming
/// its type (and its URI, MIME type or size where it has one).
fn block_text(block: &Value) -> String {
    let field = |name: &str| block.get(name).and_then(Value::as_str);
    match field("type").unwrap_or("unknown") {
        "text" => field("text").unwrap_or_default().to_owned(),
        "image" | "audio" => {
            let kind = field("type").unwrap_or_default();
            let mime = field("mimeType").unwrap_or("unknown type");
            let bytes = field("data").map_or(0, |data| data.len() * 3 / 4);
            format!("[{kind}: {mime}, about {bytes} bytes]")
        }
        "resource" => resource_text(block.get("resource").unwrap_or(&json!({}))),
        "resource_link" => format!(
            "[resource link: {}{}]",
            field("uri").unwrap_or_default(),
            field("mimeType")
                .map(|mime| format!(" ({mime})"))
                .unwrap_or_default()
        ),
        other => format!("[{other} content]"),
    }
}

fn resource_text(resource: &Value) -> String {
    let field = |name: &str| resource.get(name).and_then(Value::as_str);
    let uri = field("uri").unwrap_or_default();
    let mime = field("mimeType")
        .map(|mime| format!(" ({mime})"))
        .unwrap_or_default();
    match field("text") {
        Some(text) => format!("[resource: {uri}{mime}]\n{text}"),
        None => format!("[resource: {uri}{mime}, binary]"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_blocks_are_joined_and_the_raw_answer_kept_for_hooks() {
        let raw = json!({"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
                         "structuredContent": {"sum": 3}});
        assert_eq!(
            McpCallResult::from_json(raw.clone()).into_tool_output(),
            Ok(ToolOutput::with_structured("a\nb", raw))
        );
    }

    #[test]
    fn images_resources_and_links_are_summarised_with_their_type() {
        let raw = json!({"content": [
            {"type": "image", "mimeType": "image/png", "data": "AAAA"},
            {"type": "resource", "resource": {"uri": "file:///a.txt", "mimeType": "text/plain", "text": "hi"}},
            {"type": "resource", "resource": {"uri": "file:///b.bin", "blob": "AA=="}},
            {"type": "resource_link", "uri": "file:///c", "name": "c"},
            {"type": "hologram"}]});
        assert_eq!(
            McpCallResult::from_json(raw).text,
            "[image: image/png, about 3 bytes]\n[resource: file:///a.txt (text/plain)]\nhi\n\
             [resource: file:///b.bin, binary]\n[resource link: file:///c]\n[hologram content]"
        );
    }

    #[test]
    fn structured_content_alone_is_the_text_the_model_reads() {
        let raw = json!({"content": [], "structuredContent": {"sum": 3}});
        assert_eq!(
            McpCallResult::from_json(raw)
                .into_tool_output()
                .map(|output| output.text),
            Ok(r#"{"sum":3}"#.to_owned())
        );
    }

    #[test]
    fn an_is_error_result_is_the_tool_failure_with_its_text() {
        let raw = json!({"content": [{"type": "text", "text": "no such file"}], "isError": true});
        assert_eq!(
            McpCallResult::from_json(raw).into_tool_output(),
            Err(ToolError::new("no such file"))
        );
    }
}
