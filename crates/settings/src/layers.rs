//! Where the settings layers live (HOOKS-PROTOCOL.md "Settings"), in merge order.

use std::path::{Path, PathBuf};

/// Which layer a file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LayerKind {
    /// `$XDG_CONFIG_HOME/agenthub/settings.json`.
    User,
    /// `<workspace>/.agenthub/settings.json`.
    Project,
    /// `<workspace>/.agenthub/settings.local.json`.
    Local,
    /// `--settings FILE`.
    CommandLine,
}

impl LayerKind {
    /// The layer's name as shown to a person (`hooks list`, warnings):
    /// `user`, `project`, `local` or `--settings`.
    pub fn as_str(self) -> &'static str {
        match self {
            LayerKind::User => "user",
            LayerKind::Project => "project",
            LayerKind::Local => "local",
            LayerKind::CommandLine => "--settings",
        }
    }
}

/// One layer: its kind and its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsLayer {
    /// Which layer, which decides its place in the merge order.
    pub kind: LayerKind,
    /// The file the layer is read from (which may not exist).
    pub path: PathBuf,
}

/// The inputs that decide which files are read. Tests set `user` explicitly
/// instead of changing the environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsSources {
    /// The user file; `None` skips the user layer.
    pub user: Option<PathBuf>,
    /// The workspace root, whose `.agenthub/` holds the project and local files.
    pub workspace: PathBuf,
    /// `--settings FILE`: unlike the other layers it must exist.
    pub command_line: Option<PathBuf>,
}

impl SettingsSources {
    /// The standard layers for `workspace`: the user file from
    /// `$XDG_CONFIG_HOME` (default `~/.config`), and `command_line` if given.
    pub fn standard(workspace: &Path, command_line: Option<PathBuf>) -> SettingsSources {
        SettingsSources {
            user: user_settings_path(),
            workspace: workspace.to_path_buf(),
            command_line,
        }
    }

    /// Every layer in merge order; missing optional files are skipped by the loader.
    pub fn layers(&self) -> Vec<SettingsLayer> {
        let mut layers = Vec::new();
        if let Some(user) = &self.user {
            layers.push(SettingsLayer {
                kind: LayerKind::User,
                path: user.clone(),
            });
        }
        let folder = self.workspace.join(".agenthub");
        layers.push(SettingsLayer {
            kind: LayerKind::Project,
            path: folder.join("settings.json"),
        });
        layers.push(SettingsLayer {
            kind: LayerKind::Local,
            path: folder.join("settings.local.json"),
        });
        if let Some(extra) = &self.command_line {
            layers.push(SettingsLayer {
                kind: LayerKind::CommandLine,
                path: extra.clone(),
            });
        }
        layers
    }
}

/// `$XDG_CONFIG_HOME/agenthub/settings.json`, else `~/.config/agenthub/settings.json`.
pub fn user_settings_path() -> Option<PathBuf> {
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|value| !value.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".config")))?;
    Some(config.join("agenthub").join("settings.json"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_are_user_project_local_then_command_line() {
        let sources = SettingsSources {
            user: Some(PathBuf::from("/home/u/.config/agenthub/settings.json")),
            workspace: PathBuf::from("/w"),
            command_line: Some(PathBuf::from("/tmp/extra.json")),
        };
        assert_eq!(
            sources.layers(),
            vec![
                SettingsLayer {
                    kind: LayerKind::User,
                    path: PathBuf::from("/home/u/.config/agenthub/settings.json")
                },
                SettingsLayer {
                    kind: LayerKind::Project,
                    path: PathBuf::from("/w/.agenthub/settings.json")
                },
                SettingsLayer {
                    kind: LayerKind::Local,
                    path: PathBuf::from("/w/.agenthub/settings.local.json")
                },
                SettingsLayer {
                    kind: LayerKind::CommandLine,
                    path: PathBuf::from("/tmp/extra.json")
                },
            ]
        );
    }
}
