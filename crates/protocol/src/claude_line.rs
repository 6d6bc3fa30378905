//! Conversation lines in Claude Code's transcript shape (contract §21): `user`,
//! `assistant` and `system` lines with content blocks, token usage and the
//! chain fields (`uuid`, `parentUuid`, `sessionId`, …) every line carries, so
//! that programs written for Claude Code transcripts (`ccusage`, Stop hooks
//! that take the last assistant text) read AgentHub's unchanged.
//!
//! This module only says what a line is and how it maps to and from the
//! history's [`Message`]s; it never decides ids or times (the writer does).

use crate::{CallOrigin, Message, StopReason, ToolCall, Usage};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What every conversation line carries besides its message.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct LineMeta {
    /// The line's own id.
    #[serde(default)]
    pub uuid: String,
    /// The line before it in the same chain (the session's, or one
    /// subagent's); `null` on a chain's first line.
    #[serde(rename = "parentUuid", default)]
    pub parent_uuid: Option<String>,
    /// Whether the line belongs to a subagent's conversation.
    #[serde(rename = "isSidechain", default)]
    pub is_sidechain: bool,
    /// The subagent whose line it is; absent for the session's own.
    #[serde(rename = "agentId", default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    /// The session's id.
    #[serde(rename = "sessionId", default)]
    pub session_id: String,
    /// When the line was written, RFC 3339 UTC with milliseconds.
    #[serde(default)]
    pub timestamp: String,
    /// The workspace the session works in.
    #[serde(default)]
    pub cwd: String,
    /// The AgentHub version that wrote the line.
    #[serde(default)]
    pub version: String,
}

/// One block of a message's content.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ContentBlock {
    /// Text of the model (or of a user line given as blocks).
    Text {
        /// The text.
        text: String,
    },
    /// A tool call of the model.
    ToolUse {
        /// The call's id, answered by a `tool_result` with the same id.
        id: String,
        /// The tool's name.
        name: String,
        /// The arguments: an object, or the model's raw text as a string
        /// when it was not a JSON object (kept so it can be reported).
        input: Value,
        /// `true` when the model wrote the call as text and AgentHub took
        /// it as a call (`--tool-protocol auto`); absent otherwise.
        #[serde(default, skip_serializing_if = "is_false")]
        parsed_from_text: bool,
    },
    /// The result of one tool call.
    ToolResult {
        /// The call it answers.
        tool_use_id: String,
        /// What the tool returned (text, or Claude Code's list of text blocks).
        content: Value,
        /// Whether the call failed or was not run.
        #[serde(default)]
        is_error: bool,
    },
    /// A block this version does not use (thinking, images, …); skipped.
    #[serde(other)]
    Other,
}

/// A user line's content: a prompt's text, or blocks (tool results).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum UserContent {
    /// A prompt, or another instruction that takes the user's place.
    Text(String),
    /// Tool results (or text blocks).
    Blocks(Vec<ContentBlock>),
}

/// The message of a `user` line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UserMessage {
    /// Always `user`.
    pub role: String,
    /// Text or blocks.
    pub content: UserContent,
}

/// A `user` line: a prompt, a Stop hook's instruction, or tool results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UserLine {
    /// The message.
    pub message: UserMessage,
    /// The chain fields.
    #[serde(flatten)]
    pub meta: LineMeta,
}

/// Token usage in Anthropic's shape: `input_tokens` excludes the tokens read
/// from the cache, so the four numbers add up to what the request took.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct WireUsage {
    /// Prompt tokens not read from the cache.
    #[serde(default)]
    pub input_tokens: u64,
    /// Generated tokens.
    #[serde(default)]
    pub output_tokens: u64,
    /// Prompt tokens read from the cache.
    #[serde(default)]
    pub cache_read_input_tokens: u64,
    /// Prompt tokens written to the cache.
    #[serde(default)]
    pub cache_creation_input_tokens: u64,
}

impl From<Usage> for WireUsage {
    fn from(usage: Usage) -> Self {
        WireUsage {
            input_tokens: usage
                .input_tokens
                .saturating_sub(usage.cache_read_tokens)
                .saturating_sub(usage.cache_creation_tokens),
            output_tokens: usage.output_tokens,
            cache_read_input_tokens: usage.cache_read_tokens,
            cache_creation_input_tokens: usage.cache_creation_tokens,
        }
    }
}

impl From<WireUsage> for Usage {
    fn from(wire: WireUsage) -> Self {
        Usage {
            input_tokens: wire.input_tokens
                + wire.cache_read_input_tokens
                + wire.cache_creation_input_tokens,
            output_tokens: wire.output_tokens,
            cache_read_tokens: wire.cache_read_input_tokens,
            cache_creation_tokens: wire.cache_creation_input_tokens,
        }
    }
}

