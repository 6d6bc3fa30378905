//! The folders a session reads skills, custom commands and subagent
//! definitions from, in the order a later one wins, each with the link rule
//! its walk applies (contract §28, [`agenthub_settings::links`]): an enabled
//! plugin's (links must stay inside the plugin's installed folder), the
//! user's (for skills first the cross-vendor `~/.agents/skills`, then
//! `~/.claude/<kind>` unless Claude Code's files are off, then
//! `$XDG_CONFIG_HOME/agenthub/<kind>`; links followed — they are the user's
//! own files, as in Claude Code), and the workspace's (for skills first
//! `.agents/skills`, then `.claude/<kind>`, `.agenthub/<kind>`) only when
//! it is trusted, links staying inside its repository. The cross-vendor
//! folders (contract §29) sit beside Claude Code's of the same level, before
//! them: a name clash is won by the later folder, as between any two.
//!
//! One function for the three kinds, so no kind can forget trust or the
//! link rule. It never reads a file.

use crate::plugins::EnabledPlugin;
use agenthub_settings::links::{project_tree, LinkRule};
use agenthub_settings::ProjectTrust;
use std::path::{Path, PathBuf};

/// What decides which folders a session reads: its workspace and whether
/// that is trusted, whether Claude Code's files are read, the plugins joined.
#[derive(Debug, Clone, Copy)]
pub struct Sources<'a> {
    /// The workspace root, canonical.
    pub workspace: &'a Path,
    /// Whether the workspace's own configuration acts.
    pub trust: ProjectTrust,
    /// Whether Claude Code's files (`~/.claude/`, `.claude/`) are read.
    pub claude_files: bool,
    /// The plugins joined to the session.
    pub plugins: &'a [EnabledPlugin],
}

/// One folder to walk and the links its walk may follow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Folder {
    /// The folder (or, from a plugin's manifest, one file).
    pub path: PathBuf,
    /// Which links may be followed.
    pub links: LinkRule,
}

/// Which component the folders hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Agent Skills.
    Skills,
    /// Custom slash commands.
    Commands,
    /// Subagent definitions.
    Agents,
}

impl Kind {
    /// The folder's name beside a user settings file.
    fn user_name(self) -> &'static str {
        match self {
            Kind::Skills => "skills",
            Kind::Commands => "commands",
            Kind::Agents => "agents",
        }
    }

    /// The workspace's folders of this kind.
    fn project_folders(self) -> &'static [&'static str] {
        match self {
            Kind::Skills => &agenthub_settings::PROJECT_SKILL_FOLDERS,
            Kind::Commands => &agenthub_settings::PROJECT_COMMAND_FOLDERS,
            Kind::Agents => &agenthub_settings::PROJECT_AGENT_FOLDERS,
        }
    }

    /// The user's cross-vendor folder of this kind under the home folder
    /// (`~/.agents/skills`, read by Codex, Gemini CLI and goose), if any.
    fn cross_vendor_user_folder(self) -> Option<&'static str> {
        (self == Kind::Skills).then_some(".agents/skills")
    }
}

impl Sources<'_> {
    /// The user's folders of `kind`, then the workspace's when trusted, in
    /// order (later wins). A plugin's come first: see [`Self::plugin_folders`].
    pub(crate) fn own_folders(&self, kind: Kind) -> Vec<Folder> {
        let claude = self.claude_files;
        let mut folders = Vec::new();
        if let (Some(home), Some(folder)) = (home(), kind.cross_vendor_user_folder()) {
            folders.push(Folder {
                path: home.join(folder),
                links: LinkRule::FollowAll,
            });
        }
        let user_settings = [
            claude
                .then(agenthub_settings::claude_user_settings_path)
                .flatten(),
            agenthub_settings::user_settings_path(),
        ];
        for settings in user_settings.into_iter().flatten() {
            if let Some(folder) = settings.parent() {
                folders.push(Folder {
                    path: folder.join(kind.user_name()),
                    links: LinkRule::FollowAll,
                });
            }
        }
        if self.trust == ProjectTrust::Trusted {
            let tree = project_tree(self.workspace);
            for folder in kind.project_folders().iter().copied() {
                if claude || !folder.starts_with(".claude") {
                    folders.push(Folder {
                        path: self.workspace.join(folder),
                        links: LinkRule::Inside(tree.clone()),
                    });
                }
            }
        }
        folders
    }

    /// Each enabled plugin's folders of `kind` (from its manifest), with the
    /// plugin: links must stay inside its installed folder.
    pub(crate) fn plugin_folders(&self, kind: Kind) -> Vec<(&EnabledPlugin, Folder)> {
        let mut folders = Vec::new();
        for plugin in self.plugins {
            let paths = match kind {
                Kind::Skills => &plugin.manifest.skills,
                Kind::Commands => &plugin.manifest.commands,
                Kind::Agents => &plugin.manifest.agents,
            };
            for path in paths {
                folders.push((
                    plugin,
                    Folder {
                        path: path.clone(),
                        links: LinkRule::Inside(plugin.installed.root.clone()),
                    },
                ));
            }
        }
        folders
    }
}

/// `$HOME`, when set and not empty.
fn home() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .filter(|home| !home.is_empty())
        .map(PathBuf::from)
}
