//! A session's subagent definitions (contract §17): found and read by
//! `agenthub-packages` (an enabled plugin's, the user's, the workspace's
//! only when trusted; later wins), then checked here — a definition whose
//! front-matter hooks are not valid settings hooks, or (a workspace's) run a
//! link out of the repository (contract §28), is set aside with a warning;
//! it never stops the rest.

use crate::Configuration;
use agenthub_core::{AgentDefinition, AgentDefinitions};
use agenthub_settings::{CommandHookConfig, SettingsError};
use std::path::PathBuf;

impl Configuration {
    /// The folders read for subagent definitions, in order (later wins).
    pub fn agent_folders(&self) -> Vec<PathBuf> {
        self.sources().agent_folders()
    }

    /// The built-in `general-purpose` agent and every definition of
    /// [`Configuration::agent_folders`], and a warning for each file set
    /// aside (naming it, its line and why; a link out of the workspace's
    /// repository or a plugin's folder among them).
    pub fn agent_definitions(&self) -> (AgentDefinitions, Vec<String>) {
        let (mut definitions, mut warnings) = self.sources().agent_definitions();
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
