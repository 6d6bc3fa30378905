//! The SDK's `initialize` control request (contract §30): what it adds to
//! the session — its hook callbacks, its in-process MCP servers (the
//! TypeScript SDK names them here, not in `--mcp-config`), the MCP servers it
//! sends here instead of on the command line, a system prompt — and our
//! answer. Every other field it may carry means nothing to AgentHub: each
//! one given is named on stderr, once.
//!
//! It only reads; the session is assembled from it by `session.rs`.

use agenthub::CallbackRegistration;
use serde_json::{json, Map, Value};

/// What an `initialize` request configures.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SdkSetup {
    pub hooks: Vec<CallbackRegistration>,
    /// Names of the SDK's in-process MCP servers.
    pub sdk_mcp_servers: Vec<String>,
    /// `mcpServers`: Claude Code's `mcpServers` object.
    pub mcp_servers: Option<Map<String, Value>>,
    pub system_prompt: Option<String>,
    pub append_system_prompt: Option<String>,
    /// Fields given that AgentHub does not act on.
    pub ignored: Vec<String>,
}

/// The fields read here; `subtype` is the request's own.
const READ: [&str; 8] = [
    "subtype",
    "hooks",
    "sdkMcpServers",
    "sdkMcpServerConfigs",
    "sdkMcpServerManifests",
    "mcpServers",
    "systemPrompt",
    "appendSystemPrompt",
];

impl SdkSetup {
    /// Reads the request; a field of the wrong shape is the error, naming it.
    pub fn read(request: &Map<String, Value>) -> Result<SdkSetup, String> {
        let ignored = request
            .iter()
            .filter(|(key, value)| !READ.contains(&key.as_str()) && !is_empty(value))
            .map(|(key, _)| key.clone())
            .collect();
        Ok(SdkSetup {
            hooks: CallbackRegistration::from_initialize(
                request.get("hooks").unwrap_or(&Value::Null),
            )
            .map_err(|error| format!("`hooks`: {error}"))?,
            sdk_mcp_servers: names(request.get("sdkMcpServers"))?,
            mcp_servers: match request.get("mcpServers") {
                None | Some(Value::Null) => None,
                Some(Value::Object(servers)) => Some(servers.clone()),
                Some(_) => return Err("`mcpServers` must be an object".to_owned()),
            },
            system_prompt: prompt(request.get("systemPrompt"), "systemPrompt")?,
            append_system_prompt: prompt(request.get("appendSystemPrompt"), "appendSystemPrompt")?,
            ignored,
        })
    }

    /// Our answer: AgentHub has no accounts, models list or output styles
    /// to offer; it honours `onFailure` on hook matchers and takes the hooks
    /// and MCP servers sent.
    pub fn answer(&self, commands: &[String]) -> Value {
        let commands: Vec<Value> = commands
            .iter()
            .map(|name| json!({"name": name, "description": "", "argumentHint": ""}))
            .collect();
        let mut answer = json!({
            "commands": commands,
            "agents": [],
            "output_style": "default",
            "available_output_styles": ["default"],
            "models": [],
            "account": {},
            "hook_on_failure_supported": true,
            "claude_code_version": crate::stream_lines::CLAUDE_CODE_PROTOCOL,
        });
        if let Value::Object(fields) = &mut answer {
            if !self.hooks.is_empty() {
                fields.insert("hooks_applied".into(), true.into());
            }
            if self.mcp_servers.is_some() {
                fields.insert("mcp_servers_applied".into(), true.into());
            }
        }
        answer
    }

    /// The MCP servers this request adds, as a `--mcp-config` JSON text:
    /// `mcpServers`, and each in-process server as `{"type": "sdk"}`.
    pub fn mcp_config(&self) -> Option<String> {
        let mut servers = self.mcp_servers.clone().unwrap_or_default();
        for name in &self.sdk_mcp_servers {
            servers.insert(name.clone(), json!({"type": "sdk", "name": name}));
        }
        (!servers.is_empty()).then(|| json!({"mcpServers": servers}).to_string())
    }
}

fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Array(items) => items.is_empty(),
        Value::Object(fields) => fields.is_empty(),
        _ => false,
    }
}

