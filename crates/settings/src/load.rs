//! Reads one settings file: JSON syntax (with line and column), then every
//! known key checked for its type, with the JSON path of anything wrong.

use crate::hook::{parse_handler, CommandHookConfig, HandlerSite};
use crate::matcher::Matcher;
use crate::strict_json::StrictError;
use crate::SettingsError;
use agenthub_protocol::HookEvent;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// What one file says, before merging with the other layers.
#[derive(Debug, Clone, Default)]
pub struct FileSettings {
    /// The file these settings were read from.
    pub path: PathBuf,
    /// The file's command hooks, event by event, each event's in file order.
    pub hooks: Vec<CommandHookConfig>,
    /// The raw `permissions` object, for the permission engine.
    pub permissions: Option<Value>,
    /// `disableAllHooks`, when the file sets it.
    pub disable_all_hooks: Option<bool>,
    /// `enabledPlugins` (Claude Code's: `{"name@marketplace": true}`): which
    /// installed plugins this file turns on or off (contract §20).
    pub enabled_plugins: std::collections::BTreeMap<String, bool>,
    /// `model`: the model name for the real provider, when the file sets it.
    pub model: Option<String>,
    /// `provider`: which provider API to speak (`openai`, `anthropic`), when
    /// the file sets it. Checked by the model configuration, not here.
    pub provider: Option<String>,
    /// `baseUrl`: the provider endpoint, when the file sets it.
    pub base_url: Option<String>,
    /// `toolProtocol`: how tool calls travel (`native`, `react`, `auto`),
    /// when the file sets it. Checked by the model configuration, not here.
    pub tool_protocol: Option<String>,
    /// `maxStopContinuations`: how many times Stop hooks may make the model
    /// continue in one run, when the file sets it.
    pub max_stop_continuations: Option<u32>,
    /// `systemPrompt`: replaces the built-in instructions of the system
    /// prompt, when the file sets it.
    pub system_prompt: Option<String>,
    /// `appendSystemPrompt`: text added after the system prompt's
    /// instructions, when the file sets it.
    pub append_system_prompt: Option<String>,
    /// `maxTurns`: the most model requests in one run, when the file sets it.
    pub max_turns: Option<u32>,
    /// `maxParallelAgents`: how many subagents of one message run at the
    /// same time (contract §17), when the file sets it.
    pub max_parallel_agents: Option<u32>,
    /// `approvalTimeout`: how long an ask on a fleet worker waits for an
    /// answer (contract §18), when the file sets it.
    pub approval_timeout: Option<std::time::Duration>,
    /// `contextWindow` and `autoCompactThreshold`, when the file sets them.
    pub budget: crate::ContextBudgetSettings,
    /// `apiTimeoutMs`, `maxOutputTokens`, `retryOnTimeout`, `loopGuard`, `modelPrices`
    /// and `temperature`, when the file sets them.
    pub model_limits: crate::ModelLimitSettings,
    /// The raw `mcpServers` object, for the MCP crate to read.
    pub mcp_servers: Option<Value>,
    /// `sandbox.mode` and `sandbox.network`, when the file sets them.
    pub sandbox: crate::SandboxSettings,
    /// `env`, `claudeSettings` and `allowedHttpHookUrls`, when the file sets them.
    pub claude: crate::claude_keys::ClaudeKeys,
    /// Accepted but ignored content (unknown keys, events AgentHub never fires).
    pub warnings: Vec<String>,
}

/// Top-level keys of Claude Code settings that are silently ignored.
const SILENT_KEYS: &[&str] = &["$schema"];

/// Reads and validates the file at `path`.
pub fn parse_file(path: &Path) -> Result<FileSettings, SettingsError> {
    parse_str(path, &read_text(path)?)
}

/// The text of the JSON file `path`, or why it cannot be read.
pub(crate) fn read_text(path: &Path) -> Result<String, SettingsError> {
    std::fs::read_to_string(path).map_err(|error| SettingsError::Unreadable {
        file: path.to_path_buf(),
        message: error.to_string(),
    })
}

/// `text` (the content of `path`) as JSON, refusing a syntax error or a
/// repeated key with the file, line and column.
pub(crate) fn parse_json(path: &Path, text: &str) -> Result<Value, SettingsError> {
    crate::strict_json::parse(text).map_err(|error| match error {
        StrictError::Syntax(error) => SettingsError::Malformed {
            file: path.to_path_buf(),
            line: error.line(),
            column: error.column(),
            message: without_position(&error),
        },
        StrictError::DuplicateKey {
            path: key,
            line,
            column,
        } => SettingsError::DuplicateKey {
            file: path.to_path_buf(),
            key,
            line,
            column,
        },
    })
}

/// Validates `text` as the content of the settings file `path`.
pub fn parse_str(path: &Path, text: &str) -> Result<FileSettings, SettingsError> {
    parse_value(path, parse_json(path, text)?)
}

