//! Where the settings layers live (docs/hooks.md "Where hooks are configured"), in merge
//! order. Claude Code's own files (`~/.claude/settings.json`,
//! `.claude/settings.json`, `.claude/settings.local.json`) are layers of the
//! same kinds, each right before its AgentHub counterpart, so that a project
//! set up for Claude Code works without flags. The hooks of Codex
//! (`~/.codex/hooks.json`, `.codex/hooks.json`) and of Gemini CLI
//! (`~/.gemini/settings.json`, `.gemini/settings.json`) are layers too, read
//! in their own formats (contract §21), between the Claude Code and AgentHub files.

use std::path::{Path, PathBuf};

/// Which layer a file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LayerKind {
    /// `~/.claude/settings.json`, `$XDG_CONFIG_HOME/agenthub/settings.json`.
    User,
    /// `<workspace>/.claude/settings.json`, `<workspace>/.agenthub/settings.json`.
    Project,
    /// `<workspace>/.claude/settings.local.json`, `<workspace>/.agenthub/settings.local.json`.
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

/// Whose format a layer's file is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LayerFormat {
    /// AgentHub's, which is Claude Code's.
    Claude,
    /// Codex's `hooks.json`: Claude Code's hook shape, Codex's tool names.
    Codex,
    /// Codex's `config.toml`: only its `[hooks]` tables, in `hooks.json`'s shape.
    CodexToml,
    /// Gemini CLI's `settings.json`: only its `hooks`, with Gemini's event
    /// and tool names.
    Gemini,
}

/// One layer: its kind and its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsLayer {
    /// Which layer, which decides its place in the merge order.
    pub kind: LayerKind,
    /// The file the layer is read from (which may not exist).
    pub path: PathBuf,
    /// The file's format.
    pub format: LayerFormat,
    /// The settings themselves when they were given as JSON text on the
    /// command line (`--settings '{"model": …}'`), not in a file; `path` is
    /// then a name for messages, `--settings (inline JSON)` in the workspace.
    pub inline: Option<String>,
}

/// Whether a `--settings` value is JSON text rather than a file's path: it
/// starts with `{` and no file of that name exists.
pub fn is_inline_json(value: &Path) -> bool {
    value
        .to_str()
        .is_some_and(|text| text.trim_start().starts_with('{'))
        && !value.exists()
}

/// The inputs that decide which files are read. Tests set `user` explicitly
/// instead of changing the environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsSources {
    /// The user file; `None` skips the user layer.
    pub user: Option<PathBuf>,
    /// Claude Code's user file (`~/.claude/settings.json`); `None` skips it.
    pub claude_user: Option<PathBuf>,
    /// Whether the workspace's `.claude/settings*.json` files are read
    /// (`--no-claude-settings` turns them and `claude_user` off).
    pub claude: bool,
    /// The workspace root, whose `.agenthub/` and `.claude/` hold the project
    /// and local files.
    pub workspace: PathBuf,
    /// Each `--settings FILE`, in the order given: unlike the other layers
    /// they must exist. A value that is JSON text (`is_inline_json`) is
    /// the settings themselves.
    pub command_line: Vec<PathBuf>,
    /// The home folder whose `.codex/hooks.json` and `.gemini/settings.json`
    /// are user layers; `None` skips them. Read only with `claude`, as the
    /// workspace's `.codex` and `.gemini` files are.
    pub home: Option<PathBuf>,
}

impl SettingsSources {
    /// The standard layers for `workspace`: the user files (`~/.claude` and
    /// `$XDG_CONFIG_HOME`, default `~/.config`), the workspace's files
    /// (`.claude` ones only when `claude`), then each of `command_line`.
    pub fn standard(workspace: &Path, command_line: Vec<PathBuf>, claude: bool) -> SettingsSources {
        SettingsSources {
            user: user_settings_path(),
            claude_user: claude_user_settings_path(),
            claude,
            workspace: workspace.to_path_buf(),
            command_line,
            home: std::env::var_os("HOME")
                .filter(|home| !home.is_empty())
                .map(PathBuf::from),
        }
    }

    /// Only the AgentHub files of `workspace` (no Claude Code file, no user
    /// file) and `command_line`: for tests and embedders that pick files.
    pub fn agenthub_only(workspace: &Path, command_line: Vec<PathBuf>) -> SettingsSources {
        SettingsSources {
            user: None,
            claude_user: None,
            claude: false,
            workspace: workspace.to_path_buf(),
            command_line,
            home: None,
        }
    }

    /// Whether `path` is one of Claude Code's files (skipped by `claudeSettings: false`).
    pub fn is_claude_file(&self, path: &Path) -> bool {
        self.claude_user.as_deref() == Some(path)
            || path.starts_with(self.workspace.join(".claude"))
    }

