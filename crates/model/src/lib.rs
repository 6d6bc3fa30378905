//! Models: the [`ChatModel`] trait (history and tool definitions in, one
//! assistant message out) and its implementations: the [`ScriptedModel`] that
//! replays a script file offline, the real providers ([`OpenAiModel`] for
//! OpenAI-compatible Chat Completions, [`AnthropicModel`] for Anthropic
//! Messages), and the [`ReactModel`] wrapper that speaks the text ReAct
//! protocol to models without native tool calls.
//!
//! A model proposes; it never runs a tool or touches history. Providers must not
//! print: streamed text goes to the caller through [`ModelEvents`]. API keys
//! never appear in `Debug` output, errors or logs.
//!
//! Layout: each provider is a pure request builder plus a pure stream
//! accumulator, joined by the shared [`transport`] (HTTP, retries, SSE).

#![warn(missing_docs)]

pub mod anthropic;
mod chat;
mod config;
mod ids;
pub mod openai;
pub mod react;
mod scripted;
#[cfg(test)]
mod test_support;
pub mod transport;

pub use agenthub_protocol::Usage;
pub use anthropic::AnthropicModel;
pub use chat::{AssistantReply, ChatModel, ModelError, ModelEvents, ModelRequest, NoModelEvents};
pub use config::{
    is_loopback, ApiKey, ConfigError, EnvLookup, ProviderConfig, ProviderKind, ProviderLayer,
    ToolProtocol, MODEL_VARIABLE,
};
pub use openai::OpenAiModel;
pub use react::ReactModel;
pub use scripted::{ScriptError, ScriptedCall, ScriptedModel, ScriptedTurn, SubagentScript};
pub use transport::{describe_transport, RetryPolicy, TransportSettings};

use std::sync::Arc;

/// The real model a configuration names, wrapped in [`ReactModel`] when the
/// configuration asks for the text ReAct protocol.
pub fn provider_model(config: &ProviderConfig) -> Result<Arc<dyn ChatModel>, ConfigError> {
    let model: Arc<dyn ChatModel> = match config.provider {
        ProviderKind::OpenAi => Arc::new(OpenAiModel::new(config)?),
        ProviderKind::Anthropic => Arc::new(AnthropicModel::new(config)?),
    };
    Ok(match config.tool_protocol {
        ToolProtocol::Native => model,
        ToolProtocol::React => Arc::new(ReactModel::new(model)),
    })
}
