//! Where a session's subagent definitions come from (contract §17): the user's
//! folders always (`~/.claude/agents/` unless Claude Code's files are off,
//! `~/.config/agenthub/agents/`), the workspace's (`.claude/agents/`,
//! `.agenthub/agents/`) only when the workspace is trusted — a definition
//! names tools and a prompt, so an untrusted checkout must not bring one.
//! A later folder's definition replaces an earlier one of the same name
//! (the folders and their link rule: `folders.rs`; a definition that is a
//! link out of the repository or a plugin's folder is set aside). A
//! definition that cannot be used (its front matter, or hooks that are not
//! valid settings hooks) is set aside with a warning; it never stops the rest.

use crate::Configuration;
use agenthub_core::{AgentDefinition, AgentDefinitions, DefinitionError};
use agenthub_packages::folders::{Folder, Kind};
use agenthub_settings::links::{walk, Shape};
use agenthub_settings::{
    agent_definition_files, CommandHookConfig, ProjectTrust, SetAside, SettingsError,
};
use std::path::PathBuf;

impl Configuration {
    /// The folders read for subagent definitions, in order (later wins).
    pub fn agent_folders(&self) -> Vec<PathBuf> {
        self.definition_folders()
            .into_iter()
            .map(|folder| folder.path)
            .collect()
    }

    /// An enabled plugin's folders, then the user's, then the workspace's.
    fn definition_folders(&self) -> Vec<Folder> {
        let sources = self.sources();
        let plugins = sources.plugin_folders(Kind::Agents);
        let plugins = plugins.into_iter().map(|(_, folder)| folder);
        plugins.chain(sources.own_folders(Kind::Agents)).collect()
    }

    /// The built-in `general-purpose` agent and every definition of
    /// [`Configuration::agent_folders`], and a warning for each file set
    /// aside (naming it, its line and why; a link out of the workspace's
    /// repository or a plugin's folder among them).
    pub fn agent_definitions(&self) -> (AgentDefinitions, Vec<String>) {
        let mut files = Vec::new();
        let mut warnings = Vec::new();
        for folder in self.definition_folders() {
            let found = walk(&folder.path, Shape::Markdown, &folder.links);
            files.extend(found.files);
            warnings.extend(
                found
                    .links_out
                    .iter()
                    .map(|out| format!("subagent definition skipped: {out}")),
            );
            warnings.extend(found.unreadable.into_iter().map(|(file, message)| {
                let error = DefinitionError::Unreadable { file, message };
                format!("{error}; the definition is set aside")
            }));
        }
        let (mut definitions, set_aside) = AgentDefinitions::load(&files);
        warnings.extend(
            set_aside
                .iter()
                .map(|error| format!("{error}; the definition is set aside")),
        );
        let unusable: Vec<(String, String)> = definitions
            .iter()
            .filter_map(|definition| {
                self.unusable_hooks(definition)
                    .map(|why| (definition.name.clone(), why))
            })
            .collect();
        for (name, why) in unusable {
            definitions.remove(&name);
            warnings.push(format!("{why}; the subagent {name:?} is set aside"));
        }
        (definitions, warnings)
    }

    /// Why `definition`'s front-matter hooks cannot be used: they are not
    /// valid settings hooks, or (a workspace's definition) one runs a link
    /// out of the repository (contract §28).
    fn unusable_hooks(&self, definition: &AgentDefinition) -> Option<String> {
        let hooks = match definition_hooks(definition) {
            Ok(hooks) => hooks,
            Err(why) => return Some(why.to_string()),
        };
        let source = definition.source.as_deref()?;
        if !source.starts_with(self.workspace()) {
            return None;
        }
        crate::executed::hooks_link_out(self.workspace(), &hooks).map(|out| {
            format!(
                "a hook of {} runs a link out of the repository: {out}",
                source.display()
            )
        })
    }

    /// The workspace's definition files an untrusted workspace sets aside.
    pub(crate) fn agents_set_aside(&self) -> Vec<SetAside> {
        if self.trust().project_trust() == ProjectTrust::Trusted {
            return Vec::new();
        }
        agent_definition_files(self.workspace())
            .into_iter()
            .map(|name| SetAside {
                item: "subagent definition".to_owned(),
                file: self.workspace().join(name),
            })
            .collect()
    }
}

/// The hooks of a definition's front matter, checked as settings hooks.
pub(crate) fn definition_hooks(
    definition: &AgentDefinition,
) -> Result<Vec<CommandHookConfig>, SettingsError> {
    let Some(hooks) = &definition.hooks else {
        return Ok(Vec::new());
    };
    let file = definition.source.clone().unwrap_or_default();
    agenthub_settings::parse_subagent_hooks(&file, hooks.clone())
}
