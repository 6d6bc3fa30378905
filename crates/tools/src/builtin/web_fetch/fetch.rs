//! One fetch: GET the URL, follow redirects by hand (the client follows
//! none), each hop judged again — a scheme other than http(s) or a denied
//! host is refused, a hop to another host the policy does not allow outright
//! is handed back to the model to fetch with a call of its own (so a person
//! is asked about it, as Claude Code does), a hop within the same host is
//! followed. The body is read in chunks up to a byte cap, never whole.
//!
//! It never decides a host itself: the guard is the permission policy's
//! answer; without one (an embedder's workspace), only same-host redirects
//! are followed.

use crate::fetch_guard::{fetch_destination, BadUrl, FetchGuard, FetchJudgement, FetchTarget};
use reqwest::header::{HeaderValue, ACCEPT, CONTENT_TYPE, LOCATION, USER_AGENT};
use std::sync::{Once, OnceLock};
use std::time::Duration;
use thiserror::Error;

/// The most redirects one fetch follows.
pub const MAX_REDIRECTS: usize = 5;

/// How much one fetch may read and how long it may take.
#[derive(Debug, Clone)]
pub(super) struct Limits {
    pub max_bytes: usize,
    pub timeout: Duration,
}

/// What a fetch ended with.
#[derive(Debug)]
pub(super) enum Fetched {
    /// A page (2xx), read up to the byte cap.
    Page(Page),
    /// A redirect to a host the model must fetch with a call of its own.
    Redirect(Redirect),
}

#[derive(Debug)]
pub(super) struct Page {
    pub url: String,
    pub status: u16,
    pub reason: String,
    pub content_type: Option<String>,
    pub body: Vec<u8>,
    /// The body was longer than the cap: only its start was read.
    pub cut: bool,
}

#[derive(Debug)]
pub(super) struct Redirect {
    pub from: String,
    pub to: String,
    pub status: u16,
    pub reason: String,
}

/// Why a fetch gave no page.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub(super) enum FetchError {
    #[error(transparent)]
    Url(#[from] BadUrl),
    #[error("{from} redirects to {to}, which is not fetched: {error}")]
    RedirectUrl {
        from: String,
        to: String,
        error: BadUrl,
    },
    #[error("{from} redirects to {to}, which is refused: {reason}")]
    Refused {
        from: String,
        to: String,
        reason: String,
    },
    #[error("stopped after {MAX_REDIRECTS} redirects: {from} redirects again, to {to}")]
    TooManyRedirects { from: String, to: String },
    #[error("{url} answered {status} without a Location to follow")]
    NoLocation { url: String, status: u16 },
    #[error("{url} answered {status} {reason}")]
    Status {
        url: String,
        status: u16,
        reason: String,
    },
    #[error("fetching {url} failed: {message}")]
    Request { url: String, message: String },
    #[error("fetching {url} took longer than {seconds} s")]
    Timeout { url: String, seconds: u64 },
}

/// Fetches `url` within `limits`, judging every redirect with `guard`.
pub(super) async fn fetch(
    url: &str,
    guard: Option<&FetchGuard>,
    limits: &Limits,
) -> Result<Fetched, FetchError> {
    let target = fetch_destination(url)?;
    let seconds = limits.timeout.as_secs();
    tokio::time::timeout(limits.timeout, follow(target, guard, limits.max_bytes))
        .await
        .unwrap_or_else(|_| {
            Err(FetchError::Timeout {
                url: url.to_owned(),
                seconds,
            })
        })
}

