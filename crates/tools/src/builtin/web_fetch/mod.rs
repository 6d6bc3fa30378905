//! `WebFetch {url, prompt}` (contract §32): Claude Code's tool, which fetches
//! an `http(s)` URL and returns the prompt's text followed by the content,
//! HTML converted to markdown. Claude Code hands both to a small model;
//! AgentHub returns them to the model that asked.
//!
//! Whether the first URL may be fetched is the permission policy's (rules
//! `WebFetch(domain:…)`, `sandbox.network`'s domain lists); each redirect is
//! put to the same policy through the workspace's fetch guard
//! ([`crate::Workspace::fetch_guard`]) before it is followed (`fetch`). The
//! tool never cuts its result: the pipeline's output cap cuts it and saves
//! it whole (§21). It never sends credentials, cookies or a body.

mod content;
mod fetch;
#[cfg(test)]
mod tests;

use crate::{Tool, ToolCapabilities, ToolContext, ToolEffect, ToolError, ToolOutput};
use fetch::{Fetched, Limits};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use std::time::Duration;

pub use fetch::MAX_REDIRECTS;

/// The most bytes of a response body read; the rest is not downloaded.
pub const MAX_FETCH_BYTES: usize = 10 * 1024 * 1024;

/// How long one fetch (every redirect included) may take.
pub const FETCH_TIMEOUT: Duration = Duration::from_secs(60);

/// WebFetch's input.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(description = "")]
pub struct WebFetchInput {
    /// http(s).
    pub url: String,
    /// What you want from the page.
    pub prompt: String,
}

/// Fetches a URL: GET only, no cookies, redirects followed by the tool
/// itself (at most [`MAX_REDIRECTS`], each judged again).
#[derive(Debug, Clone)]
pub struct WebFetch {
    limits: Limits,
}

impl Default for WebFetch {
    fn default() -> Self {
        WebFetch {
            limits: Limits {
                max_bytes: MAX_FETCH_BYTES,
                timeout: FETCH_TIMEOUT,
            },
        }
    }
}

impl WebFetch {
    /// The same tool reading at most `max_bytes` of a body (tests).
    pub fn with_max_bytes(mut self, max_bytes: usize) -> Self {
        self.limits.max_bytes = max_bytes;
        self
    }
}

impl Tool for WebFetch {
    type Input = WebFetchInput;

    fn name(&self) -> &str {
        "WebFetch"
    }

    fn description(&self) -> &str {
        "Fetches a URL; returns your prompt, then the page (HTML as markdown)."
    }

    /// Fetching, as an editor shows it (ACP `fetch`).
    fn kind(&self) -> crate::ToolKind {
        crate::ToolKind::Fetch
    }

    /// It reaches the network: it asks by default.
    fn effect(&self) -> ToolEffect {
        ToolEffect::SideEffects
    }

    fn capabilities(&self) -> ToolCapabilities {
        ToolCapabilities::none().fetching("url")
    }

    /// Structured output for hooks, as Claude Code's: `{url, code, codeText,
    /// bytes, result}`, or for a redirect left to the model `{url, code,
    /// codeText, redirectUrl}`.
    async fn call(
        &self,
        input: WebFetchInput,
        context: ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let guard = context.workspace.fetch_guard().cloned();
        let fetching = fetch::fetch(&input.url, guard.as_ref(), &self.limits);
        let fetched = tokio::select! {
            biased;
            () = context.cancel.cancelled() => {
                return Err(ToolError::new(format!("fetching {} was cancelled", input.url)))
            }
            fetched = fetching => fetched.map_err(|error| ToolError::new(error.to_string()))?,
        };
        let readable = match &fetched {
            Fetched::Page(page) => {
                content::readable_apart(page.body.clone(), page.content_type.clone()).await
            }
            _ => String::new(),
        };
        Ok(output(&input, fetched, readable))
    }
}

/// The tool's output: `result` is the page as the model reads it.
fn output(input: &WebFetchInput, fetched: Fetched, result: String) -> ToolOutput {
    match fetched {
        Fetched::Page(page) => {
            let cut = match page.cut {
                true => format!(" [only its first {} bytes were read]", page.body.len()),
                false => String::new(),
            };
            let text = format!(
                "{}\n\n[Content of {} ({} {}){cut}]\n{result}",
                input.prompt, page.url, page.status, page.reason
            );
            let structured = json!({
                "url": page.url,
                "code": page.status,
                "codeText": page.reason,
                "bytes": page.body.len(),
                "result": result,
            });
            ToolOutput::with_structured(text, structured)
        }
        Fetched::Redirect(redirect) => {
            let text = format!(
                "REDIRECT: {} redirects ({} {}) to {}, which needs permission of its own. \
                 To fetch it, call WebFetch again with url {:?} and the same prompt.",
                redirect.from, redirect.status, redirect.reason, redirect.to, redirect.to
            );
            let structured = json!({
                "url": redirect.from,
                "code": redirect.status,
                "codeText": redirect.reason,
                "redirectUrl": redirect.to,
            });
            ToolOutput::with_structured(text, structured)
        }
    }
}
