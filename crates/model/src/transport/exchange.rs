//! One attempt of one request: send it, then read its answer as server-sent
//! events, every wait bounded by the request's deadline (and, once the stream
//! started, by the idle limit) and raced against the cancel token.
//!
//! It says whether a failure is worth another attempt ([`Failure::Retryable`]:
//! 429, 5xx, a timeout) but never sleeps or retries itself. It must never call
//! a server that answered "unreachable": only a failure to send is
//! [`ModelError::Transport`].

use super::sse::{SseDecoder, SseError, SseEvent};
use super::{describe_transport, provider_message, retry, StreamAccumulator, TransportSettings};
use crate::{ModelError, ModelEvents};
use futures::StreamExt;
use reqwest::header::{HeaderMap, HeaderValue, CONTENT_TYPE, RETRY_AFTER};
use reqwest::{Client, Response};
use std::future::Future;
use std::time::Duration;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

/// Why an attempt failed, and whether another one may do better.
#[derive(Debug)]
pub(super) enum Failure {
    /// A 429, a 5xx or a timeout: try again after the backoff (or the
    /// provider's `Retry-After`).
    Retryable {
        error: ModelError,
        retry_after: Option<Duration>,
    },
    /// Trying again would not help (or the run was cancelled).
    Final(ModelError),
}

impl From<ModelError> for Failure {
    fn from(error: ModelError) -> Self {
        match error {
            ModelError::Timeout { .. } | ModelError::StreamSilent { .. } => Failure::Retryable {
                error,
                retry_after: None,
            },
            other => Failure::Final(other),
        }
    }
}

/// Everything one request sends; each [`Exchange::once`] is one attempt.
pub(super) struct Exchange<'a> {
    pub(super) client: &'a Client,
    pub(super) settings: &'a TransportSettings,
    pub(super) url: &'a str,
    pub(super) headers: &'a HeaderMap,
    pub(super) body: &'a [u8],
    pub(super) cancel: &'a CancellationToken,
}

/// What bounds the next wait of an attempt.
#[derive(Debug, Clone, Copy)]
struct Clock {
    deadline: Instant,
    request_timeout: Duration,
    stream_idle: Duration,
}

/// Which limit a wait ran into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wait {
    /// Until the answer starts: only the request's deadline.
    Answer,
    /// Between two chunks of a stream that started: the idle limit too.
    NextChunk,
}

impl Clock {
    fn limit(&self, wait: Wait) -> (Instant, ModelError) {
        let timeout = ModelError::Timeout {
            millis: millis(self.request_timeout),
        };
        let idle_end = Instant::now() + self.stream_idle;
        match wait {
            Wait::NextChunk if idle_end < self.deadline => (
                idle_end,
                ModelError::StreamSilent {
                    millis: millis(self.stream_idle),
                },
            ),
            _ => (self.deadline, timeout),
        }
    }
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

impl Exchange<'_> {
    /// One attempt: the answer's events all go to `accumulator`.
    pub(super) async fn once(
        &self,
        accumulator: &mut (dyn StreamAccumulator + Send),
        events: &dyn ModelEvents,
    ) -> Result<(), Failure> {
        let clock = Clock {
            deadline: Instant::now() + self.settings.request_timeout,
            request_timeout: self.settings.request_timeout,
            stream_idle: self.settings.stream_idle,
        };
        let response = self.send(clock).await?;
        self.read_events(clock, response, accumulator, events)
            .await
            .map_err(Failure::from)
    }

    async fn send(&self, clock: Clock) -> Result<Response, Failure> {
        let request = self
            .client
            .post(self.url)
            .headers(self.headers.clone())
            .header(CONTENT_TYPE, HeaderValue::from_static("application/json"))
            .body(self.body.to_vec())
            .send();
        let response = self
            .bounded(clock, Wait::Answer, request)
            .await?
            .map_err(|error| Failure::Final(ModelError::Transport(describe_transport(&error))))?;
        if response.status().is_success() {
            return Ok(response);
        }
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|value| value.to_str().ok())
            .and_then(retry::parse_retry_after);
        let body = self.text(clock, response).await?;
        let error = ModelError::Status {
            status,
            message: provider_message(&body),
        };
        Err(match retry::is_retryable(status) {
            true => Failure::Retryable { error, retry_after },
            false => Failure::Final(error),
        })
    }

    /// Runs `future` unless cancelled first or the limit of `wait` passes.
    async fn bounded<T>(
        &self,
        clock: Clock,
        wait: Wait,
        future: impl Future<Output = T>,
    ) -> Result<T, ModelError> {
        let (until, timed_out) = clock.limit(wait);
        tokio::select! {
            biased;
            () = self.cancel.cancelled() => Err(ModelError::Cancelled),
            outcome = tokio::time::timeout_at(until, future) => outcome.map_err(|_| timed_out),
        }
    }

    /// The body of an answer that is not a stream (an error, or JSON), read
    /// up to [`MAX_RESPONSE_BYTES`].
    async fn text(&self, clock: Clock, response: Response) -> Result<String, ModelError> {
        let mut chunks = response.bytes_stream();
        let mut body = Vec::new();
        while let Some(chunk) = self.bounded(clock, Wait::Answer, chunks.next()).await? {
            let bytes =
                chunk.map_err(|error| ModelError::Interrupted(describe_transport(&error)))?;
            body.extend_from_slice(&bytes);
            within_cap(body.len())?;
        }
        Ok(String::from_utf8_lossy(&body).into_owned())
    }

    async fn read_events(
        &self,
        clock: Clock,
        response: Response,
        accumulator: &mut (dyn StreamAccumulator + Send),
        events: &dyn ModelEvents,
    ) -> Result<(), ModelError> {
        let content_type = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .unwrap_or("")
            .to_owned();
        if content_type.starts_with("application/json") {
            let body = self.text(clock, response).await?;
            return Err(ModelError::Protocol(format!(
                "expected an event stream but the provider answered with JSON: {}",
                provider_message(&body)
            )));
        }
        let mut chunks = response.bytes_stream();
        let mut decoder = SseDecoder::default();
        let mut wait = Wait::Answer;
        let mut received = 0;
        while let Some(chunk) = self.bounded(clock, wait, chunks.next()).await? {
            let bytes =
                chunk.map_err(|error| ModelError::Interrupted(describe_transport(&error)))?;
            wait = Wait::NextChunk;
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

fn protocol(error: SseError) -> ModelError {
    ModelError::Protocol(error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(request_timeout: u64, stream_idle: u64) -> Clock {
        Clock {
            deadline: Instant::now() + Duration::from_secs(request_timeout),
            request_timeout: Duration::from_secs(request_timeout),
            stream_idle: Duration::from_secs(stream_idle),
        }
    }

    #[tokio::test]
    async fn waiting_for_the_answer_to_start_is_bounded_by_the_request_timeout_only() {
        let (_, error) = clock(600, 300).limit(Wait::Answer);
        assert_eq!(error, ModelError::Timeout { millis: 600_000 });
    }

    #[tokio::test]
    async fn a_started_stream_is_bounded_by_the_idle_limit_when_it_comes_first() {
        let (_, error) = clock(600, 300).limit(Wait::NextChunk);
        assert_eq!(error, ModelError::StreamSilent { millis: 300_000 });
    }

    #[tokio::test]
    async fn a_deadline_nearer_than_the_idle_limit_wins_between_chunks() {
        let (_, error) = clock(10, 300).limit(Wait::NextChunk);
        assert_eq!(error, ModelError::Timeout { millis: 10_000 });
    }
}
