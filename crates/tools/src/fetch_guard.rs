//! What a fetch may reach (contract §32): the one reading of a URL's scheme,
//! host and port ([`fetch_destination`]) that the WebFetch tool, the
//! permission policy and the redirect check all use, and the guard through
//! which a fetch tool asks the policy about each redirect it meets.
//!
//! This module never decides whether a host may be reached: the guard is the
//! policy's answer, installed with [`crate::Workspace::with_fetch_guard`].

use agenthub_sandbox::{BadDomain, Destination};
use std::sync::Arc;
use thiserror::Error;

/// What the permission policy says of one URL a fetch would reach.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FetchJudgement {
    /// It may be fetched without asking.
    Allow,
    /// Only a person may allow it (the reason, in words).
    Ask(String),
    /// It is refused (the reason, in words, naming the rule or setting).
    Deny(String),
}

/// The policy's judgement of a URL (given as written); see [`FetchJudgement`].
pub type FetchGuard = Arc<dyn Fn(&str) -> FetchJudgement + Send + Sync>;

/// A URL a fetch tool will not fetch, and why.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BadUrl {
    /// Not an absolute URL at all.
    #[error("{url:?} is not a URL: {why}")]
    NotAUrl {
        /// The URL as written.
        url: String,
        /// What the parser said.
        why: String,
    },
    /// A scheme other than `http` and `https`.
    #[error("{url:?} is a {scheme}: URL; only http and https URLs are fetched")]
    Scheme {
        /// The URL as written.
        url: String,
        /// Its scheme.
        scheme: String,
    },
    /// A URL with a user name or password in it, which would be sent on.
    #[error("{url:?} has a user name or password in it; they are never sent")]
    Credentials {
        /// The URL as written.
        url: String,
    },
    /// A host the domain lists cannot read (or none).
    #[error("{url:?} has no usable host: {why}")]
    Host {
        /// The URL as written.
        url: String,
        /// Why the host cannot be read.
        why: String,
    },
}

/// The parsed URL and where it connects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchTarget {
    /// The URL, parsed (normalised: lower-case scheme and host, punycode).
    pub url: url::Url,
    /// Its host and port (the scheme's default when none is written).
    pub destination: Destination,
}

/// Reads `url` as a fetch tool would: `http` or `https`, a host, no
/// credentials; the destination is what domain lists and rules judge.
pub fn fetch_destination(url: &str) -> Result<FetchTarget, BadUrl> {
    let parsed = url::Url::parse(url).map_err(|error| BadUrl::NotAUrl {
        url: url.to_owned(),
        why: error.to_string(),
    })?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(BadUrl::Scheme {
            url: url.to_owned(),
            scheme: parsed.scheme().to_owned(),
        });
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(BadUrl::Credentials {
            url: url.to_owned(),
        });
    }
    let bad_host = |why: String| BadUrl::Host {
        url: url.to_owned(),
        why,
    };
    let host = parsed
        .host_str()
        .ok_or_else(|| bad_host("it names none".to_owned()))?;
    let port = parsed
        .port_or_known_default()
        .ok_or_else(|| bad_host("no port".to_owned()))?;
    let destination =
        Destination::new(host, port).map_err(|error: BadDomain| bad_host(error.why.to_owned()))?;
    Ok(FetchTarget {
        url: parsed,
        destination,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(url: &str) -> Result<String, String> {
        fetch_destination(url)
            .map(|target| target.destination.to_string())
            .map_err(|error| error.to_string())
    }

    #[test]
    fn a_url_connects_to_its_host_and_port_or_the_schemes_default() {
        assert_eq!(
            [
                read("https://Example.COM/a?b"),
                read("http://example.com"),
                read("http://localhost:8080/x"),
                read("http://[::1]:81/"),
            ],
            [
                Ok("example.com:443".to_owned()),
                Ok("example.com:80".to_owned()),
                Ok("localhost:8080".to_owned()),
                Ok("[::1]:81".to_owned()),
            ]
        );
    }

    #[test]
    fn urls_that_are_not_fetched_say_why() {
        assert_eq!(
            [
                read("example.com"),
                read("file:///etc/passwd"),
                read("https://user:pw@example.com/"),
            ],
            [
                Err("\"example.com\" is not a URL: relative URL without a base".to_owned()),
                Err("\"file:///etc/passwd\" is a file: URL; only http and https URLs are fetched"
                    .to_owned()),
                Err("\"https://user:pw@example.com/\" has a user name or password in it; they are never sent".to_owned()),
            ]
        );
    }
}