/// Validates `value`, read from the settings file `path`.
/// The hooks of a `hooks` value (events to matcher groups) found in `path`,
/// checked as strictly as a settings file's.
pub fn parse_hooks_value(
    path: &Path,
    hooks: Value,
) -> Result<Vec<crate::CommandHookConfig>, SettingsError> {
    Ok(parse_value(path, serde_json::json!({ "hooks": hooks }))?.hooks)
}

/// The hooks of a `hooks` value in the settings files' shape found elsewhere
/// (a subagent definition's front matter in `path`), checked as strictly as a
/// settings file's; a subagent's `Stop` hooks become `SubagentStop` hooks, as
/// Claude Code runs them when that subagent stops.
pub fn parse_subagent_hooks(
    path: &Path,
    hooks: Value,
) -> Result<Vec<crate::CommandHookConfig>, SettingsError> {
    let mut parsed = parse_hooks_value(path, hooks)?;
    for hook in &mut parsed {
        if hook.event == crate::HookEvent::Stop {
            hook.event = crate::HookEvent::SubagentStop;
        }
    }
    Ok(parsed)
}

pub(crate) fn parse_value(path: &Path, value: Value) -> Result<FileSettings, SettingsError> {
    let reader = Reader { file: path };
    let object = value
        .as_object()
        .ok_or_else(|| reader.invalid("$", "the settings must be a JSON object"))?;
    let mut settings = FileSettings {
        path: path.to_path_buf(),
        ..FileSettings::default()
    };
    for (key, value) in object {
        reader.top_level(key, value, &mut settings)?;
    }
    // JSON objects carry no order: list hooks event by event, each event's in file order.
    settings.hooks.sort_by_key(|hook| (hook.event, hook.index));
    Ok(settings)
}

/// serde_json's message without its own " at line L column C" suffix.
fn without_position(error: &serde_json::Error) -> String {
    let text = error.to_string();
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    text.strip_suffix(&suffix)
        .map(str::to_owned)
        .unwrap_or(text)
}

struct Reader<'a> {
    file: &'a Path,
}

