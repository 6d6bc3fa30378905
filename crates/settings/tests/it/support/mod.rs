//! Test support: a user config folder and a workspace in a temporary folder,
//! each layer's file, and loading them as a run would.
#![allow(dead_code)] // each test file uses its own subset

use agenthub_settings::{ProjectTrust, Settings, SettingsError, SettingsSources};
use serde_json::json;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

pub struct Layout {
    _dir: TempDir,
    pub user: PathBuf,
    pub workspace: PathBuf,
}

pub fn layout() -> Layout {
    let dir = tempfile::tempdir().unwrap();
    let user = dir.path().join("config/agenthub/settings.json");
    let workspace = dir.path().join("ws");
    std::fs::create_dir_all(workspace.join(".agenthub")).unwrap();
    std::fs::create_dir_all(user.parent().unwrap()).unwrap();
    Layout {
        _dir: dir,
        user,
        workspace,
    }
}

impl Layout {
    pub fn project(&self) -> PathBuf {
        self.workspace.join(".agenthub/settings.json")
    }

    pub fn local(&self) -> PathBuf {
        self.workspace.join(".agenthub/settings.local.json")
    }

    pub fn sources(&self, extra: Option<PathBuf>) -> SettingsSources {
        SettingsSources {
            user: Some(self.user.clone()),
            ..SettingsSources::agenthub_only(&self.workspace, extra.into_iter().collect())
        }
    }

    pub fn load(&self) -> Result<Settings, SettingsError> {
        Settings::load(&self.sources(None), ProjectTrust::Trusted)
    }
}

pub fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
}

pub fn hook_file(matcher: &str, command: &str) -> String {
    json!({"hooks": {"PreToolUse": [{"matcher": matcher, "hooks": [{"type": "command", "command": command}]}]}})
        .to_string()
}

pub fn summary(settings: &Settings) -> Vec<(String, String, String, String)> {
    settings
        .hooks
        .iter()
        .map(|hook| {
            (
                hook.event.to_string(),
                hook.matcher.key().to_owned(),
                hook.command.clone(),
                hook.source
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned(),
            )
        })
        .collect()
}

/// The error of a project file holding `text`, with its path shown as `FILE`.
pub fn error_for(text: &str) -> String {
    let layout = layout();
    write(&layout.project(), text);
    let error = layout.load().unwrap_err();
    error
        .to_string()
        .replace(&layout.project().display().to_string(), "FILE")
}
