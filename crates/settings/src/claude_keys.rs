//! Top-level keys that come with Claude Code's settings files (docs/hooks.md
//! "Where hooks are configured"): `env` (variables for hooks and tool processes),
//! `claudeSettings` (whether `~/.claude` and `.claude` files are read) and
//! `allowedHttpHookUrls` (where `http` hooks may send the input JSON).
//!
//! Read and checked here; nothing here sets a variable or sends a request.

use serde_json::Value;
use std::collections::BTreeMap;

/// What one file says in these keys.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClaudeKeys {
    /// `env`: variable name → value.
    pub env: BTreeMap<String, String>,
    /// `claudeSettings`: `false` skips Claude Code's own files (user file only).
    pub claude_settings: Option<bool>,
    /// `allowedHttpHookUrls`: URL patterns (`*` wildcard) `http` hooks may call
    /// (user settings only).
    pub allowed_http_hook_urls: Option<Vec<String>>,
}

/// Reads `key` into `keys`; `Err` says what is wrong with the value.
pub(crate) fn read(keys: &mut ClaudeKeys, key: &str, value: &Value) -> Result<(), String> {
    match key {
        "env" => keys.env = env(value)?,
        "claudeSettings" => {
            keys.claude_settings = Some(
                value
                    .as_bool()
                    .ok_or("claudeSettings must be true or false")?,
            )
        }
        _ => keys.allowed_http_hook_urls = Some(urls(value)?),
    }
    Ok(())
}

fn env(value: &Value) -> Result<BTreeMap<String, String>, String> {
    let object = value
        .as_object()
        .ok_or("env must be an object of strings: {\"NAME\": \"value\"}")?;
    object
        .iter()
        .map(|(name, value)| {
            if name.is_empty() || name.contains('=') || name.contains('\0') {
                return Err(format!("env: {name:?} is not a variable name"));
            }
            match value {
                Value::String(text) if !text.contains('\0') => Ok((name.clone(), text.clone())),
                Value::Number(number) => Ok((name.clone(), number.to_string())),
                Value::Bool(flag) => Ok((name.clone(), flag.to_string())),
                _ => Err(format!("env.{name} must be a string")),
            }
        })
        .collect()
}

fn urls(value: &Value) -> Result<Vec<String>, String> {
    value
        .as_array()
        .ok_or("allowedHttpHookUrls must be an array of URL patterns")?
        .iter()
        .map(|item| {
            item.as_str()
                .map(str::to_owned)
                .ok_or_else(|| format!("allowedHttpHookUrls: {item} is not a string"))
        })
        .collect()
}

/// `claudeSettings: false` in an AgentHub user file drops Claude Code's files.
pub(crate) fn without_claude_files(
    sources: &crate::SettingsSources,
    layers: Vec<(crate::LayerKind, crate::FileSettings)>,
) -> Vec<(crate::LayerKind, crate::FileSettings)> {
    let skip = layers.iter().any(|(kind, file)| {
        *kind == crate::LayerKind::User
            && !sources.is_claude_file(&file.path)
            && file.claude.claude_settings == Some(false)
    });
    layers
        .into_iter()
        .filter(|(_, file)| !(skip && sources.is_claude_file(&file.path)))
        .collect()
}

/// `allowedHttpHookUrls` (from user settings, the last that sets it): an
/// `http` hook whose URL it does not list is refused when it runs.
pub(crate) fn restrict_http_hooks(settings: &mut crate::Settings) {
    let Some(allowed) = settings.allowed_http_hook_urls.clone() else {
        return;
    };
    for hook in &mut settings.hooks {
        if let crate::HookHandler::Http(http) = &mut hook.handler {
            if !crate::handler::url_allowed(&http.url, &allowed) {
                http.refused = Some(format!(
                    "{} is not listed in allowedHttpHookUrls of the user settings",
                    http.url
                ));
            }
        }
    }
}
