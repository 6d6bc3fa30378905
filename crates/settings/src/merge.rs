//! Merging the layers: hooks appended in layer order (an identical hook from a
//! later file is dropped, so it runs once), scalar keys taken from the last
//! layer that sets them, `permissions` sections kept per file in layer order.

use crate::hook::CommandHookConfig;
use crate::layers::{LayerKind, SettingsSources};
use crate::load::{parse_file, FileSettings};
use crate::SettingsError;
use serde_json::Value;
use std::collections::HashSet;
use std::path::PathBuf;

/// What all the layers say, merged: what an embedder hands on to the hook
/// registry (`hooks`), the permission policy (`permissions`) and the model
/// configuration (`model`, `provider`, `base_url`).
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// The command hooks to register, in order; empty when `disableAllHooks`.
    pub hooks: Vec<CommandHookConfig>,
    /// `disableAllHooks` from the last layer that sets it: when true, no
    /// command hook is registered.
    pub disable_all_hooks: bool,
    /// Each file's raw `permissions` object, in layer order.
    pub permissions: Vec<(PathBuf, Value)>,
    /// `model` from the last layer that sets it: the model name for the real
    /// provider (`--model` and `AGENTHUB_MODEL` take precedence).
    pub model: Option<String>,
    /// `provider` from the last layer that sets it: which provider API to
    /// speak, as written (`openai`, `anthropic`).
    pub provider: Option<String>,
    /// `baseUrl` from the last layer that sets it: the provider endpoint
    /// (`--base-url` and the provider's URL variable take precedence).
    pub base_url: Option<String>,
    /// `maxStopContinuations` from the last layer that sets it: how many
    /// times Stop hooks may make the model continue in one run (the caller's
    /// default applies when `None`).
    pub max_stop_continuations: Option<u32>,
    /// What the user should be told: ignored keys, events, duplicate hooks.
    pub warnings: Vec<String>,
    /// The files that were read, in layer order.
    pub files: Vec<PathBuf>,
}

impl Settings {
    /// Reads every layer of `sources`. Missing user, project and local files
    /// are skipped; a missing `--settings` file is an error.
    ///
    /// ```
    /// use agenthub_settings::{HookEvent, Settings, SettingsSources};
    ///
    /// let workspace = tempfile::tempdir()?;
    /// std::fs::create_dir(workspace.path().join(".agenthub"))?;
    /// std::fs::write(
    ///     workspace.path().join(".agenthub/settings.json"),
    ///     r#"{"model": "gpt-4o", "hooks": {"PreToolUse": [
    ///         {"matcher": "Bash", "hooks": [{"command": "./check.sh"}]}]}}"#,
    /// )?;
    /// let sources = SettingsSources {
    ///     user: None,
    ///     workspace: workspace.path().to_path_buf(),
    ///     command_line: None,
    /// };
    /// let settings = Settings::load(&sources)?;
    /// assert_eq!(settings.model.as_deref(), Some("gpt-4o"));
    /// assert_eq!(settings.hooks[0].event, HookEvent::PreToolUse);
    /// assert_eq!(settings.hooks[0].command, "./check.sh");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn load(sources: &SettingsSources) -> Result<Settings, SettingsError> {
        let mut files = Vec::new();
        for layer in sources.layers() {
            let optional = layer.kind != LayerKind::CommandLine;
            if optional && !layer.path.exists() {
                continue;
            }
            files.push(parse_file(&layer.path)?);
        }
        Ok(Settings::merge(files))
    }

    /// Merges files given in layer order.
    pub fn merge(files: Vec<FileSettings>) -> Settings {
        let mut settings = Settings::default();
        let mut seen = HashSet::new();
        for file in files {
            settings.files.push(file.path.clone());
            settings.warnings.extend(file.warnings);
            for hook in file.hooks {
                if seen.insert(hook.dedupe_key()) {
                    settings.hooks.push(hook);
                }
            }
            if let Some(permissions) = file.permissions {
                settings.permissions.push((file.path.clone(), permissions));
            }
            settings.disable_all_hooks =
                file.disable_all_hooks.unwrap_or(settings.disable_all_hooks);
            later_wins(&mut settings.model, file.model);
            later_wins(&mut settings.provider, file.provider);
            later_wins(&mut settings.base_url, file.base_url);
            later_wins(
                &mut settings.max_stop_continuations,
                file.max_stop_continuations,
            );
        }
        if settings.disable_all_hooks {
            settings.hooks.clear();
        }
        settings
    }
}

fn later_wins<T>(slot: &mut Option<T>, later: Option<T>) {
    if later.is_some() {
        *slot = later;
    }
}
