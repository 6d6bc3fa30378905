//! The client side of the fleet (contract §18): `agenthub batch --restate`,
//! `agenthub status` and `agenthub approve` talk to the Restate ingress over
//! HTTP. Submitting a task uses its id as the idempotency key, so a
//! resubmitted task attaches to the invocation already running instead of
//! starting it twice. It must never run a task itself.

use crate::task::TaskSpec;
use crate::worker::{ApproveRequest, Decision, SessionStatus};
use reqwest::{Client, Response, Url};
use serde::de::DeserializeOwned;
use serde_json::Value;
use thiserror::Error;

/// Why a request to the Restate ingress failed.
#[derive(Debug, Error)]
pub enum ClientError {
    /// The ingress URL is not a URL.
    #[error("{url:?} is not an ingress URL: {reason}")]
    BadUrl {
        /// The URL given.
        url: String,
        /// Why it cannot be used.
        reason: String,
    },
    /// Nothing answered at the ingress URL.
    #[error("the Restate server at {url} cannot be reached: {reason} (is `restate-server` running, and is this its ingress URL?)")]
    Unreachable {
        /// The ingress URL.
        url: String,
        /// The connection's error.
        reason: String,
    },
    /// A request body could not be written as JSON.
    #[error("cannot write the request as JSON: {0}")]
    Encode(String),
    /// The server knows no such task, or the task has no such ask.
    #[error("{message}")]
    NotFound {
        /// The server's message.
        message: String,
    },
    /// The server answered an error.
    #[error("the Restate server answered {status}: {message}")]
    Refused {
        /// The HTTP status.
        status: u16,
        /// The server's message.
        message: String,
    },
    /// The answer is not what the handler returns.
    #[error("the Restate server's answer cannot be read: {0}")]
    Unreadable(String),
}

/// The Restate ingress, as the client commands use it.
#[derive(Debug, Clone)]
pub struct Ingress {
    base: Url,
    client: Client,
    secret: Option<String>,
}

impl Ingress {
    /// The ingress at `url` (e.g. `http://127.0.0.1:8080`).
    pub fn new(url: &str) -> Result<Ingress, ClientError> {
        let base = Url::parse(url).map_err(|error| ClientError::BadUrl {
            url: url.to_owned(),
            reason: error.to_string(),
        })?;
        if base.cannot_be_a_base() || !matches!(base.scheme(), "http" | "https") {
            return Err(ClientError::BadUrl {
                url: url.to_owned(),
                reason: "an http:// or https:// URL is needed".to_owned(),
            });
        }
        let client = agenthub::crates::model::transport::http_client()
            .build()
            .map_err(|error| ClientError::Unreachable {
                url: url.to_owned(),
                reason: format!("no HTTP client: {error}"),
            })?;
        Ok(Ingress {
            base,
            client,
            secret: crate::fleet_secret(),
        })
    }

    /// Whether the server answers at all (its ingress health check).
    pub async fn check(&self) -> Result<(), ClientError> {
        let mut url = self.base.clone();
        url.set_path("/restate/health");
        let sent = self.client.get(url).send().await;
        self.answer::<Value>(sent).await.map(|_| ())
    }

    /// Runs `task` on the fleet and waits for its result line.
    pub async fn run(&self, task: &TaskSpec) -> Result<Value, ClientError> {
        let mut request = self
            .signed(&task.id, "run", Some(to_json(task)?))
            .header("idempotency-key", format!("agenthub-task-{}", task.id));
        // The worker's session joins the caller's trace (contract §25).
        if let Some(parent) = agenthub::tracing_export::traceparent() {
            request = request.header("traceparent", parent);
        }
        self.answer(request.send().await).await
    }

    /// The task's session state.
    pub async fn status(&self, id: &str) -> Result<SessionStatus, ClientError> {
        let request = self.signed(id, "status", None);
        self.answer(request.send().await).await
    }

    /// Answers the task's ask about call `call_id`.
    pub async fn approve(
        &self,
        id: &str,
        call_id: &str,
        decision: Decision,
    ) -> Result<(), ClientError> {
        let body = ApproveRequest {
            call_id: call_id.to_owned(),
            decision,
        };
        let request = self.signed(id, "approve", Some(to_json(&body)?));
        self.answer::<Value>(request.send().await).await.map(|_| ())
    }

    /// Cancels the task's running session.
    pub async fn cancel(&self, id: &str) -> Result<(), ClientError> {
        let request = self.signed(id, "cancel", None);
        self.answer::<Value>(request.send().await).await.map(|_| ())
    }

    /// A POST to `handler` of task `id` with `body` (JSON), signed with
    /// `AGENTHUB_FLEET_SECRET` when it is set ([`crate::sign`]).
    fn signed(&self, id: &str, handler: &str, body: Option<Vec<u8>>) -> reqwest::RequestBuilder {
        let mut request = self.client.post(self.handler(id, handler));
        if let Some(secret) = &self.secret {
            let signature = crate::sign(secret, handler, id, body.as_deref().unwrap_or_default());
            request = request.header(crate::SIGNATURE_HEADER, signature);
        }
        match body {
            Some(body) => request
                .header("content-type", "application/json")
                .body(body),
            None => request,
        }
    }

    /// `<ingress>/Session/<id>/<handler>`, the id as one path segment.
    fn handler(&self, id: &str, handler: &str) -> Url {
        let mut url = self.base.clone();
        if let Ok(mut segments) = url.path_segments_mut() {
            segments.pop_if_empty().extend(["Session", id, handler]);
        }
        url
    }

    async fn answer<T: DeserializeOwned>(
        &self,
        sent: Result<Response, reqwest::Error>,
    ) -> Result<T, ClientError> {
        let response = sent.map_err(|error| ClientError::Unreachable {
            url: self.base.to_string(),
            reason: agenthub::crates::model::describe_transport(&error),
        })?;
        let status = response.status();
        let text = response
            .text()
            .await
            .map_err(|error| ClientError::Unreadable(error.to_string()))?;
        if status.is_success() {
            let text = if text.trim().is_empty() {
                "null"
            } else {
                &text
            };
            return serde_json::from_str(text)
                .map_err(|error| ClientError::Unreadable(error.to_string()));
        }
        let message = serde_json::from_str::<Value>(&text)
            .ok()
            .and_then(|body| {
                body.get("message")
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            })
            .unwrap_or(text);
        if status.as_u16() == 404 {
            return Err(ClientError::NotFound { message });
        }
        Err(ClientError::Refused {
            status: status.as_u16(),
            message,
        })
    }
}

/// The JSON a request carries (what is signed, byte for byte).
fn to_json(value: &impl serde::Serialize) -> Result<Vec<u8>, ClientError> {
    serde_json::to_vec(value).map_err(|error| ClientError::Encode(error.to_string()))
}
