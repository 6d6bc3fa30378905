//! The handler types of a hook (docs/hooks.md "Handler types"): what a
//! hook runs — a command, an HTTP endpoint, a prompt to the model, a
//! read-only agent, an MCP tool — read and checked here; running them is the
//! hooks crate's job. Nothing here ever runs a hook. An application's
//! hook callbacks (`Callback`) are a handler type too, but no settings file
//! can declare one.

use crate::hook::HandlerSite;
use crate::SettingsError;
use serde_json::{Map, Value};

/// What a hook runs.
#[derive(Debug, Clone, PartialEq)]
pub enum HookHandler {
    /// `type: "command"` (the default): `command`, or `command` + `args`.
    Command,
    /// `type: "http"`: the input JSON is POSTed to a URL.
    Http(HttpHook),
    /// `type: "prompt"`: the configured model is asked `prompt`.
    Prompt {
        /// The question; `$ARGUMENTS` in it is replaced by the input JSON.
        prompt: String,
        /// The model to ask instead of the run's own, when given.
        model: Option<String>,
    },
    /// `type: "agent"`: a read-only subagent (Read, Grep, Glob) is given
    /// `prompt` and answers as a `prompt` hook does (contract §21).
    Agent {
        /// The task; `$ARGUMENTS` in it is replaced by the input JSON.
        prompt: String,
        /// The model to ask instead of the run's own, when given.
        model: Option<String>,
    },
    /// `type: "mcp_tool"`: a tool of a configured MCP server.
    McpTool {
        /// The MCP server's name.
        server: String,
        /// The tool's name on that server.
        tool: String,
        /// The tool's arguments; `${field}` in a string is replaced by that
        /// field of the input JSON.
        input: Value,
    },
    /// A hook callback of the application that started AgentHub (the
    /// Agent SDK's `hook_callback`): the application answers the event
    /// with what a command hook would print. Never read from a settings
    /// file — no `type` names it; only an application registers it
    /// (see [`crate::callback_hooks`]).
    Callback {
        /// The application's id for the callback (`hook_0`).
        id: String,
    },
}

/// An `http` hook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpHook {
    /// Where the input JSON is POSTed.
    pub url: String,
    /// Extra request headers; `$VAR` / `${VAR}` in a value is replaced only
    /// for names listed in `allowed_env_vars`.
    pub headers: Vec<(String, String)>,
    /// `allowedEnvVars`: the environment variables headers may use.
    pub allowed_env_vars: Vec<String>,
    /// Why the hook may not call its URL (`allowedHttpHookUrls` in the user
    /// settings does not list it): it then counts as "could not run".
    pub refused: Option<String>,
}

impl HookHandler {
    /// How a person reads a non-command handler (`[http] URL`); `None` for a command.
    pub fn label(&self) -> Option<String> {
        match self {
            HookHandler::Command => None,
            HookHandler::Http(http) => Some(format!("[http] {}", http.url)),
            HookHandler::Prompt { prompt, .. } => Some(format!("[prompt] {}", first_line(prompt))),
            HookHandler::Agent { prompt, .. } => Some(format!("[agent] {}", first_line(prompt))),
            HookHandler::McpTool { server, tool, .. } => {
                Some(format!("[mcp_tool] mcp__{server}__{tool}"))
            }
            HookHandler::Callback { id } => Some(format!("[callback] {id}")),
        }
    }
}

fn first_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default();
    let short: String = line.chars().take(60).collect();
    if short.len() < text.len() {
        format!("{short}…")
    } else {
        short
    }
}

/// The handler, the text that identifies it (`command` for a command, the
/// URL, the prompt, `mcp__server__tool`) and the keys its type reads.
pub(crate) type Kind = (HookHandler, String, &'static [&'static str]);

/// Reads `type` and the keys of that handler type.
pub(crate) fn parse_kind(
    site: &HandlerSite<'_>,
    object: &Map<String, Value>,
) -> Result<Kind, SettingsError> {
    let kind = match object.get("type") {
        None => "command",
        Some(Value::String(kind)) => kind.as_str(),
        Some(_) => {
            return Err(site.invalid(
                "type",
                "the type must be \"command\", \"http\", \"prompt\", \"agent\" or \"mcp_tool\"",
            ))
        }
    };
    match kind {
        "command" => {
            let command = required(site, object, "command")?;
            Ok((HookHandler::Command, command, &["command", "args"]))
        }
        "http" => http(site, object),
        "prompt" => {
            let prompt = required(site, object, "prompt")?;
            let model = optional(site, object, "model")?;
            Ok((
                HookHandler::Prompt {
                    prompt: prompt.clone(),
                    model,
                },
                prompt,
                &["prompt", "model"],
            ))
        }
        "mcp_tool" => mcp_tool(site, object),
        "agent" => {
            let prompt = required(site, object, "prompt")?;
            let model = optional(site, object, "model")?;
            Ok((
                HookHandler::Agent {
                    prompt: prompt.clone(),
                    model,
                },
                prompt,
                &["prompt", "model"],
            ))
        }
        other => Err(site.invalid(
            "type",
            format!(
                "unknown hook type {other:?}; known types: command, http, prompt, agent, mcp_tool"
            ),
        )),
    }
}