async fn follow(
    mut target: FetchTarget,
    guard: Option<&FetchGuard>,
    max_bytes: usize,
) -> Result<Fetched, FetchError> {
    let client = client().map_err(|message| FetchError::Request {
        url: target.url.to_string(),
        message,
    })?;
    let mut redirects = 0;
    loop {
        let from = target.url.to_string();
        let request = client
            .get(target.url.clone())
            .header(ACCEPT, "text/markdown, text/html;q=0.9, */*;q=0.8")
            .header(
                USER_AGENT,
                concat!("AgentHub-WebFetch/", env!("CARGO_PKG_VERSION")),
            );
        let response = request.send().await.map_err(|error| FetchError::Request {
            url: from.clone(),
            message: describe(&error),
        })?;
        let status = response.status();
        let reason = status.canonical_reason().unwrap_or("").to_owned();
        if !status.is_redirection() {
            if !status.is_success() {
                return Err(FetchError::Status {
                    url: from,
                    status: status.as_u16(),
                    reason,
                });
            }
            return read_page(response, from, max_bytes)
                .await
                .map(Fetched::Page);
        }
        let to = location(&target, response.headers().get(LOCATION)).ok_or_else(|| {
            FetchError::NoLocation {
                url: from.clone(),
                status: status.as_u16(),
            }
        })?;
        let next = fetch_destination(&to).map_err(|error| FetchError::RedirectUrl {
            from: from.clone(),
            to: to.clone(),
            error,
        })?;
        if redirects == MAX_REDIRECTS {
            return Err(FetchError::TooManyRedirects { from, to });
        }
        match hop(&target, &next, guard) {
            Hop::Follow => {}
            Hop::Leave => {
                return Ok(Fetched::Redirect(Redirect {
                    from,
                    to,
                    status: status.as_u16(),
                    reason,
                }))
            }
            Hop::Refuse(reason) => return Err(FetchError::Refused { from, to, reason }),
        }
        redirects += 1;
        target = next;
    }
}

enum Hop {
    Follow,
    Leave,
    Refuse(String),
}

/// A hop within the host the last URL was fetched from is followed unless
/// the policy refuses it; a hop to another host only when the policy
/// allows it outright, else it is left to the model (a refusal refuses).
fn hop(from: &FetchTarget, to: &FetchTarget, guard: Option<&FetchGuard>) -> Hop {
    let same_host = same_origin(from, to);
    match (guard.map(|guard| guard(to.url.as_str())), same_host) {
        (Some(FetchJudgement::Deny(reason)), _) => Hop::Refuse(reason),
        (_, true) | (Some(FetchJudgement::Allow), false) => Hop::Follow,
        (Some(FetchJudgement::Ask(_)) | None, false) => Hop::Leave,
    }
}

/// Whether `to` is where `from` already was: the same scheme, host and
/// port, or the same host moving from `http` to `https` on their default
/// ports. Another port or a step down to `http` is another place, judged as
/// one (an approval of `example.com:443` is not one of `example.com:6379`).
fn same_origin(from: &FetchTarget, to: &FetchTarget) -> bool {
    let upgrade = from.url.scheme() == "http"
        && to.url.scheme() == "https"
        && from.destination.port() == 80
        && to.destination.port() == 443;
    from.destination.host() == to.destination.host()
        && (upgrade
            || (from.url.scheme() == to.url.scheme()
                && from.destination.port() == to.destination.port()))
}

/// The absolute URL a `Location` header names (relative ones against `from`).
fn location(from: &FetchTarget, header: Option<&HeaderValue>) -> Option<String> {
    let text = header?.to_str().ok()?;
    from.url.join(text).ok().map(String::from)
}

async fn read_page(
    mut response: reqwest::Response,
    url: String,
    max_bytes: usize,
) -> Result<Page, FetchError> {
    let status = response.status();
    let content_type = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    let mut body = Vec::new();
    let mut cut = false;
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|error| FetchError::Request {
            url: url.clone(),
            message: describe(&error),
        })?
    {
        let room = max_bytes - body.len();
        if chunk.len() > room {
            body.extend_from_slice(&chunk[..room]);
            cut = true;
            break;
        }
        body.extend_from_slice(&chunk);
    }
    Ok(Page {
        url,
        status: status.as_u16(),
        reason: status.canonical_reason().unwrap_or("").to_owned(),
        content_type,
        body,
        cut,
    })
}

/// One client for the process: no redirects followed, no cookies. rustls
/// needs a crypto provider: `ring`, installed once unless the embedder
/// installed one (as `agenthub_model::transport::http_client` does).
fn client() -> Result<&'static reqwest::Client, String> {
    static CLIENT: OnceLock<Result<reqwest::Client, String>> = OnceLock::new();
    static PROVIDER: Once = Once::new();
    PROVIDER.call_once(|| {
        if rustls::crypto::CryptoProvider::get_default().is_none() {
            let _ = rustls::crypto::ring::default_provider().install_default();
        }
    });
    CLIENT
        .get_or_init(|| {
            reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .map_err(|error| describe(&error))
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// The error and its causes on one line (reqwest's own text omits them).
fn describe(error: &reqwest::Error) -> String {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
