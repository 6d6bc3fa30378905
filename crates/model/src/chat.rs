//! The model trait.

use agenthub_protocol::{Message, ToolCall, ToolSpec};
use futures::future::BoxFuture;
use thiserror::Error;
use tokio_util::sync::CancellationToken;

/// One model request: the whole history and the tools on offer.
#[derive(Debug, Clone, Copy)]
pub struct ModelRequest<'a> {
    pub messages: &'a [Message],
    pub tools: &'a [ToolSpec],
}

/// One assistant message: text, tool calls, or both.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AssistantReply {
    pub content: Option<String>,
    pub tool_calls: Vec<ToolCall>,
}

impl AssistantReply {
    pub fn into_message(self) -> Message {
        Message::Assistant {
            content: self.content,
            tool_calls: self.tool_calls,
        }
    }
}

/// Receives what a model streams while it answers.
pub trait ModelEvents: Send + Sync {
    /// A piece of assistant text, as it arrives.
    fn text_delta(&self, _text: &str) {}
}

/// Ignores every streamed event.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoModelEvents;

impl ModelEvents for NoModelEvents {}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ModelError {
    #[error(
        "the script {file} has no turn left for model request {request} (it has {turns} turns)"
    )]
    ScriptExhausted {
        file: String,
        request: usize,
        turns: usize,
    },
    #[error("the provider answered {status}: {message}")]
    Status { status: u16, message: String },
    #[error("the provider could not be reached: {0}")]
    Transport(String),
    #[error("the provider's answer could not be read: {0}")]
    Protocol(String),
    #[error("the provider reported an error during its answer: {0}")]
    Provider(String),
    #[error("the request could not be encoded: {0}")]
    Encode(String),
    #[error("the model request was cancelled")]
    Cancelled,
}

/// A chat model: history and tool definitions in, one assistant message out.
pub trait ChatModel: Send + Sync {
    fn complete<'a>(
        &'a self,
        request: ModelRequest<'a>,
        events: &'a dyn ModelEvents,
        cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, Result<AssistantReply, ModelError>>;
}
