//! The ACP (protocol version 1) messages AgentHub reads and writes, as the
//! official schema names them (camelCase fields, snake_case tags). Only what
//! the methods of contract §23 use: a field the schema adds later is ignored
//! when read and never written.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A tool call's kind is the tool's own (`Tool::kind`), by its ACP name.
pub use agenthub::ToolKind;

fn kind_name<S: serde::Serializer>(
    kind: &Option<ToolKind>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(kind.unwrap_or(ToolKind::Other).as_str())
}
use std::path::PathBuf;

/// The one protocol version spoken.
pub const PROTOCOL_VERSION: u16 = 1;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NewSessionRequest {
    pub cwd: PathBuf,
    #[serde(default)]
    pub mcp_servers: Vec<McpServer>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LoadSessionRequest {
    pub session_id: String,
    pub cwd: PathBuf,
    #[serde(default)]
    pub mcp_servers: Vec<McpServer>,
}

/// `session/list`: the sessions of `cwd` (else the agent's workspace), from
/// the page `cursor` names.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListSessionsRequest {
    #[serde(default)]
    pub cwd: Option<PathBuf>,
    #[serde(default)]
    pub cursor: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PromptRequest {
    pub session_id: String,
    pub prompt: Vec<ContentBlock>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionIdOnly {
    pub session_id: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SetModeRequest {
    pub session_id: String,
    pub mode_id: String,
}

/// An MCP server the client asks the session to use: stdio (no `type`), or
/// `http`/`sse` with a URL.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum McpServer {
    Remote(RemoteServer),
    Stdio(StdioServer),
}

#[derive(Debug, Clone, Deserialize)]
pub struct StdioServer {
    pub name: String,
    pub command: String,
    #[serde(default)]
    pub args: Vec<String>,
    #[serde(default)]
    pub env: Vec<NameValue>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct RemoteServer {
    #[serde(rename = "type")]
    pub transport: String,
    pub name: String,
    pub url: String,
    #[serde(default)]
    pub headers: Vec<NameValue>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct NameValue {
    pub name: String,
    pub value: String,
}

/// A piece of a prompt.
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ContentBlock {
    Text { text: String },
    ResourceLink { uri: String },
    Resource { resource: EmbeddedResource },
    Image {},
    Audio {},
}

#[derive(Debug, Clone, Deserialize)]
pub struct EmbeddedResource {
    pub uri: String,
    #[serde(default)]
    pub text: Option<String>,
}

/// Why a prompt turn ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    EndTurn,
    MaxTurnRequests,
    Cancelled,
}

/// The `update` of a `session/update` notification.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "sessionUpdate", rename_all = "snake_case")]
pub enum SessionUpdate {
    UserMessageChunk {
        content: TextBlock,
    },
    AgentMessageChunk {
        content: TextBlock,
    },
    ToolCall(ToolCallFields),
    ToolCallUpdate(ToolCallFields),
    #[serde(rename_all = "camelCase")]
    CurrentModeUpdate {
        current_mode_id: String,
    },
    #[serde(rename_all = "camelCase")]
    AvailableCommandsUpdate {
        available_commands: Vec<AvailableCommand>,
    },
    Plan {
        entries: Vec<super::plan::PlanEntry>,
    },
}

impl SessionUpdate {
    /// Assistant text.
    pub fn agent_text(text: impl Into<String>) -> SessionUpdate {
        SessionUpdate::AgentMessageChunk {
            content: TextBlock::new(text),
        }
    }
}

/// A text content block.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TextBlock {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub text: String,
}

impl TextBlock {
    pub fn new(text: impl Into<String>) -> TextBlock {
        TextBlock {
            kind: "text",
            text: text.into(),
        }
    }
}

/// The fields of a tool call or of an update to one: unset fields are left
/// out, so an update changes only what it names.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCallFields {
    pub tool_call_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "kind_name")]
    pub kind: Option<ToolKind>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<ToolCallStatus>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<Vec<ToolCallContent>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locations: Option<Vec<ToolCallLocation>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw_input: Option<Value>,
}

/// A file a tool call reads or changes (an absolute path), and the line
/// it looks at, for an editor that follows the agent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToolCallLocation {
    pub path: PathBuf,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolCallStatus {
    Pending,
    InProgress,
    Completed,
    Failed,
}

/// What a tool call shows: text (a command, a result, why it asks), or a
/// file's change as a diff — `old_text` `None` (written `null`) only for a
/// file that does not exist yet.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToolCallContent {
    Content {
        content: TextBlock,
    },
    #[serde(rename_all = "camelCase")]
    Diff {
        path: PathBuf,
        old_text: Option<String>,
        new_text: String,
    },
}

impl ToolCallContent {
    pub fn text(text: impl Into<String>) -> ToolCallContent {
        ToolCallContent::Content {
            content: TextBlock::new(text),
        }
    }
}

/// A command the editor offers after `/` (a custom command, a skill).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AvailableCommand {
    pub name: String,
    pub description: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<CommandInput>,
}

/// What the editor shows while the command's input is still to be typed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CommandInput {
    pub hint: String,
}

/// One choice of a permission question.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PermissionOption {
    pub option_id: &'static str,
    pub name: String,
    pub kind: &'static str,
}

/// The client's answer to `session/request_permission`.
#[derive(Debug, Deserialize)]
pub struct PermissionResponse {
    pub outcome: PermissionOutcome,
}

#[derive(Debug, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum PermissionOutcome {
    Cancelled,
    #[serde(rename_all = "camelCase")]
    Selected {
        option_id: String,
    },
}
