//! Where a session's subagent definitions come from (contract §17): the user's
//! folders always (`~/.claude/agents/` unless Claude Code's files are off,
//! `~/.config/agenthub/agents/`), the workspace's (`.claude/agents/`,
//! `.agenthub/agents/`) only when the workspace is trusted — a definition
//! names tools and a prompt, so an untrusted checkout must not bring one.
//! A later folder's definition replaces an earlier one of the same name. A
//! definition that cannot be used (its front matter, or hooks that are not
//! valid settings hooks) is set aside with a warning; it never stops the rest.

use crate::Configuration;
use agenthub_core::{AgentDefinition, AgentDefinitions};
use agenthub_settings::{
    agent_definition_files, CommandHookConfig, ProjectTrust, SetAside, SettingsError,
    PROJECT_AGENT_FOLDERS,
};
use std::path::PathBuf;

impl Configuration {
    /// The folders read for subagent definitions, in order (later wins).
    pub fn agent_folders(&self) -> Vec<PathBuf> {
        let claude = !self.options().no_claude_settings;
        let mut folders = Vec::new();
        if claude {
            folders.extend(claude_user_agents());
        }
        folders.extend(agenthub_user_agents());
        folders.extend(
            self.plugins()
                .iter()
                .flat_map(|plugin| plugin.manifest.agents.clone()),
        );
        if self.trust().project_trust() == ProjectTrust::Trusted {
            for folder in PROJECT_AGENT_FOLDERS {
                if claude || !folder.starts_with(".claude") {
                    folders.push(self.workspace().join(folder));
                }
            }
        }
        folders
    }

    /// The built-in `general-purpose` agent and every definition of
    /// [`Configuration::agent_folders`], and a warning for each file set
    /// aside (naming it, its line and why).
    pub fn agent_definitions(&self) -> (AgentDefinitions, Vec<String>) {
        let (mut definitions, set_aside) = AgentDefinitions::load(&self.agent_folders());
        let mut warnings: Vec<String> = set_aside
            .iter()
            .map(|error| format!("{error}; the definition is set aside"))
            .collect();
        let unusable: Vec<(String, String)> = definitions
            .iter()
            .filter_map(|definition| {
                definition_hooks(definition)
                    .err()
                    .map(|why| (definition.name.clone(), why.to_string()))
            })
            .collect();
        for (name, why) in unusable {
            definitions.remove(&name);
            warnings.push(format!("{why}; the subagent {name:?} is set aside"));
        }
        (definitions, warnings)
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

/// `~/.claude/agents`.
fn claude_user_agents() -> Option<PathBuf> {
    agenthub_settings::claude_user_settings_path()
        .and_then(|settings| settings.parent().map(|folder| folder.join("agents")))
}

/// `$XDG_CONFIG_HOME/agenthub/agents`, else `~/.config/agenthub/agents`.
fn agenthub_user_agents() -> Option<PathBuf> {
    agenthub_settings::user_settings_path()
        .and_then(|settings| settings.parent().map(|folder| folder.join("agents")))
}