/// The message of an `assistant` line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AssistantMessage {
    /// The message's id (`msg_…`).
    #[serde(default)]
    pub id: String,
    /// Always `message`.
    #[serde(rename = "type", default = "message_kind")]
    pub kind: String,
    /// Always `assistant`.
    pub role: String,
    /// The model that answered.
    #[serde(default)]
    pub model: String,
    /// Text and tool calls, in that order.
    pub content: Vec<ContentBlock>,
    /// How the reply ended (`end_turn`, `tool_use`, `max_tokens`: cut at
    /// the output limit, …); absent in lines written before contract §33.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<StopReason>,
    /// The tokens of the request that produced it (zeros when the
    /// provider reported none).
    #[serde(default)]
    pub usage: WireUsage,
}

fn message_kind() -> String {
    "message".to_owned()
}

/// An `assistant` line: one reply of the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AssistantLine {
    /// The message.
    pub message: AssistantMessage,
    /// The chain fields.
    #[serde(flatten)]
    pub meta: LineMeta,
}

/// What a `system` line holds.
pub mod subtype {
    /// The system prompt a conversation starts with.
    pub const SYSTEM_PROMPT: &str = "system_prompt";
    /// Context a hook or AgentHub added for the model.
    pub const CONTEXT: &str = "context";
    /// The summary that stands for a compacted history; in the history it
    /// is a user message, as the model is given it.
    pub const COMPACT_SUMMARY: &str = "compact_summary";
}

/// A `system` line: the system prompt, hook context, a compaction summary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SystemLine {
    /// Which kind of system text (see [`subtype`]).
    pub subtype: String,
    /// The text.
    pub content: String,
    /// The chain fields.
    #[serde(flatten)]
    pub meta: LineMeta,
}

fn is_false(flag: &bool) -> bool {
    !*flag
}

/// A tool call's arguments as a `tool_use` input: the object, or the raw
/// text when it is not a JSON object.
fn tool_input(call: &ToolCall) -> Value {
    match serde_json::from_str::<Value>(&call.function.arguments) {
        Ok(value @ Value::Object(_)) => value,
        _ => Value::String(call.function.arguments.clone()),
    }
}

/// The content blocks of an assistant message: its text, then its calls.
pub fn assistant_blocks(content: Option<&str>, calls: &[ToolCall]) -> Vec<ContentBlock> {
    let text = content
        .filter(|text| !text.is_empty())
        .map(|text| ContentBlock::Text {
            text: text.to_owned(),
        });
    text.into_iter()
        .chain(calls.iter().map(|call| ContentBlock::ToolUse {
            id: call.id.clone(),
            name: call.name().to_owned(),
            input: tool_input(call),
            parsed_from_text: call.origin == CallOrigin::Text,
        }))
        .collect()
}

/// The `tool_result` block answering a call, failed or not.
pub fn tool_result_block(tool_call_id: &str, content: &str, is_error: bool) -> ContentBlock {
    ContentBlock::ToolResult {
        tool_use_id: tool_call_id.to_owned(),
        content: Value::String(content.to_owned()),
        is_error,
    }
}

impl AssistantLine {
    /// The history's message: text blocks joined, tool uses as calls.
    pub fn to_message(&self) -> Message {
        let mut text = Vec::new();
        let mut tool_calls = Vec::new();
        for block in &self.message.content {
            match block {
                ContentBlock::Text { text: part } => text.push(part.as_str()),
                ContentBlock::ToolUse {
                    id,
                    name,
                    input,
                    parsed_from_text,
                } => {
                    let arguments = match input {
                        Value::String(raw) => raw.clone(),
                        other => other.to_string(),
                    };
                    let origin = if *parsed_from_text {
                        CallOrigin::Text
                    } else {
                        CallOrigin::Structured
                    };
                    tool_calls.push(ToolCall::new(id, name, arguments).from_origin(origin));
                }
                ContentBlock::ToolResult { .. } | ContentBlock::Other => {}
            }
        }
        Message::Assistant {
            content: (!text.is_empty()).then(|| text.concat()),
            tool_calls,
        }
    }
}

impl UserLine {
    /// The history's messages: the prompt, or one tool message per result.
    pub fn to_messages(&self) -> Vec<Message> {
        match &self.message.content {
            UserContent::Text(text) => vec![Message::user(text.clone())],
            UserContent::Blocks(blocks) => blocks.iter().filter_map(block_message).collect(),
        }
    }

    /// The prompt as typed, when the line is a prompt (not tool results):
    /// a session's first prompt without its `<system-reminder>` block
    /// (see [`typed_prompt`](crate::typed_prompt)).
    pub fn prompt(&self) -> Option<&str> {
        match &self.message.content {
            UserContent::Text(text) => Some(crate::typed_prompt(text)),
            UserContent::Blocks(_) => None,
        }
    }
}

fn block_message(block: &ContentBlock) -> Option<Message> {
    match block {
        ContentBlock::Text { text } => Some(Message::user(text.clone())),
        ContentBlock::ToolResult {
            tool_use_id,
            content,
            is_error,
        } => Some(Message::tool_result(
            tool_use_id.clone(),
            result_text(content),
            *is_error,
        )),
        ContentBlock::ToolUse { .. } | ContentBlock::Other => None,
    }
}

/// A tool result's text: a string as it is, Claude Code's text blocks joined.
fn result_text(content: &Value) -> String {
    match content {
        Value::String(text) => text.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|block| block.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        other => other.to_string(),
    }
}

