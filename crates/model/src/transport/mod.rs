//! The thin IO shared by the providers: POST a JSON body, retry 429 and 5xx
//! with backoff, then read the answer as server-sent events and hand each
//! event to the provider's (pure) accumulator, forwarding text as it arrives.
//!
//! Every wait — connecting, the backoff sleep, each chunk of the stream — is
//! raced against the cancel token and bounded by the timeout. Nothing here
//! panics, prints or lets the API key into an error message.

mod client;
mod failure;
mod retry;
pub(crate) mod sse;

pub use client::http_client;
pub(crate) use failure::provider_message;
pub use retry::RetryPolicy;
pub(crate) use sse::SseEvent;

use crate::{ApiKey, ModelError, ModelEvents};
pub use failure::describe_transport;
use failure::redact;
use futures::StreamExt;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue, CONTENT_TYPE, RETRY_AFTER};
use reqwest::{Client, Response};
use sse::SseDecoder;
use std::future::Future;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// Time limits and retries of every request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TransportSettings {
    /// How long to wait for the answer to start, and between two chunks of it.
    pub timeout: Duration,
    /// When and how patiently a 429 or 5xx answer is tried again.
    pub retry: RetryPolicy,
}

impl Default for TransportSettings {
    fn default() -> Self {
        TransportSettings {
            timeout: Duration::from_secs(120),
            retry: RetryPolicy::default(),
        }
    }
}

/// A provider's view of a stream: takes each event, says when it has all it needs.
pub(crate) trait StreamAccumulator {
    /// Takes one event; returns assistant text to show the user now, if any.
    fn on_event(&mut self, event: &SseEvent) -> Result<Option<String>, ModelError>;
    /// The provider said the answer is complete; the rest of the stream is not read.
    fn is_done(&self) -> bool;
}

/// An HTTP client for one provider endpoint.
#[derive(Debug)]
pub(crate) struct HttpTransport {
    client: Client,
    settings: TransportSettings,
    key: Option<ApiKey>,
}

impl HttpTransport {
    /// `key` is only used to keep itself out of error messages; the provider
    /// puts it in its headers.
    pub(crate) fn new(settings: TransportSettings, key: Option<ApiKey>) -> Result<Self, String> {
        let client = http_client()
            .connect_timeout(settings.timeout)
            .build()
            .map_err(|error| describe_transport(&error))?;
        Ok(HttpTransport {
            client,
            settings,
            key,
        })
    }

    /// A header carrying the key, marked sensitive so it is never printed.
    pub(crate) fn secret_header(value: &str) -> Result<HeaderValue, ModelError> {
        let mut header = HeaderValue::from_str(value).map_err(|_| {
            ModelError::Encode("the API key contains characters not allowed in a header".into())
        })?;
        header.set_sensitive(true);
        Ok(header)
    }

    /// POSTs `body` to `url` and feeds the event stream to `accumulator`.
    pub(crate) async fn stream(
        &self,
        url: &str,
        headers: HeaderMap,
        body: Vec<u8>,
        accumulator: &mut (dyn StreamAccumulator + Send),
        events: &dyn ModelEvents,
        cancel: &CancellationToken,
    ) -> Result<(), ModelError> {
        let response = self.send_with_retries(url, &headers, &body, cancel).await?;
        self.read_events(response, accumulator, events, cancel)
            .await
            .map_err(|error| self.scrub(error))
    }

    async fn send_with_retries(
        &self,
        url: &str,
        headers: &HeaderMap,
        body: &[u8],
        cancel: &CancellationToken,
    ) -> Result<Response, ModelError> {
        let mut retry = 0;
        loop {
            let request = self
                .client
                .post(url)
                .headers(headers.clone())
                .header(CONTENT_TYPE, HeaderValue::from_static("application/json"))
                .body(body.to_vec())
                .send();
            let response = self.bounded(request, cancel).await?.map_err(|error| {
                ModelError::Transport(redact(describe_transport(&error), self.key.as_ref()))
            })?;
            let status = response.status().as_u16();
            if response.status().is_success() {
                return Ok(response);
            }
            let retry_after = response
                .headers()
                .get(RETRY_AFTER)
                .and_then(|value| value.to_str().ok())
                .and_then(retry::parse_retry_after);
            let body = self.error_body(response, cancel).await?;
            if !retry::is_retryable(status) || retry >= self.settings.retry.max_retries {
                return Err(ModelError::Status {
                    status,
                    message: redact(provider_message(&body), self.key.as_ref()),
                });
            }
            let wait = self.settings.retry.delay(retry, retry_after);
            sleep_unless_cancelled(wait, cancel).await?;
            retry += 1;
        }
    }

