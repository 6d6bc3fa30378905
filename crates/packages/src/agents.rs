//! Where a session's subagent definitions come from (contract §17): an
//! enabled plugin's `agents/`, the user's folders always, the workspace's
//! only when it is trusted — a definition names tools and a prompt, so an
//! untrusted checkout must not bring one. A later folder's definition
//! replaces an earlier one of the same name; a file that cannot be read, or
//! a link out of the repository or a plugin's folder, is set aside with a
//! warning and never stops the rest.
//!
//! Whether a definition's hooks may run is the session's to judge (the
//! facade checks them as settings hooks); this module only finds and reads.

use crate::folders::{Folder, Kind, Sources};
use agenthub_core::{AgentDefinitions, DefinitionError};
use agenthub_settings::links::{walk, Shape};
use agenthub_settings::{agent_definition_files, ProjectTrust, SetAside};
use std::path::PathBuf;

impl Sources<'_> {
    /// The folders read for subagent definitions, in order (later wins).
    pub fn agent_folders(&self) -> Vec<PathBuf> {
        self.definition_folders()
            .into_iter()
            .map(|folder| folder.path)
            .collect()
    }

    /// The built-in `general-purpose` agent and every definition of
    /// [`Sources::agent_folders`], and a warning for each file set aside
    /// (naming it, its line and why; a link out of the workspace's
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
        let (definitions, set_aside) = AgentDefinitions::load(&files);
        warnings.extend(
            set_aside
                .iter()
                .map(|error| format!("{error}; the definition is set aside")),
        );
        (definitions, warnings)
    }

    /// The workspace's definition files an untrusted workspace sets aside.
    pub fn agents_set_aside(&self) -> Vec<SetAside> {
        if self.trust == ProjectTrust::Trusted {
            return Vec::new();
        }
        agent_definition_files(self.workspace)
            .into_iter()
            .map(|name| SetAside {
                item: "subagent definition".to_owned(),
                file: self.workspace.join(name),
            })
            .collect()
    }

    /// An enabled plugin's folders, then the user's, then the workspace's.
    fn definition_folders(&self) -> Vec<Folder> {
        let plugins = self.plugin_folders(Kind::Agents);
        let plugins = plugins.into_iter().map(|(_, folder)| folder);
        plugins.chain(self.own_folders(Kind::Agents)).collect()
    }
}