impl SystemLine {
    /// The history's message: a compaction summary is the user message the
    /// model was given; every other system text is a system message.
    pub fn to_message(&self) -> Message {
        if self.subtype == subtype::COMPACT_SUMMARY {
            Message::user(self.content.clone())
        } else {
            Message::system(self.content.clone())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn assistant_blocks_put_the_text_first_then_each_call_with_its_input_object() {
        let calls = [ToolCall::new("c1", "Read", r#"{"file_path": "a"}"#)];
        assert_eq!(
            serde_json::to_value(assistant_blocks(Some("looking"), &calls)).unwrap(),
            json!([{"type": "text", "text": "looking"},
                   {"type": "tool_use", "id": "c1", "name": "Read", "input": {"file_path": "a"}}])
        );
    }

    #[test]
    fn a_call_written_as_text_is_marked_parsed_from_text_and_reads_back_so() {
        let calls =
            [ToolCall::new("c1", "Read", r#"{"file_path": "a"}"#).from_origin(CallOrigin::Text)];
        let blocks = assistant_blocks(None, &calls);
        assert_eq!(
            serde_json::to_value(&blocks).unwrap(),
            json!([{"type": "tool_use", "id": "c1", "name": "Read", "input": {"file_path": "a"},
                    "parsed_from_text": true}])
        );
        let line = AssistantLine {
            message: AssistantMessage {
                id: "msg_1".into(),
                kind: "message".into(),
                role: "assistant".into(),
                model: "m".into(),
                content: blocks,
                stop_reason: None,
                usage: WireUsage::default(),
            },
            meta: LineMeta::default(),
        };
        assert_eq!(
            line.to_message(),
            Message::Assistant {
                content: None,
                tool_calls: vec![ToolCall::new("c1", "Read", r#"{"file_path":"a"}"#)
                    .from_origin(CallOrigin::Text)],
            }
        );
    }

    #[test]
    fn arguments_that_are_not_a_json_object_are_kept_as_raw_text() {
        let calls = [ToolCall::new("c1", "Read", "{not json")];
        let line = AssistantLine {
            message: AssistantMessage {
                id: "msg_1".into(),
                kind: "message".into(),
                role: "assistant".into(),
                model: "m".into(),
                content: assistant_blocks(None, &calls),
                stop_reason: None,
                usage: WireUsage::default(),
            },
            meta: LineMeta::default(),
        };
        assert_eq!(
            line.to_message(),
            Message::Assistant {
                content: None,
                tool_calls: calls.to_vec()
            }
        );
    }

    #[test]
    fn a_tool_result_says_is_error_when_the_call_failed() {
        assert_eq!(
            serde_json::to_value(tool_result_block("c1", "Error [tool_error]: no", true)).unwrap(),
            json!({"type": "tool_result", "tool_use_id": "c1",
                   "content": "Error [tool_error]: no", "is_error": true})
        );
    }

    #[test]
    fn a_successful_result_that_reads_like_an_error_is_not_one() {
        assert_eq!(
            serde_json::to_value(tool_result_block("c1", "Error [x]: in the file", false)).unwrap(),
            json!({"type": "tool_result", "tool_use_id": "c1",
                   "content": "Error [x]: in the file", "is_error": false})
        );
    }

    #[test]
    fn a_tool_result_line_reads_back_with_its_error_flag() {
        let line: UserLine = serde_json::from_value(json!({
            "type": "user", "uuid": "u1", "parentUuid": null, "sessionId": "s",
            "timestamp": "2026-01-01T00:00:00Z", "cwd": "/w",
            "message": {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "c1", "content": "no", "is_error": true}
            ]}
        }))
        .unwrap();
        assert_eq!(line.to_messages(), vec![Message::tool_error("c1", "no")]);
    }

    #[test]
    fn wire_usage_takes_cache_reads_and_writes_out_of_input_and_back() {
        let usage = Usage {
            input_tokens: 130,
            output_tokens: 8,
            cache_read_tokens: 100,
            cache_creation_tokens: 10,
        };
        let wire = WireUsage::from(usage);
        assert_eq!(
            (wire, Usage::from(wire)),
            (
                WireUsage {
                    input_tokens: 20,
                    output_tokens: 8,
                    cache_read_input_tokens: 100,
                    cache_creation_input_tokens: 10
                },
                usage
            )
        );
    }

    #[test]
    fn a_claude_code_tool_result_given_as_text_blocks_reads_as_their_text() {
        let line: UserLine = serde_json::from_value(json!({
            "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1",
                "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}]},
            "uuid": "u", "parentUuid": null, "sessionId": "s", "timestamp": "t",
            "cwd": "/w", "version": "1", "isSidechain": false
        }))
        .unwrap();
        assert_eq!(line.to_messages(), vec![Message::tool("c1", "a\nb")]);
    }

    #[test]
    fn a_compaction_summary_line_reads_back_as_the_user_message_the_model_saw() {
        let line = SystemLine {
            subtype: subtype::COMPACT_SUMMARY.into(),
            content: "summary".into(),
            meta: LineMeta::default(),
        };
        assert_eq!(line.to_message(), Message::user("summary"));
    }
}
