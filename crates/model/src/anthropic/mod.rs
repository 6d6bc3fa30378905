//! Anthropic Messages, streamed, with `tool_use` / `tool_result` blocks mapped
//! to and from AgentHub's OpenAI-shaped history.
//!
//! The request translator ([`request`]) and the stream accumulator ([`stream`])
//! are pure; this file only joins them to the transport.

pub mod request;
pub mod stream;

use crate::config::ProviderConfig;
use crate::ids::CallIds;
use crate::openai::endpoint;
use crate::transport::{plain_header, HttpTransport};
use crate::{
    ApiKey, AssistantReply, ChatModel, ConfigError, ModelError, ModelEvents, ModelRequest,
};
use futures::future::BoxFuture;
use reqwest::header::{HeaderMap, HeaderName};
use tokio_util::sync::CancellationToken;

/// The API version every request declares.
pub const ANTHROPIC_VERSION: &str = "2023-06-01";

/// A Messages API model. `Debug` shows no key.
#[derive(Debug)]
pub struct AnthropicModel {
    model: String,
    url: String,
    limits: request::Limits,
    temperature: Option<f64>,
    transport: HttpTransport,
    key: Option<ApiKey>,
    ids: CallIds,
}

impl AnthropicModel {
    /// A model that posts to `{base_url}/v1/messages` with `config`'s model,
    /// key, `max_tokens`, temperature and transport settings. Nothing is sent until the
    /// first request; only building the HTTP client can fail here.
    pub fn new(config: &ProviderConfig) -> Result<Self, ConfigError> {
        let transport = HttpTransport::new(config.transport, config.api_key.clone())
            .map_err(ConfigError::Client)?;
        Ok(AnthropicModel {
            model: config.model.clone(),
            url: endpoint(config, "v1/messages"),
            limits: request::Limits {
                max_tokens: config.max_tokens,
            },
            temperature: config.temperature,
            transport,
            key: config.api_key.clone(),
            ids: CallIds::new("toolu_agenthub"),
        })
    }

    fn headers(&self) -> Result<HeaderMap, ModelError> {
        let mut headers = HeaderMap::new();
        plain_header(&mut headers, "anthropic-version", ANTHROPIC_VERSION)?;
        if let Some(key) = &self.key {
            headers.insert(
                HeaderName::from_static("x-api-key"),
                HttpTransport::secret_header(key.expose())?,
            );
        }
        Ok(headers)
    }

    async fn ask(
        &self,
        request: ModelRequest<'_>,
        events: &dyn ModelEvents,
        cancel: &CancellationToken,
    ) -> Result<AssistantReply, ModelError> {
        let wire = request::messages_request(&self.model, self.limits, request)
            .with_temperature(self.temperature);
        let body =
            serde_json::to_vec(&wire).map_err(|error| ModelError::Encode(error.to_string()))?;
        let mut accumulator = stream::MessagesStream::default();
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

impl ChatModel for AnthropicModel {
    fn complete<'a>(
        &'a self,
        request: ModelRequest<'a>,
        events: &'a dyn ModelEvents,
        cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, Result<AssistantReply, ModelError>> {
        Box::pin(self.ask(request, events, cancel))
    }
}
