//! Custom slash commands (contract §20): Markdown files whose body becomes
//! the prompt when the person types `/name args`. The user's folders always
//! (`~/.claude/commands/` unless Claude Code's files are off,
//! `$XDG_CONFIG_HOME/agenthub/commands/`), the workspace's
//! (`.claude/commands/`, `.agenthub/commands/`) only when the workspace is
//! trusted — a command is a prompt with rules attached, so an untrusted
//! checkout must not bring one. A later folder's command replaces an earlier
//! one of the same name. Which folders, and which links their walk may
//! follow, is `folders.rs`'s (contract §28).
//!
//! A file that cannot be read is a warning, never a failed start-up. This
//! module finds and expands commands; it never runs a prompt (the session
//! does, with its UserPromptExpansion hooks first).

mod expand;
mod load;

pub use expand::Expansion;
pub use load::CommandError;
use load::CommandFolder;

use crate::folders::Kind;
use crate::folders::Sources;
use crate::grants::{Active, Granted, Grants, WithRules};
use agenthub_hooks::HookRegistry;
use agenthub_settings::links::LinkRule;
use agenthub_settings::{command_files, ProjectTrust, SetAside, PROJECT_COMMAND_FOLDERS};
use agenthub_tools::Workspace;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One custom command: a Markdown file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomCommand {
    /// The name typed after `/`: the file's name without `.md`, after its
    /// subfolders joined with `:` (`git:commit`).
    pub name: String,
    /// What it does: the front matter's `description`, else the body's
    /// first line.
    pub description: Option<String>,
    /// The arguments it takes, for help (`argument-hint`).
    pub argument_hint: Option<String>,
    /// Allow rules for the prompt it expands to (`allowed-tools`).
    pub allowed_tools: Vec<String>,
    /// The model for that prompt (`model`).
    pub model: Option<String>,
    /// The prompt, with `$ARGUMENTS` and `$1`…`$9` still in it.
    pub body: String,
    /// The file it was read from.
    pub file: PathBuf,
    /// What its inline shell gets in its environment: a plugin command's
    /// `CLAUDE_PLUGIN_ROOT` and `CLAUDE_PLUGIN_DATA`; none for others.
    pub env: Vec<(String, String)>,
}

/// A session's custom commands by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CustomCommands {
    by_name: BTreeMap<String, CustomCommand>,
}

impl CustomCommands {
    /// Every command of `folders`, in order (a later folder's command
    /// replaces an earlier one of the same name), each walked under `links`
    /// (a link out of a trusted tree is set aside, contract §28), and why
    /// each file that could not be read was skipped.
    /// [`Sources::custom_commands`] reads the folders trust allows.
    pub fn load(folders: &[PathBuf], links: &LinkRule) -> (CustomCommands, Vec<CommandError>) {
        let folders: Vec<CommandFolder> = folders
            .iter()
            .map(|folder| CommandFolder::plain(folder.clone(), links.clone()))
            .collect();
        load::load(&folders)
    }

    /// The command named `name` (without the slash).
    pub fn get(&self, name: &str) -> Option<&CustomCommand> {
        self.by_name.get(name)
    }

    /// The commands in name order.
    pub fn iter(&self) -> impl Iterator<Item = &CustomCommand> {
        self.by_name.values()
    }

    /// Whether there is no command.
    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    /// The handle that makes a command's `allowed-tools` hold, the
    /// PermissionRequest hook that applies them (each command's rules added
    /// to the session's own by `with_rules`, judged in `workspace`), and a
    /// warning for each command whose rules do not parse.
    pub fn grants(
        &self,
        with_rules: WithRules<'_>,
        workspace: &Workspace,
    ) -> (Active, HookRegistry, Vec<String>) {
        let rules = self
            .iter()
            .map(|command| Granted {
                name: command.name.clone(),
                file: command.file.clone(),
                rules: command.allowed_tools.clone(),
            })
            .collect();
        let (policies, warnings) = crate::grants::policies(rules, with_rules, "command");
        let active = Active::default();
        let grants = Grants {
            policies,
            active: active.clone(),
            workspace: workspace.clone(),
        };
        (active, grants.into_hooks("command allowed-tools"), warnings)
    }

    /// Adds `command`, replacing one of the same name.
    fn insert(&mut self, command: CustomCommand) {
        self.by_name.insert(command.name.clone(), command);
    }
}

impl Sources<'_> {
    /// The folders read for custom commands, in order (later wins).
    pub fn command_folders(&self) -> Vec<PathBuf> {
        self.own_folders(Kind::Commands)
            .into_iter()
            .map(|folder| folder.path)
            .collect()
    }

    /// Every command of [`Sources::command_folders`], and why each
    /// file that could not be read was skipped (a link out of the workspace's
    /// repository or a plugin's folder among them).
    ///
    /// An enabled plugin's commands come first, as `/plugin:name` and as
    /// `/name` (so the user's and the workspace's own win a shared name).
    pub fn custom_commands(&self) -> (CustomCommands, Vec<CommandError>) {
        let mut folders = Vec::new();
        for (plugin, folder) in self.plugin_folders(Kind::Commands) {
            for prefix in [Vec::new(), vec![plugin.manifest.name.clone()]] {
                folders.push(CommandFolder {
                    path: folder.path.clone(),
                    prefix,
                    plugin: Some(agenthub_settings::HookPlugin {
                        name: plugin.manifest.name.clone(),
                        root: plugin.installed.root.clone(),
                    }),
                    links: folder.links.clone(),
                });
            }
        }
        folders.extend(
            self.own_folders(Kind::Commands)
                .into_iter()
                .map(|folder| CommandFolder::plain(folder.path, folder.links)),
        );
        load::load(&folders)
    }

    /// The workspace's command files an untrusted workspace sets aside.
    pub fn commands_set_aside(&self) -> Vec<SetAside> {
        if self.trust == ProjectTrust::Trusted {
            return Vec::new();
        }
        command_files(self.workspace)
            .into_iter()
            .map(|name| SetAside {
                item: "custom command".to_owned(),
                file: self.workspace.join(name),
            })
            .collect()
    }
}

/// What a workspace's command file adds once trusted, for the review
/// (`agenthub trust --show`): its name, what it does, its `allowed-tools`
/// and `model`. `name` is the file relative to the workspace.
pub fn review_lines(workspace: &Path, name: &str) -> Vec<String> {
    let command_name = PROJECT_COMMAND_FOLDERS
        .iter()
        .find_map(|folder| name.strip_prefix(folder)?.strip_prefix('/'))
        .and_then(|inside| inside.strip_suffix(".md"))
        .map(|inside| inside.replace('/', ":"))
        .unwrap_or_default();
    match load::read(&command_name, &workspace.join(name)) {
        Ok(command) => {
            let tools = match command.allowed_tools.is_empty() {
                true => "none".to_owned(),
                false => command.allowed_tools.join(", "),
            };
            let model = command.model.as_deref().unwrap_or("the session's");
            vec![format!(
                "command /{}: {} (allowed-tools: {tools}; model: {model})",
                command.name,
                command.description.as_deref().unwrap_or("no description")
            )]
        }
        Err(error) => vec![error.to_string()],
    }
}