impl Reader<'_> {
    fn invalid(&self, path: &str, message: impl Into<String>) -> SettingsError {
        SettingsError::Invalid {
            file: self.file.to_path_buf(),
            path: path.to_owned(),
            message: message.into(),
        }
    }

    fn top_level(
        &self,
        key: &str,
        value: &Value,
        settings: &mut FileSettings,
    ) -> Result<(), SettingsError> {
        match key {
            "hooks" => self.hooks(value, settings)?,
            "permissions" => {
                if !value.is_object() {
                    return Err(self.invalid(key, "permissions must be an object"));
                }
                settings.permissions = Some(value.clone());
            }
            "disableAllHooks" => {
                let flag = value
                    .as_bool()
                    .ok_or_else(|| self.invalid(key, "disableAllHooks must be true or false"))?;
                settings.disable_all_hooks = Some(flag);
            }
            "enabledPlugins" => {
                settings.enabled_plugins = self.flags(key, value)?;
            }
            "model" => settings.model = Some(self.string(key, value)?),
            "provider" => settings.provider = Some(self.string(key, value)?),
            "toolProtocol" => settings.tool_protocol = Some(self.string(key, value)?),
            "baseUrl" => settings.base_url = Some(self.string(key, value)?),
            "maxStopContinuations" => {
                settings.max_stop_continuations = Some(self.count(key, value, 0)?);
            }
            "maxTurns" => settings.max_turns = Some(self.count(key, value, 1)?),
            "maxParallelAgents" => settings.max_parallel_agents = Some(self.count(key, value, 1)?),
            "approvalTimeout" => {
                settings.approval_timeout = Some(
                    crate::approval_timeout::parse(value)
                        .map_err(|message| self.invalid(key, message))?,
                )
            }
            "systemPrompt" => settings.system_prompt = Some(self.string(key, value)?),
            "appendSystemPrompt" => settings.append_system_prompt = Some(self.string(key, value)?),
            "contextWindow" | "autoCompactThreshold" => {
                crate::budget::read(&mut settings.budget, key, value)
                    .map_err(|message| self.invalid(key, message))?
            }
            "apiTimeoutMs" | "maxOutputTokens" | "retryOnTimeout" | "loopGuard" | "modelPrices"
            | "temperature" => crate::model_limits::read(&mut settings.model_limits, key, value)
                .map_err(|(path, message)| self.invalid(&path, message))?,
            "mcpServers" => {
                if !value.is_object() {
                    return Err(
                        self.invalid(key, "mcpServers must be an object keyed by server name")
                    );
                }
                settings.mcp_servers = Some(value.clone());
            }
            "sandbox" => {
                settings.sandbox = crate::sandbox::read(value)
                    .map_err(|(path, message)| self.invalid(&path, message))?
            }
            "env" | "claudeSettings" | "allowedHttpHookUrls" => {
                crate::claude_keys::read(&mut settings.claude, key, value)
                    .map_err(|message| self.invalid(key, message))?
            }
            key if SILENT_KEYS.contains(&key) => {}
            _ => settings.warnings.push(format!(
                "{}: unknown key {key:?} ignored",
                self.file.display()
            )),
        }
        Ok(())
    }

    /// An object of `true`/`false` values.
    fn flags(
        &self,
        key: &str,
        value: &Value,
    ) -> Result<std::collections::BTreeMap<String, bool>, SettingsError> {
        let object = value
            .as_object()
            .ok_or_else(|| self.invalid(key, "must be an object of true or false"))?;
        object
            .iter()
            .map(|(name, flag)| {
                flag.as_bool()
                    .map(|flag| (name.clone(), flag))
                    .ok_or_else(|| self.invalid(&format!("{key}.{name}"), "must be true or false"))
            })
            .collect()
    }

    fn string(&self, key: &str, value: &Value) -> Result<String, SettingsError> {
        value
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| self.invalid(key, format!("{key} must be a string")))
    }

    /// A whole number from `least` up that fits a `u32`.
    fn count(&self, key: &str, value: &Value, least: u32) -> Result<u32, SettingsError> {
        value
            .as_u64()
            .and_then(|count| u32::try_from(count).ok())
            .filter(|count| *count >= least)
            .ok_or_else(|| {
                self.invalid(
                    key,
                    format!("{key} must be a whole number, {least} or more"),
                )
            })
    }

    fn hooks(&self, value: &Value, settings: &mut FileSettings) -> Result<(), SettingsError> {
        let events = value
            .as_object()
            .ok_or_else(|| self.invalid("hooks", "hooks must be an object keyed by event name"))?;
        for (name, groups) in events {
            match HookEvent::parse(name) {
                Some(event) => self.event(event, groups, settings)?,
                None if crate::event::is_claude_code_only(name) => settings.warnings.push(format!(
                    "{}: hooks.{name}: AgentHub never fires {name}; these hooks are ignored",
                    self.file.display()
                )),
                None => {
                    let known: Vec<&str> =
                        HookEvent::ALL.iter().map(|event| event.as_str()).collect();
                    return Err(self.invalid(
                        &format!("hooks.{name}"),
                        format!(
                            "unknown hook event {name:?}; known events: {}",
                            known.join(", ")
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    fn event(
        &self,
        event: HookEvent,
        groups: &Value,
        settings: &mut FileSettings,
    ) -> Result<(), SettingsError> {
        let path = format!("hooks.{event}");
        let groups = groups.as_array().ok_or_else(|| {
            self.invalid(
                &path,
                "an event must list matcher groups: [{\"matcher\": ..., \"hooks\": [...]}]",
            )
        })?;
        let mut index = 0;
        for (position, group) in groups.iter().enumerate() {
            let group_path = format!("{path}[{position}]");
            let object = group.as_object().ok_or_else(|| {
                self.invalid(
                    &group_path,
                    "a matcher group must be an object with \"hooks\"",
                )
            })?;
            let matcher = self.matcher(&group_path, object)?;
            let handlers = match object.get("hooks") {
                Some(Value::Array(handlers)) => handlers,
                Some(_) => {
                    return Err(
                        self.invalid(&format!("{group_path}.hooks"), "hooks must be an array")
                    )
                }
                None => return Err(self.invalid(&group_path, "a matcher group needs \"hooks\"")),
            };
            self.warn_group_keys(&group_path, object, &mut settings.warnings);
            for (slot, handler) in handlers.iter().enumerate() {
                let site = HandlerSite {
                    file: self.file,
                    event,
                    matcher: &matcher,
                    path: format!("{group_path}.hooks[{slot}]"),
                    index,
                };
                if let Some(hook) = parse_handler(site, handler, &mut settings.warnings)? {
                    settings.hooks.push(hook);
                }
                index += 1;
            }
        }
        Ok(())
    }

    fn matcher(
        &self,
        group_path: &str,
        object: &Map<String, Value>,
    ) -> Result<Matcher, SettingsError> {
        let path = format!("{group_path}.matcher");
        let raw = match object.get("matcher") {
            None | Some(Value::Null) => None,
            Some(Value::String(text)) => Some(text.as_str()),
            Some(_) => return Err(self.invalid(&path, "the matcher must be a string")),
        };
        Matcher::parse(raw).map_err(|error| self.invalid(&path, error.to_string()))
    }

    fn warn_group_keys(
        &self,
        group_path: &str,
        object: &Map<String, Value>,
        warnings: &mut Vec<String>,
    ) {
        for key in object
            .keys()
            .filter(|key| !matches!(key.as_str(), "matcher" | "hooks"))
        {
            warnings.push(format!(
                "{}: {group_path}.{key} is unknown and ignored",
                self.file.display()
            ));
        }
    }
}
