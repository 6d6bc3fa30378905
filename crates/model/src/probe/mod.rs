//! `agenthub doctor --probe` (SPEC §33): one small Chat Completions request
//! with one tool, to see what a server does with tool calls, `max_tokens`,
//! usage and streaming before a session depends on it.
//!
//! Sends exactly one request, never retried, bounded by the request
//! timeout; only a call of [`PROBE_TOOL`] counts. It speaks the OpenAI
//! protocol only (Anthropic's Messages API always returns calls
//! structured). Like every provider here, it never prints and no error
//! carries the API key.

pub mod report;

use crate::config::{ProviderConfig, ProviderKind};
use crate::openai::endpoint;
use crate::transport::failure::{provider_message, redact};
use crate::transport::sse::{SseDecoder, SseError, SseEvent};
use crate::transport::{describe_transport, http_client};
use crate::ModelError;
use report::rate;
use reqwest::header::AUTHORIZATION;
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use thiserror::Error;

pub use report::{CallShape, Observation, ProbeReport, Verdict};

/// The one tool the probe offers.
pub const PROBE_TOOL: &str = "read_file";

/// Why the probe has no report.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ProbeError {
    /// The provider is Anthropic's Messages API.
    #[error("the probe speaks OpenAI-compatible Chat Completions only; the anthropic provider returns tool calls structured")]
    NotOpenAi,
    /// The request failed: no connection, an HTTP error, a timeout, an
    /// answer that is not Chat Completions.
    #[error(transparent)]
    Request(#[from] ModelError),
}

/// The probe request's body: `max_tokens` from the configuration, one tool.
pub fn probe_body(model: &str, max_tokens: u32) -> Value {
    json!({
        "model": model,
        "max_tokens": max_tokens,
        "stream": true,
        "stream_options": {"include_usage": true},
        "messages": [{
            "role": "user",
            "content": "Read the file notes.txt: call the read_file tool with path \"notes.txt\". Reply with the tool call only."
        }],
        "tools": [{
            "type": "function",
            "function": {
                "name": PROBE_TOOL,
                "description": "Reads a text file and returns its content.",
                "parameters": {
                    "type": "object",
                    "properties": {"path": {"type": "string", "description": "The file's path."}},
                    "required": ["path"]
                }
            }
        }]
    })
}

/// Sends the probe request to `config`'s endpoint and reports what came back.
pub async fn probe(config: &ProviderConfig) -> Result<ProbeReport, ProbeError> {
    if config.provider != ProviderKind::OpenAi {
        return Err(ProbeError::NotOpenAi);
    }
    let limit = config.transport.request_timeout;
    let exchange = tokio::time::timeout(limit, exchange(config));
    let (observation, first_token, generating) =
        exchange.await.map_err(|_| ModelError::Timeout {
            millis: u64::try_from(limit.as_millis()).unwrap_or(u64::MAX),
        })??;
    let tool_calls = observation.shape(PROBE_TOOL);
    Ok(ProbeReport {
        base_url: config.base_url.to_string(),
        model: config.model.clone(),
        key_sent: config.api_key.is_some(),
        max_tokens: config.max_tokens,
        tool_calls,
        tokens_per_second: rate(observation.output_tokens, generating),
        observation,
        first_token,
    })
}

fn unreadable(error: SseError) -> ModelError {
    ModelError::Protocol(error.to_string())
}

/// The observation, the time to the first token, and how long generating took.
type Exchanged = (Observation, Option<Duration>, Option<Duration>);

async fn exchange(config: &ProviderConfig) -> Result<Exchanged, ModelError> {
    let key = config.api_key.as_ref();
    let client = http_client()
        .build()
        .map_err(|error| ModelError::Transport(describe_transport(&error)))?;
    let mut request = client
        .post(endpoint(config, "chat/completions"))
        .json(&probe_body(&config.model, config.max_tokens));
    if let Some(key) = key {
        request = request.header(AUTHORIZATION, format!("Bearer {}", key.expose()));
    }
    let started = Instant::now();
    let mut response = request
        .send()
        .await
        .map_err(|error| ModelError::Transport(redact(describe_transport(&error), key)))?;
    let status = response.status();
    if !status.is_success() {
        let body = response.text().await.unwrap_or_default();
        return Err(ModelError::Status {
            status: status.as_u16(),
            message: redact(provider_message(&body), key),
        });
    }
    let broke =
        |error: reqwest::Error| ModelError::Interrupted(redact(describe_transport(&error), key));
    // Some servers stream with another content type, so the first bytes
    // decide: a JSON body starts with `{`, an event stream does not.
    let mut body: Vec<u8> = Vec::new();
    let mut streamed = None;
    let mut observation = Observation::default();
    let mut decoder = SseDecoder::default();
    let mut first_token = None;
    let mut take = |events: Vec<SseEvent>, observation: &mut Observation| {
        for event in events {
            let Ok(chunk) = serde_json::from_str::<Value>(&event.data) else {
                continue;
            };
            if observation.on_chunk(&chunk) && first_token.is_none() {
                first_token = Some(started.elapsed());
            }
        }
    };
    while let Some(bytes) = response.chunk().await.map_err(broke)? {
        if streamed.is_none() {
            body.extend_from_slice(&bytes);
            let start = body.iter().find(|byte| !byte.is_ascii_whitespace());
            streamed = start.map(|byte| *byte != b'{');
            if streamed != Some(true) {
                continue;
            }
            let events = decoder
                .feed(&std::mem::take(&mut body))
                .map_err(unreadable)?;
            take(events, &mut observation);
        } else if streamed == Some(true) {
            take(decoder.feed(&bytes).map_err(unreadable)?, &mut observation);
        } else {
            body.extend_from_slice(&bytes);
        }
    }
    if streamed != Some(true) {
        let elapsed = started.elapsed();
        let value: Value = serde_json::from_slice(&body).map_err(|error| {
            ModelError::Protocol(format!(
                "the answer is neither an event stream nor JSON: {error}"
            ))
        })?;
        return Ok((Observation::from_body(&value), None, Some(elapsed)));
    }
    take(decoder.finish().map_err(unreadable)?, &mut observation);
    observation.streamed = true;
    let generating = first_token.map(|first| started.elapsed().saturating_sub(first));
    Ok((observation, first_token, generating))
}
