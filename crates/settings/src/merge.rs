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

/// Every layer merged.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// The command hooks to register, in order; empty when `disableAllHooks`.
    pub hooks: Vec<CommandHookConfig>,
    pub disable_all_hooks: bool,
    /// Each file's raw `permissions` object, in layer order.
    pub permissions: Vec<(PathBuf, Value)>,
    pub model: Option<String>,
    pub provider: Option<String>,
    pub base_url: Option<String>,
    pub max_stop_continuations: Option<u32>,
    /// What the user should be told: ignored keys, events, duplicate hooks.
    pub warnings: Vec<String>,
    /// The files that were read, in layer order.
    pub files: Vec<PathBuf>,
}

impl Settings {
    /// Reads every layer of `sources`. Missing user, project and local files
    /// are skipped; a missing `--settings` file is an error.
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
