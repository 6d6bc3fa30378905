//! The thin IO shared by the providers: POST a JSON body, retry 429 and 5xx
//! with backoff, then read the answer as server-sent events and hand each
//! event to the provider's (pure) accumulator, forwarding text as it arrives.
//!
//! Every wait — connecting, the backoff sleep, each chunk of the stream — is
//! raced against the cancel token. One request (sending it and reading its
//! whole answer) is bounded by the request timeout (`API_TIMEOUT_MS`), and a
//! stream that started is bounded by the idle limit between two chunks; a
//! request that timed out is retried like a 5xx, unless the policy says
//! timeouts are not (a loopback server, contract §33). Each retry is told to
//! the caller's [`ModelEvents`]. A server that answered is
//! never reported as unreachable. Nothing here panics, prints or lets the API
//! key into an error message.

mod client;
mod exchange;
pub(crate) mod failure;
mod retry;
pub(crate) mod sse;

pub use client::http_client;
pub(crate) use failure::provider_message;
pub use retry::RetryPolicy;
pub(crate) use sse::SseEvent;

use crate::{ApiKey, ModelError, ModelEvents, Retry};
use exchange::Failure;
pub use failure::describe_transport;
use failure::redact;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use reqwest::Client;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// The default of `API_TIMEOUT_MS` / `apiTimeoutMs`: ten minutes, enough for
/// a CPU model to read a long first prompt.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(600);

/// How long a stream that has started may stay silent before the request fails.
pub const DEFAULT_STREAM_IDLE: Duration = Duration::from_secs(300);

/// The environment variable that bounds one request, in milliseconds.
pub const API_TIMEOUT_VARIABLE: &str = "API_TIMEOUT_MS";

/// Time limits and retries of every request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TransportSettings {
    /// How long one request may take, from sending it to the end of its
    /// answer (`API_TIMEOUT_MS`, settings `apiTimeoutMs`).
    pub request_timeout: Duration,
    /// How long the answer may stay silent once its first chunk arrived.
    pub stream_idle: Duration,
    /// When and how patiently a 429, a 5xx or a timed-out request is tried again.
    pub retry: RetryPolicy,
}

impl Default for TransportSettings {
    fn default() -> Self {
        TransportSettings {
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
            stream_idle: DEFAULT_STREAM_IDLE,
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
    /// Forgets everything taken so far: the request is sent again.
    fn restart(&mut self);
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
            .connect_timeout(settings.request_timeout)
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
    /// A 429, a 5xx or a request that timed out is tried again (with a fresh
    /// accumulator) as the retry policy allows, each retry told to `events`
    /// before its wait.
    pub(crate) async fn stream(
        &self,
        url: &str,
        headers: HeaderMap,
        body: Vec<u8>,
        accumulator: &mut (dyn StreamAccumulator + Send),
        events: &dyn ModelEvents,
        cancel: &CancellationToken,
    ) -> Result<(), ModelError> {
        let exchange = exchange::Exchange {
            client: &self.client,
            settings: &self.settings,
            url,
            headers: &headers,
            body: &body,
            cancel,
        };
        let mut retry = 0;
        loop {
            let failure = match exchange.once(accumulator, events).await {
                Ok(()) => return Ok(()),
                Err(failure) => failure,
            };
            match failure {
                Failure::Retryable { error, retry_after }
                    if retry < self.settings.retry.max_retries
                        && self.settings.retry.may_retry(&error) =>
                {
                    let wait = self.settings.retry.delay(retry, retry_after);
                    events.retrying(&Retry {
                        number: retry + 1,
                        allowed: self.settings.retry.max_retries,
                        wait_millis: u64::try_from(wait.as_millis()).unwrap_or(u64::MAX),
                        error: self.scrub(error),
                    });
                    sleep_unless_cancelled(wait, cancel).await?;
                    accumulator.restart();
                    retry += 1;
                }
                Failure::Retryable { error, .. } | Failure::Final(error) => {
                    return Err(self.scrub(error))
                }
            }
        }
    }

    fn scrub(&self, error: ModelError) -> ModelError {
        let key = self.key.as_ref();
        match error {
            ModelError::Transport(text) => ModelError::Transport(redact(text, key)),
            ModelError::Interrupted(text) => ModelError::Interrupted(redact(text, key)),
            ModelError::Protocol(text) => ModelError::Protocol(redact(text, key)),
            ModelError::Status { status, message } => ModelError::Status {
                status,
                message: redact(message, key),
            },
            other => other,
        }
    }
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
