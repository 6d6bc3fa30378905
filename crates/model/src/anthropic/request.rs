//! The Anthropic Messages request body, translated from AgentHub's OpenAI-shaped
//! history. Pure: no IO.
//!
//! - Leading system messages become the top-level `system`; a system message
//!   later in the history (hook context) becomes a `<system-reminder>` text block
//!   of the next user turn, so it keeps its place in the conversation.
//! - Assistant tool calls become `tool_use` blocks; tool messages become
//!   `tool_result` blocks (`is_error` for `Error [code]: …` results), and
//!   consecutive ones share one user message.
//! - Consecutive messages of the same role are merged into one turn.
//! - Prompt caching: the system prompt, the last tool and the last block of
//!   the last message carry `cache_control: {"type": "ephemeral"}`, so the
//!   provider reads everything up to them from its cache on the next request.

use crate::ModelRequest;
use agenthub_protocol::{Message, ToolCall, ToolSpec};
use serde::Serialize;
use serde_json::Value;

/// `POST {base}/v1/messages` body, always streamed.
#[derive(Debug, Serialize)]
pub struct MessagesRequest<'a> {
    model: &'a str,
    max_tokens: u32,
    stream: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    system: Vec<Marked>,
    messages: Vec<Turn>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tools: Vec<Tool<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    temperature: Option<f64>,
}

impl MessagesRequest<'_> {
    /// The body with `temperature` sent, when there is one (settings
    /// `temperature`); `None` sends none, leaving the API's default.
    pub fn with_temperature(mut self, temperature: Option<f64>) -> Self {
        self.temperature = temperature;
        self
    }
}

#[derive(Debug, Serialize)]
struct Turn {
    role: Role,
    content: Vec<Marked>,
}

/// A block, with a cache breakpoint when it ends a cached prefix.
#[derive(Debug, Serialize)]
struct Marked {
    #[serde(flatten)]
    block: Block,
    #[serde(skip_serializing_if = "Option::is_none")]
    cache_control: Option<CacheControl>,
}

/// Anthropic's prompt-caching mark: the prefix up to here is cached for a while.
#[derive(Debug, Clone, Copy, Serialize)]
struct CacheControl {
    #[serde(rename = "type")]
    kind: &'static str,
}

const EPHEMERAL: CacheControl = CacheControl { kind: "ephemeral" };

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
enum Role {
    User,
    Assistant,
}

#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Block {
    Text {
        text: String,
    },
    ToolUse {
        id: String,
        name: String,
        input: Value,
    },
    ToolResult {
        tool_use_id: String,
        content: String,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        is_error: bool,
    },
}

#[derive(Debug, Serialize)]
struct Tool<'a> {
    name: &'a str,
    description: &'a str,
    input_schema: &'a Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    cache_control: Option<CacheControl>,
}

/// Limits sent with every request.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The most tokens one reply may have; the API requires it.
    pub max_tokens: u32,
}

/// The body for one model request.
pub fn messages_request<'a>(
    model: &'a str,
    limits: Limits,
    request: ModelRequest<'a>,
) -> MessagesRequest<'a> {
    let mut system: Vec<&str> = Vec::new();
    let mut turns: Vec<Turn> = Vec::new();
    for message in request.messages {
        match message {
            Message::System { content } if turns.is_empty() => system.push(content),
            Message::System { content } => push(
                &mut turns,
                Role::User,
                text(format!("<system-reminder>\n{content}\n</system-reminder>")),
            ),
            Message::User { content } => push(&mut turns, Role::User, text(content.clone())),
            Message::Assistant {
                content,
                tool_calls,
            } => {
                let words = content.clone().unwrap_or_default();
                push(&mut turns, Role::Assistant, text(words));
                for call in tool_calls {
                    push(&mut turns, Role::Assistant, Some(tool_use(call)));
                }
            }
            Message::Tool {
                tool_call_id,
                content,
                is_error,
            } => push(
                &mut turns,
                Role::User,
                Some(tool_result(tool_call_id, content, *is_error)),
            ),
        }
    }
    let mut system: Vec<Marked> = text(system.join("\n\n"))
        .map(unmarked)
        .into_iter()
        .collect();
    let mut tools: Vec<Tool<'a>> = request.tools.iter().map(tool).collect();
    mark_last(&mut system);
    if let Some(last) = tools.last_mut() {
        last.cache_control = Some(EPHEMERAL);
    }
    if let Some(last) = turns.last_mut() {
        mark_last(&mut last.content);
    }
    MessagesRequest {
        model,
        max_tokens: limits.max_tokens,
        stream: true,
        system,
        messages: turns,
        tools,
        temperature: None,
    }
}

fn unmarked(block: Block) -> Marked {
    Marked {
        block,
        cache_control: None,
    }
}

/// Puts a cache breakpoint on the last block.
fn mark_last(blocks: &mut [Marked]) {
    if let Some(last) = blocks.last_mut() {
        last.cache_control = Some(EPHEMERAL);
    }
}

/// A text block; `None` for empty text, which the API refuses.
fn text(text: String) -> Option<Block> {
    (!text.is_empty()).then_some(Block::Text { text })
}

/// Arguments that are not a JSON object (the pipeline already answered them
/// with `invalid_arguments`) are sent as `{}`: the API accepts only objects.
fn tool_use(call: &ToolCall) -> Block {
    let input = serde_json::from_str::<Value>(&call.function.arguments)
        .ok()
        .filter(Value::is_object)
        .unwrap_or_else(|| Value::Object(Default::default()));
    Block::ToolUse {
        id: call.id.clone(),
        name: call.function.name.clone(),
        input,
    }
}

fn tool_result(id: &str, content: &str, is_error: bool) -> Block {
    Block::ToolResult {
        tool_use_id: id.to_owned(),
        content: content.to_owned(),
        is_error,
    }
}

fn tool(spec: &ToolSpec) -> Tool<'_> {
    Tool {
        name: &spec.name,
        description: &spec.description,
        input_schema: &spec.parameters,
        cache_control: None,
    }
}

/// Appends the block to the last turn when it has the same role, else opens a turn.
fn push(turns: &mut Vec<Turn>, role: Role, block: Option<Block>) {
    let Some(block) = block.map(unmarked) else {
        return;
    };
    match turns.last_mut() {
        Some(turn) if turn.role == role => turn.content.push(block),
        _ => turns.push(Turn {
            role,
            content: vec![block],
        }),
    }
}
