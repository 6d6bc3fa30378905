//! Models: the [`ChatModel`] trait (history and tool definitions in, one
//! assistant message out) and its implementations: the [`ScriptedModel`] that
//! replays a script file offline, the real providers ([`OpenAiModel`] for
//! OpenAI-compatible Chat Completions, [`AnthropicModel`] for Anthropic
//! Messages), the [`ReactModel`] wrapper that speaks the text ReAct
//! protocol to models without native tool calls, and the [`TextCallModel`]
//! wrapper that finds tool calls a server returned as text.
//!
//! A model proposes; it never runs a tool or touches history. Providers must not
//! print: streamed text goes to the caller through [`ModelEvents`]. API keys
//! never appear in `Debug` output, errors or logs.
//!
//! Layout: each provider is a pure request builder plus a pure stream
//! accumulator, joined by the shared [`transport`] (HTTP, retries, SSE).

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod anthropic;
mod chat;
mod config;
pub mod cost;
mod ids;
pub mod openai;
pub mod probe;
pub mod react;
mod scripted;
#[cfg(test)]
mod test_support;
pub mod text_calls;
pub mod transport;

pub use agenthub_protocol::Usage;
pub use anthropic::AnthropicModel;
pub use chat::{
    AssistantReply, ChatModel, ModelError, ModelEvents, ModelRequest, NoModelEvents,
    RequestPurpose, Retry,
};
pub use config::{
    is_loopback, ApiKey, ConfigError, EnvLookup, ProviderConfig, ProviderKind, ProviderLayer,
    ToolProtocol, UnknownProvider, UnknownToolProtocol, DEFAULT_MAX_OUTPUT_TOKENS, MODEL_VARIABLE,
};
pub use cost::{CostMeter, MeteredModel, ModelPrice, PriceTable};
pub use openai::OpenAiModel;
pub use react::ReactModel;
pub use scripted::{ScriptError, ScriptedCall, ScriptedModel, ScriptedTurn, SubagentScript};
pub use text_calls::{TextCallModel, TextCalls};
pub use transport::{
    describe_transport, RetryPolicy, TransportSettings, API_TIMEOUT_VARIABLE,
    DEFAULT_REQUEST_TIMEOUT, DEFAULT_STREAM_IDLE,
};

use std::sync::Arc;

/// The real model a configuration names, speaking its tool protocol
/// (see [`speaking`]).
pub fn provider_model(config: &ProviderConfig) -> Result<Arc<dyn ChatModel>, ConfigError> {
    Ok(speaking(config.tool_protocol, raw_provider(config)?))
}

/// [`provider_model`] with every request to the provider — ReAct's
/// corrections included — checked against and counted by `meter`, at the
/// price `prices` gives the model.
pub fn metered_provider_model(
    config: &ProviderConfig,
    meter: &Arc<CostMeter>,
    prices: &PriceTable,
) -> Result<Arc<dyn ChatModel>, ConfigError> {
    let metered = MeteredModel::new(
        raw_provider(config)?,
        prices.price(&config.model),
        meter.clone(),
    );
    Ok(speaking(config.tool_protocol, Arc::new(metered)))
}

fn raw_provider(config: &ProviderConfig) -> Result<Arc<dyn ChatModel>, ConfigError> {
    Ok(match config.provider {
        ProviderKind::OpenAi => Arc::new(OpenAiModel::new(config)?),
        ProviderKind::Anthropic => Arc::new(AnthropicModel::new(config)?),
    })
}

/// `model` speaking `protocol`: native tool calls (warning about calls
/// written as text), native calls and calls taken from text, or the text
/// ReAct protocol.
pub fn speaking(protocol: ToolProtocol, model: Arc<dyn ChatModel>) -> Arc<dyn ChatModel> {
    match protocol {
        ToolProtocol::Native => Arc::new(TextCallModel::new(model, TextCalls::Warn)),
        ToolProtocol::Auto => Arc::new(TextCallModel::new(model, TextCalls::Take)),
        ToolProtocol::React => Arc::new(ReactModel::new(model)),
    }
}