    /// Runs `future` unless cancelled first or the timeout passes.
    async fn bounded<T>(
        &self,
        future: impl Future<Output = T>,
        cancel: &CancellationToken,
    ) -> Result<T, ModelError> {
        tokio::select! {
            biased;
            () = cancel.cancelled() => Err(ModelError::Cancelled),
            outcome = tokio::time::timeout(self.settings.timeout, future) => outcome.map_err(|_| {
                ModelError::Transport(format!(
                    "the provider sent nothing for {} s",
                    self.settings.timeout.as_secs_f32()
                ))
            }),
        }
    }

    /// The body of an answer that is not an event stream, read up to
    /// [`MAX_RESPONSE_BYTES`].
    async fn error_body(
        &self,
        response: Response,
        cancel: &CancellationToken,
    ) -> Result<String, ModelError> {
        let mut chunks = response.bytes_stream();
        let mut body = Vec::new();
        while let Some(chunk) = self.bounded(chunks.next(), cancel).await? {
            let Ok(bytes) = chunk else { break };
            body.extend_from_slice(&bytes);
            within_cap(body.len())?;
        }
        Ok(String::from_utf8_lossy(&body).into_owned())
    }

    async fn read_events(
        &self,
        response: Response,
        accumulator: &mut (dyn StreamAccumulator + Send),
        events: &dyn ModelEvents,
        cancel: &CancellationToken,
    ) -> Result<(), ModelError> {
        let content_type = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .unwrap_or("")
            .to_owned();
        if content_type.starts_with("application/json") {
            let body = self.error_body(response, cancel).await?;
            return Err(ModelError::Protocol(format!(
                "expected an event stream but the provider answered with JSON: {}",
                provider_message(&body)
            )));
        }
        let mut chunks = response.bytes_stream();
        let mut decoder = SseDecoder::default();
        let mut received = 0;
        while let Some(chunk) = self.bounded(chunks.next(), cancel).await? {
            let bytes = chunk.map_err(|error| ModelError::Transport(describe_transport(&error)))?;
            received += bytes.len();
            within_cap(received)?;
            let decoded = decoder.feed(&bytes).map_err(protocol)?;
            if deliver(decoded, accumulator, events)? {
                return Ok(());
            }
        }
        deliver(decoder.finish().map_err(protocol)?, accumulator, events)?;
        Ok(())
    }

    fn scrub(&self, error: ModelError) -> ModelError {
        match error {
            ModelError::Transport(text) => ModelError::Transport(redact(text, self.key.as_ref())),
            ModelError::Protocol(text) => ModelError::Protocol(redact(text, self.key.as_ref())),
            other => other,
        }
    }
}

/// The most bytes one model response may have (32 MiB): a provider that
/// sends more (a runaway stream, a line without end) ends the request with a
/// clear error instead of taking the machine's memory.
pub const MAX_RESPONSE_BYTES: usize = 32 * 1024 * 1024;

/// `Err` once a response has passed [`MAX_RESPONSE_BYTES`].
fn within_cap(received: usize) -> Result<(), ModelError> {
    if received > MAX_RESPONSE_BYTES {
        return Err(ModelError::Protocol(format!(
            "the provider's response is larger than {} MiB; AgentHub stopped reading it",
            MAX_RESPONSE_BYTES / (1024 * 1024)
        )));
    }
    Ok(())
}

/// Hands events to the accumulator; `true` once it is done.
fn deliver(
    decoded: Vec<SseEvent>,
    accumulator: &mut (dyn StreamAccumulator + Send),
    events: &dyn ModelEvents,
) -> Result<bool, ModelError> {
    for event in decoded {
        if let Some(text) = accumulator.on_event(&event)? {
            events.text_delta(&text);
        }
        if accumulator.is_done() {
            return Ok(true);
        }
    }
    Ok(false)
}

fn protocol(error: sse::SseError) -> ModelError {
    ModelError::Protocol(error.to_string())
}

async fn sleep_unless_cancelled(
    wait: Duration,
    cancel: &CancellationToken,
) -> Result<(), ModelError> {
    tokio::select! {
        biased;
        () = cancel.cancelled() => Err(ModelError::Cancelled),
        () = tokio::time::sleep(wait) => Ok(()),
    }
}

/// A header from a static name and a value known to be valid.
pub(crate) fn plain_header(
    headers: &mut HeaderMap,
    name: &'static str,
    value: &str,
) -> Result<(), ModelError> {
    let value = HeaderValue::from_str(value)
        .map_err(|_| ModelError::Encode(format!("header {name} has an invalid value")))?;
    headers.insert(HeaderName::from_static(name), value);
    Ok(())
}
