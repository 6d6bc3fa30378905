//! OpenAI-compatible Chat Completions, streamed, with native tool calls. Works
//! with OpenAI and with servers that speak the same API (Ollama, vLLM,
//! llama.cpp server, LM Studio) through the base URL.
//!
//! The request builder ([`request`]) and the stream accumulator ([`stream`])
//! are pure; this file only joins them to the transport.

pub mod request;
pub mod stream;

use crate::config::ProviderConfig;
use crate::ids::CallIds;
use crate::transport::HttpTransport;
use crate::{
    ApiKey, AssistantReply, ChatModel, ConfigError, ModelError, ModelEvents, ModelRequest,
};
use futures::future::BoxFuture;
use reqwest::header::{HeaderMap, AUTHORIZATION};
use tokio_util::sync::CancellationToken;

/// A Chat Completions model. `Debug` shows no key.
#[derive(Debug)]
pub struct OpenAiModel {
    model: String,
    max_tokens: u32,
    temperature: Option<f64>,
    url: String,
    transport: HttpTransport,
    key: Option<ApiKey>,
    ids: CallIds,
}

impl OpenAiModel {
    /// A model that posts to `{base_url}/chat/completions` with `config`'s
    /// model, key, `max_tokens`, temperature and transport settings. Nothing is sent until the first
    /// request; only building the HTTP client can fail here.
    pub fn new(config: &ProviderConfig) -> Result<Self, ConfigError> {
        let transport = HttpTransport::new(config.transport, config.api_key.clone())
            .map_err(ConfigError::Client)?;
        Ok(OpenAiModel {
            model: config.model.clone(),
            max_tokens: config.max_tokens,
            temperature: config.temperature,
            url: endpoint(config, "chat/completions"),
            transport,
            key: config.api_key.clone(),
            ids: CallIds::new("call_agenthub"),
        })
    }

    fn headers(&self) -> Result<HeaderMap, ModelError> {
        let mut headers = HeaderMap::new();
        if let Some(key) = &self.key {
            let bearer = format!("Bearer {}", key.expose());
            headers.insert(AUTHORIZATION, HttpTransport::secret_header(&bearer)?);
        }
        Ok(headers)
    }

    async fn ask(
        &self,
        request: ModelRequest<'_>,
        events: &dyn ModelEvents,
        cancel: &CancellationToken,
    ) -> Result<AssistantReply, ModelError> {
        let body = serde_json::to_vec(
            &request::chat_request(&self.model, self.max_tokens, request)
                .with_temperature(self.temperature),
        )
        .map_err(|error| ModelError::Encode(error.to_string()))?;
        let mut accumulator = stream::ChatStream::default();
        self.transport
            .stream(
                &self.url,
                self.headers()?,
                body,
                &mut accumulator,
                events,
                cancel,
            )
            .await?;
        let mut reply = accumulator.finish()?;
        self.ids.assign(request.messages, &mut reply.tool_calls);
        Ok(reply)
    }
}

/// `{base_url}/{path}` with exactly one slash between them.
pub(crate) fn endpoint(config: &ProviderConfig, path: &str) -> String {
    format!("{}/{path}", config.base_url.as_str().trim_end_matches('/'))
}

impl ChatModel for OpenAiModel {
    fn complete<'a>(
        &'a self,
        request: ModelRequest<'a>,
        events: &'a dyn ModelEvents,
        cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, Result<AssistantReply, ModelError>> {
        Box::pin(self.ask(request, events, cancel))
    }
}