fn http(site: &HandlerSite<'_>, object: &Map<String, Value>) -> Result<Kind, SettingsError> {
    let url = required(site, object, "url")?;
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return Err(site.invalid(
            "url",
            format!("the url must start with http:// or https://, not {url:?}"),
        ));
    }
    let headers = match object.get("headers") {
        None => Vec::new(),
        Some(Value::Object(headers)) => headers
            .iter()
            .map(|(name, value)| match value {
                Value::String(text) => Ok((name.clone(), text.clone())),
                _ => Err(site.invalid(
                    &format!("headers.{name}"),
                    "a header value must be a string",
                )),
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(site.invalid("headers", "headers must be an object of strings")),
    };
    let allowed_env_vars = strings(site, object, "allowedEnvVars")?;
    Ok((
        HookHandler::Http(HttpHook {
            url: url.clone(),
            headers,
            allowed_env_vars,
            refused: None,
        }),
        url,
        &["url", "headers", "allowedEnvVars"],
    ))
}

fn mcp_tool(site: &HandlerSite<'_>, object: &Map<String, Value>) -> Result<Kind, SettingsError> {
    let server = required(site, object, "server")?;
    let tool = required(site, object, "tool")?;
    let input = match object.get("input") {
        None => Value::Object(Map::new()),
        Some(value @ Value::Object(_)) => value.clone(),
        Some(_) => {
            return Err(site.invalid("input", "input must be an object (the tool's arguments)"))
        }
    };
    let label = agenthub_protocol::mcp_tool_name(&server, &tool);
    Ok((
        HookHandler::McpTool {
            server,
            tool,
            input,
        },
        label,
        &["server", "tool", "input"],
    ))
}

fn required(
    site: &HandlerSite<'_>,
    object: &Map<String, Value>,
    key: &str,
) -> Result<String, SettingsError> {
    match object.get(key) {
        Some(Value::String(text)) if !text.trim().is_empty() => Ok(text.clone()),
        Some(Value::String(_)) => Err(site.invalid(key, format!("the {key} is empty"))),
        Some(_) => Err(site.invalid(key, format!("the {key} must be a string"))),
        None => Err(site.invalid("", format!("a hook needs a \"{key}\""))),
    }
}

fn optional(
    site: &HandlerSite<'_>,
    object: &Map<String, Value>,
    key: &str,
) -> Result<Option<String>, SettingsError> {
    match object.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(_) => Err(site.invalid(key, format!("the {key} must be a string"))),
    }
}

fn strings(
    site: &HandlerSite<'_>,
    object: &Map<String, Value>,
    key: &str,
) -> Result<Vec<String>, SettingsError> {
    match object.get(key) {
        None => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(position, item)| {
                item.as_str().map(str::to_owned).ok_or_else(|| {
                    site.invalid(&format!("{key}[{position}]"), "each entry must be a string")
                })
            })
            .collect(),
        Some(_) => Err(site.invalid(key, format!("{key} must be an array of strings"))),
    }
}

/// Whether `url` matches one of `allowed` (`*` matches any run of characters).
pub fn url_allowed(url: &str, allowed: &[String]) -> bool {
    allowed.iter().any(|pattern| wildcard(pattern, url))
}

fn wildcard(pattern: &str, text: &str) -> bool {
    let escaped: Vec<String> = pattern.split('*').map(regex::escape).collect();
    regex::Regex::new(&format!("^{}$", escaped.join(".*")))
        .map(|regex| regex.is_match(text))
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_star_in_an_allowed_url_matches_any_run_of_characters() {
        let allowed = vec!["http://127.0.0.1:*/hooks/*".to_owned()];
        assert_eq!(
            (
                url_allowed("http://127.0.0.1:8080/hooks/guard", &allowed),
                url_allowed("http://evil.example/hooks/guard", &allowed)
            ),
            (true, false)
        );
    }
}
