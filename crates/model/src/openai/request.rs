//! The Chat Completions request body, built from AgentHub's history (which is
//! already in the OpenAI chat shape) and tool specs. Pure: no IO.

use crate::ModelRequest;
use agenthub_protocol::{Message, ToolSpec};
use serde::Serialize;
use serde_json::Value;

/// `POST {base}/chat/completions` body, always streamed.
#[derive(Debug, Serialize)]
pub struct ChatRequest<'a> {
    model: &'a str,
    max_tokens: u32,
    messages: &'a [Message],
    stream: bool,
    stream_options: StreamOptions,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tools: Vec<ChatTool<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    temperature: Option<f64>,
}

impl ChatRequest<'_> {
    /// The body with `temperature` sent, when there is one (settings
    /// `temperature`); `None` sends none, leaving the server's default.
    pub fn with_temperature(mut self, temperature: Option<f64>) -> Self {
        self.temperature = temperature;
        self
    }
}

#[derive(Debug, Serialize)]
struct StreamOptions {
    include_usage: bool,
}

#[derive(Debug, Serialize)]
struct ChatTool<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    function: FunctionSpec<'a>,
}

#[derive(Debug, Serialize)]
struct FunctionSpec<'a> {
    name: &'a str,
    description: &'a str,
    parameters: &'a Value,
}

/// The body for one model request, whose reply may have at most
/// `max_tokens` tokens. Without tools the `tools` key is left out (some
/// compatible servers reject an empty list).
pub fn chat_request<'a>(
    model: &'a str,
    max_tokens: u32,
    request: ModelRequest<'a>,
) -> ChatRequest<'a> {
    ChatRequest {
        model,
        max_tokens,
        messages: request.messages,
        stream: true,
        stream_options: StreamOptions {
            include_usage: true,
        },
        tools: request.tools.iter().map(chat_tool).collect(),
        temperature: None,
    }
}

fn chat_tool(spec: &ToolSpec) -> ChatTool<'_> {
    ChatTool {
        kind: "function",
        function: FunctionSpec {
            name: &spec.name,
            description: &spec.description,
            parameters: &spec.parameters,
        },
    }
}