    /// Every layer in merge order; missing optional files are skipped by the loader.
    pub fn layers(&self) -> Vec<SettingsLayer> {
        let mut layers = Vec::new();
        let mut push = |kind, path: PathBuf, format| {
            layers.push(SettingsLayer {
                kind,
                path,
                format,
                inline: None,
            })
        };
        if let (Some(claude_user), true) = (&self.claude_user, self.claude) {
            push(LayerKind::User, claude_user.clone(), LayerFormat::Claude);
        }
        if let (Some(home), true) = (&self.home, self.claude) {
            for (path, format) in other_agents(home) {
                push(LayerKind::User, path, format);
            }
        }
        if let Some(user) = &self.user {
            push(LayerKind::User, user.clone(), LayerFormat::Claude);
        }
        let agenthub = self.workspace.join(".agenthub");
        let claude = self.workspace.join(".claude");
        for (kind, name) in [
            (LayerKind::Project, "settings.json"),
            (LayerKind::Local, "settings.local.json"),
        ] {
            if self.claude {
                push(kind, claude.join(name), LayerFormat::Claude);
            }
            if self.claude && kind == LayerKind::Project {
                for (path, format) in other_agents(&self.workspace) {
                    push(kind, path, format);
                }
            }
            push(kind, agenthub.join(name), LayerFormat::Claude);
        }
        for extra in &self.command_line {
            push(LayerKind::CommandLine, extra.clone(), LayerFormat::Claude);
        }
        for layer in &mut layers {
            if layer.kind == LayerKind::CommandLine && is_inline_json(&layer.path) {
                layer.inline = Some(layer.path.to_string_lossy().into_owned());
                layer.path = self.workspace.join("--settings (inline JSON)");
            }
        }
        layers
    }
}

/// Codex's and Gemini CLI's hook files under `folder` (a home or a workspace).
fn other_agents(folder: &Path) -> [(PathBuf, LayerFormat); 3] {
    [
        (folder.join(".codex/hooks.json"), LayerFormat::Codex),
        (folder.join(".codex/config.toml"), LayerFormat::CodexToml),
        (folder.join(".gemini/settings.json"), LayerFormat::Gemini),
    ]
}

/// `~/.claude/settings.json`, Claude Code's user file.
pub fn claude_user_settings_path() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .filter(|home| !home.is_empty())
        .map(|home| PathBuf::from(home).join(".claude").join("settings.json"))
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
    fn layers_are_user_project_local_then_each_command_line_file_claude_codex_gemini_first() {
        let sources = SettingsSources {
            user: Some(PathBuf::from("/home/u/.config/agenthub/settings.json")),
            claude_user: Some(PathBuf::from("/home/u/.claude/settings.json")),
            claude: true,
            workspace: PathBuf::from("/w"),
            command_line: vec![PathBuf::from("/tmp/a.json"), PathBuf::from("/tmp/b.json")],
            home: Some(PathBuf::from("/home/u")),
        };
        let layers: Vec<(LayerKind, String)> = sources
            .layers()
            .into_iter()
            .map(|layer| (layer.kind, layer.path.display().to_string()))
            .collect();
        let expected = [
            (LayerKind::User, "/home/u/.claude/settings.json"),
            (LayerKind::User, "/home/u/.codex/hooks.json"),
            (LayerKind::User, "/home/u/.codex/config.toml"),
            (LayerKind::User, "/home/u/.gemini/settings.json"),
            (LayerKind::User, "/home/u/.config/agenthub/settings.json"),
            (LayerKind::Project, "/w/.claude/settings.json"),
            (LayerKind::Project, "/w/.codex/hooks.json"),
            (LayerKind::Project, "/w/.codex/config.toml"),
            (LayerKind::Project, "/w/.gemini/settings.json"),
            (LayerKind::Project, "/w/.agenthub/settings.json"),
            (LayerKind::Local, "/w/.claude/settings.local.json"),
            (LayerKind::Local, "/w/.agenthub/settings.local.json"),
            (LayerKind::CommandLine, "/tmp/a.json"),
            (LayerKind::CommandLine, "/tmp/b.json"),
        ];
        assert_eq!(
            layers,
            expected
                .iter()
                .map(|(kind, path)| (*kind, path.to_string()))
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn without_claude_only_agenthub_files_are_layers() {
        let sources = SettingsSources {
            claude: false,
            ..SettingsSources::agenthub_only(Path::new("/w"), Vec::new())
        };
        let paths: Vec<PathBuf> = sources
            .layers()
            .into_iter()
            .map(|layer| layer.path)
            .collect();
        assert_eq!(
            paths,
            vec![
                PathBuf::from("/w/.agenthub/settings.json"),
                PathBuf::from("/w/.agenthub/settings.local.json")
            ]
        );
    }
}