fn names(value: Option<&Value>) -> Result<Vec<String>, String> {
    match value {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| {
                item.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| "`sdkMcpServers` must be an array of names".to_owned())
            })
            .collect(),
        Some(_) => Err("`sdkMcpServers` must be an array of names".to_owned()),
    }
}

/// A prompt as a string, or the TypeScript SDK's array of strings (joined
/// by blank lines).
fn prompt(value: Option<&Value>, key: &str) -> Result<Option<String>, String> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(Value::Array(parts)) => parts
            .iter()
            .map(|part| part.as_str().map(str::to_owned))
            .collect::<Option<Vec<String>>>()
            .map(|parts| Some(parts.join("\n\n")))
            .ok_or_else(|| format!("`{key}` must be a string or an array of strings")),
        Some(_) => Err(format!("`{key}` must be a string or an array of strings")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(request: Value) -> Result<SdkSetup, String> {
        match request {
            Value::Object(fields) => SdkSetup::read(&fields),
            _ => Err("not an object".to_owned()),
        }
    }

    #[test]
    fn the_python_sdks_request_gives_its_hooks() {
        let request = json!({"subtype": "initialize", "hooks": {"PreToolUse": [
            {"matcher": "Bash", "hookCallbackIds": ["hook_0", "hook_1"], "timeout": 30, "onFailure": "block"}
        ]}});
        assert_eq!(
            read(request),
            Ok(SdkSetup {
                hooks: vec![CallbackRegistration {
                    event: "PreToolUse".to_owned(),
                    matcher: Some("Bash".to_owned()),
                    callback_ids: vec!["hook_0".to_owned(), "hook_1".to_owned()],
                    timeout_secs: Some(30.0),
                    on_failure: Some("block".to_owned()),
                }],
                ..SdkSetup::default()
            })
        );
    }

    #[test]
    fn the_typescript_sdks_servers_and_prompt_are_taken_and_the_rest_named() {
        let request = json!({"subtype": "initialize", "hooks": null,
            "sdkMcpServers": ["calc"], "mcpServers": {"files": {"command": "srv"}},
            "systemPrompt": ["You are terse.", "Answer in French."],
            "agents": {"reviewer": {}}, "promptSuggestions": false, "skills": []});
        let setup = read(request).unwrap_or_default();
        assert_eq!(
            (
                setup.system_prompt.as_deref(),
                setup.ignored.clone(),
                setup.mcp_config()
            ),
            (
                Some("You are terse.\n\nAnswer in French."),
                vec!["agents".to_owned(), "promptSuggestions".to_owned()],
                Some(
                    json!({"mcpServers": {"files": {"command": "srv"}, "calc": {"type": "sdk", "name": "calc"}}})
                        .to_string()
                )
            )
        );
    }

    #[test]
    fn a_field_of_the_wrong_shape_is_named() {
        assert_eq!(
            [
                read(json!({"subtype": "initialize", "sdkMcpServers": "calc"})),
                read(json!({"subtype": "initialize", "mcpServers": []})),
                read(json!({"subtype": "initialize", "systemPrompt": 3})),
            ]
            .map(|result| result.err()),
            [
                Some("`sdkMcpServers` must be an array of names".to_owned()),
                Some("`mcpServers` must be an object".to_owned()),
                Some("`systemPrompt` must be a string or an array of strings".to_owned()),
            ]
        );
    }

    #[test]
    fn the_answer_confirms_the_hooks_and_servers_it_took() {
        let setup = SdkSetup {
            hooks: vec![CallbackRegistration {
                event: "Stop".to_owned(),
                matcher: None,
                callback_ids: vec!["hook_0".to_owned()],
                timeout_secs: None,
                on_failure: None,
            }],
            mcp_servers: Some(Map::new()),
            ..SdkSetup::default()
        };
        assert_eq!(
            setup.answer(&["review".to_owned()]),
            json!({
                "commands": [{"name": "review", "description": "", "argumentHint": ""}],
                "agents": [], "output_style": "default", "available_output_styles": ["default"],
                "models": [], "account": {}, "hook_on_failure_supported": true,
                "claude_code_version": "2.1.326", "hooks_applied": true, "mcp_servers_applied": true,
            })
        );
    }
}
