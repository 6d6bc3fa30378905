//! `http` hooks: the event's input JSON is POSTed to the hook's URL, and the
//! answer is read as a command hook's run: a 2xx with an empty body is exit 0,
//! a 2xx with a body is its stdout; any other status, a connection failure or
//! a URL that `allowedHttpHookUrls` does not list means the check could not
//! run. Header values may use `$VAR` only for names in `allowedEnvVars`.
//!
//! One client is shared by every hook of the process, so connections to the
//! same server are reused (see `benches/command_hook.rs`).

use super::runner::{RawRun, RunEnd};
use agenthub_settings::HttpHook;
use serde_json::Value;
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;

fn client() -> Result<&'static reqwest::Client, String> {
    static CLIENT: OnceLock<Result<reqwest::Client, String>> = OnceLock::new();
    CLIENT
        .get_or_init(|| {
            agenthub_model::transport::http_client()
                .build()
                .map_err(|error| format!("no HTTP client: {error}"))
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// POSTs `payload` for `hook`; `env` is the settings' `env`, looked up
/// before the process environment for header variables.
pub async fn post(
    hook: &HttpHook,
    payload: &Value,
    timeout: Duration,
    env: &[(String, String)],
    cancel: &CancellationToken,
) -> RawRun {
    let started = Instant::now();
    let end = |end: RunEnd, stdout: String| RawRun {
        end,
        stdout,
        stderr: String::new(),
        elapsed: started.elapsed(),
    };
    if let Some(reason) = &hook.refused {
        return end(RunEnd::Refused(reason.clone()), String::new());
    }
    let client = match client() {
        Ok(client) => client,
        Err(message) => return end(RunEnd::Refused(message), String::new()),
    };
    let mut request = client
        .post(&hook.url)
        .header("content-type", "application/json")
        .body(payload.to_string());
    for (name, value) in &hook.headers {
        request = request.header(name, expand(value, &hook.allowed_env_vars, env));
    }
    let exchange = async {
        let response = request.send().await?;
        let status = response.status();
        let body = response.text().await?;
        Ok::<_, reqwest::Error>((status, body))
    };
    tokio::select! {
        biased;
        () = cancel.cancelled() => end(RunEnd::Cancelled, String::new()),
        answered = tokio::time::timeout(timeout, exchange) => match answered {
            Err(_) => end(RunEnd::TimedOut(timeout), String::new()),
            Ok(Err(error)) => end(
                RunEnd::Refused(format!("POST {} failed: {}", hook.url, describe(&error))),
                String::new(),
            ),
            Ok(Ok((status, _))) if !status.is_success() => end(
                RunEnd::Refused(format!("POST {} answered {status}", hook.url)),
                String::new(),
            ),
            Ok(Ok((_, body))) => end(RunEnd::Exited(0), body),
        },
    }
}

fn describe(error: &reqwest::Error) -> String {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        text.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    text
}

/// `$NAME` and `${NAME}` in `value` replaced for names in `allowed` (from
/// `env`, then the process environment; empty when unset); other names stay.
pub fn expand(value: &str, allowed: &[String], env: &[(String, String)]) -> String {
    let lookup = |name: &str| {
        env.iter()
            .rev()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.clone())
            .or_else(|| std::env::var(name).ok())
            .unwrap_or_default()
    };
    let mut out = value.to_owned();
    for name in allowed {
        let replacement = lookup(name);
        out = out.replace(&format!("${{{name}}}"), &replacement);
        out = replace_bare(&out, &format!("${name}"), &replacement);
    }
    out
}

fn replace_bare(text: &str, needle: &str, value: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(position) = rest.find(needle) {
        let after = &rest[position + needle.len()..];
        let continues = after
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        out.push_str(&rest[..position]);
        out.push_str(if continues { needle } else { value });
        rest = after;
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_allowed_variables_are_expanded_in_headers() {
        let env = vec![("TOKEN".to_owned(), "s3cret".to_owned())];
        assert_eq!(
            expand("Bearer $TOKEN ${TOKEN} $HOME", &["TOKEN".to_owned()], &env),
            "Bearer s3cret s3cret $HOME"
        );
    }
}
