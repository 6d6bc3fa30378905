//! `mcp_tool` hooks: a tool of a configured MCP server answers the event.
//! The MCP client is the application's: it is injected as an
//! [`McpToolCaller`]; without one, the hook counts as "could not run".
//! The tool's text result is read as a command hook's stdout.

use super::runner::{RawRun, RunEnd};
use super::services::HookServices;
use futures::future::BoxFuture;
use serde_json::Value;
use std::time::{Duration, Instant};

/// Calls one tool of one configured MCP server.
pub trait McpToolCaller: Send + Sync {
    /// Calls `tool` of `server` with `arguments`; `Ok` is the tool's result
    /// (a string, or MCP's `{"content": [{"type": "text", "text": …}]}`).
    fn call<'a>(
        &'a self,
        server: &'a str,
        tool: &'a str,
        arguments: Value,
    ) -> BoxFuture<'a, Result<Value, McpHookCallError>>;
}

/// Why an `mcp_tool` hook's call gave no result.
#[derive(Debug, thiserror::Error)]
pub enum McpHookCallError {
    /// The tool ran and answered with an error (MCP's `isError`): its text.
    #[error("{0}")]
    ToolFailed(String),
    /// The tool could not be called (no such server or tool, the server
    /// is not running, the transport failed).
    #[error(transparent)]
    NotCalled(Box<dyn std::error::Error + Send + Sync>),
}

/// Runs an `mcp_tool` hook on `payload`.
pub(crate) async fn call(
    services: &HookServices,
    server: &str,
    tool: &str,
    input: &Value,
    payload: &Value,
    timeout: Duration,
) -> RawRun {
    let started = Instant::now();
    let ended = |end: RunEnd, stdout: String| RawRun {
        end,
        stdout,
        stderr: String::new(),
        elapsed: started.elapsed(),
    };
    let Some(caller) = &services.mcp else {
        return ended(
            RunEnd::Refused(format!(
                "no MCP client is configured to call mcp__{server}__{tool}"
            )),
            String::new(),
        );
    };
    let arguments = fill(input, payload);
    match tokio::time::timeout(timeout, caller.call(server, tool, arguments)).await {
        Err(_) => ended(RunEnd::TimedOut(timeout), String::new()),
        Ok(Err(message)) => ended(
            RunEnd::Refused(format!(
                "{} failed: {message}",
                agenthub_protocol::mcp_tool_name(server, tool)
            )),
            String::new(),
        ),
        Ok(Ok(result)) => ended(RunEnd::Exited(0), text_of(&result)),
    }
}

/// The text of a tool result: a string as it is, MCP content's text parts
/// joined, anything else as JSON.
fn text_of(result: &Value) -> String {
    if let Value::String(text) = result {
        return text.clone();
    }
    match result.get("content").and_then(Value::as_array) {
        Some(parts) => parts
            .iter()
            .filter_map(|part| part.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        None => result.to_string(),
    }
}

/// `input` with `${field}` (or `${a.b}`) in each string replaced by that
/// field of the input JSON (a string as it is, anything else as JSON).
pub(crate) fn fill(input: &Value, payload: &Value) -> Value {
    match input {
        Value::String(text) => Value::String(substitute(text, payload)),
        Value::Array(items) => Value::Array(items.iter().map(|item| fill(item, payload)).collect()),
        Value::Object(object) => Value::Object(
            object
                .iter()
                .map(|(key, value)| (key.clone(), fill(value, payload)))
                .collect(),
        ),
        other => other.clone(),
    }
}

fn substitute(text: &str, payload: &Value) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        let Some(length) = rest[start..].find('}') else {
            break;
        };
        let field = &rest[start + 2..start + length];
        out.push_str(&rest[..start]);
        let value = field
            .split('.')
            .try_fold(payload, |value, key| value.get(key));
        match value {
            Some(Value::String(text)) => out.push_str(text),
            Some(other) => out.push_str(&other.to_string()),
            None => {}
        }
        rest = &rest[start + length + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fields_of_the_input_json_fill_the_arguments() {
        let payload = json!({"tool_name": "Bash", "tool_input": {"command": "ls"}});
        assert_eq!(
            fill(
                &json!({"text": "${tool_name}: ${tool_input.command}", "n": 1, "missing": "${nope}"}),
                &payload
            ),
            json!({"text": "Bash: ls", "n": 1, "missing": ""})
        );
    }

    #[test]
    fn mcp_text_content_is_joined() {
        assert_eq!(
            text_of(
                &json!({"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]})
            ),
            "a\nb"
        );
    }
}
