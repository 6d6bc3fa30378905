//! Agent Skills (contract §20): where a session's skills come from and what
//! they are. The user's folders always (the cross-vendor `~/.agents/skills/`,
//! `~/.claude/skills/` unless Claude Code's files are off,
//! `$XDG_CONFIG_HOME/agenthub/skills/`), the workspace's (`.agents/skills/`,
//! `.claude/skills/`, `.agenthub/skills/`) only when the
//! workspace is trusted — a skill tells the model what to do, so an
//! untrusted checkout must not bring one. A later folder's skill replaces
//! an earlier one of the same name. Which folders, and which links their
//! walk may follow, is `folders.rs`'s (contract §28).
//!
//! The system prompt lists each skill's name and description; the
//! [`SkillTool`] returns its body. A skill that cannot be read is a
//! warning, never a failed start-up.

mod load;
mod tool;

pub use load::SkillError;
pub use tool::{SkillInput, SkillTool, SKILL_TOOL};

use crate::folders::Kind;
use crate::folders::Sources;
use crate::grants::{Active, Granted, Grants, WithRules};
use agenthub_core::system_prompt::SkillSummary;
use agenthub_hooks::HookRegistry;
use agenthub_settings::links::LinkRule;
use agenthub_settings::{skill_files, ProjectTrust, SetAside};
use agenthub_tools::{SchemaError, ToolRegistry, Workspace};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// One skill: a folder with a `SKILL.md`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skill {
    /// The name the `Skill` tool loads it by: the front matter's `name`,
    /// else the folder's name.
    pub name: String,
    /// When to use it: the front matter's `description`, else the body's
    /// first line.
    pub description: String,
    /// The front matter's `allowed-tools`, as written: allow rules for the
    /// calls made once the skill is in use (contract §20).
    pub allowed_tools: Option<Vec<String>>,
    /// The instructions after the front matter.
    pub body: String,
    /// The skill's folder, holding `SKILL.md` and any other files.
    pub folder: PathBuf,
}

/// A session's skills by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Skills {
    by_name: BTreeMap<String, Skill>,
}

impl Skills {
    /// Every skill of `folders` (each holds one folder per skill with its
    /// `SKILL.md`), each walked under `links` (a link out of a trusted tree
    /// is set aside, contract §28), and why each that could not be read was
    /// skipped.
    pub fn load(folders: &[PathBuf], links: &LinkRule) -> (Skills, Vec<SkillError>) {
        let folders: Vec<(PathBuf, LinkRule)> = folders
            .iter()
            .map(|folder| (folder.clone(), links.clone()))
            .collect();
        load::load(&folders)
    }

    /// The skill named `name`.
    pub fn get(&self, name: &str) -> Option<&Skill> {
        self.by_name.get(name)
    }

    /// The skills in name order.
    pub fn iter(&self) -> impl Iterator<Item = &Skill> {
        self.by_name.values()
    }

    /// Whether there is no skill.
    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    /// The names, comma-separated, for messages.
    pub fn names(&self) -> String {
        self.by_name.keys().cloned().collect::<Vec<_>>().join(", ")
    }

    /// What the system prompt lists: name and description of each.
    pub fn summaries(&self) -> Vec<SkillSummary> {
        self.iter()
            .map(|skill| SkillSummary {
                name: skill.name.clone(),
                description: skill.description.clone(),
            })
            .collect()
    }

    /// Adds `skill`, replacing one of the same name.
    fn insert(&mut self, skill: Skill) {
        self.by_name.insert(skill.name.clone(), skill);
    }
}

impl Sources<'_> {
    /// The folders read for skills, in order (later wins).
    /// (An enabled plugin's skills come before these: see [`Sources::skills`].)
    pub fn skill_folders(&self) -> Vec<PathBuf> {
        self.own_folders(Kind::Skills)
            .into_iter()
            .map(|folder| folder.path)
            .collect()
    }

    /// Every skill of [`Sources::skill_folders`], and why each skill
    /// that could not be read was skipped (a link out of the workspace's
    /// repository or a plugin's folder among them).
    ///
    /// An enabled plugin's skill goes by its bare name, or `plugin:name` when
    /// an earlier plugin's skill has that name; the user's and the
    /// workspace's own skills come after and win a shared bare name.
    pub fn skills(&self) -> (Skills, Vec<SkillError>) {
        let mut skills = Skills::default();
        let mut errors = Vec::new();
        for (plugin, folder) in self.plugin_folders(Kind::Skills) {
            let (theirs, skipped) = load::load(&[(folder.path, folder.links)]);
            errors.extend(skipped);
            for mut skill in theirs.by_name.into_values() {
                if skills.get(&skill.name).is_some() {
                    skill.name = format!("{}:{}", plugin.manifest.name, skill.name);
                }
                skills.insert(skill);
            }
        }
        let own: Vec<(PathBuf, LinkRule)> = self
            .own_folders(Kind::Skills)
            .into_iter()
            .map(|folder| (folder.path, folder.links))
            .collect();
        let (own, skipped) = load::load(&own);
        errors.extend(skipped);
        for skill in own.by_name.into_values() {
            skills.insert(skill);
        }
        (skills, errors)
    }

    /// The workspace's skills an untrusted workspace sets aside.
    pub fn skills_set_aside(&self) -> Vec<SetAside> {
        if self.trust == ProjectTrust::Trusted {
            return Vec::new();
        }
        skill_files(self.workspace)
            .into_iter()
            .map(|name| SetAside {
                item: "skill".to_owned(),
                file: self.workspace.join(name),
            })
            .collect()
    }
}

/// Registers the Skill tool for `skills` in `tools`; what it returns
/// becomes the hook that applies the `allowed-tools` of the skills it loads
/// once the session's policy is built ([`PendingGrants::hooks`]).
pub fn register(skills: Skills, tools: &mut ToolRegistry) -> Result<PendingGrants, SchemaError> {
    let allowed = skills
        .iter()
        .filter_map(|skill| {
            Some(Granted {
                name: skill.name.clone(),
                file: skill.folder.join(agenthub_settings::SKILL_FILE),
                rules: skill.allowed_tools.clone()?,
            })
        })
        .collect();
    let tool = SkillTool::new(skills);
    let in_use = tool.in_use();
    tools.register(tool)?;
    Ok(PendingGrants { allowed, in_use })
}

/// The skills' `allowed-tools`, waiting for the session's policy.
#[derive(Debug)]
pub struct PendingGrants {
    allowed: Vec<Granted>,
    in_use: Active,
}

impl PendingGrants {
    /// The PermissionRequest hook of the skills' `allowed-tools`: each
    /// skill's rules added to the session's own (`with_rules`), judged in
    /// `workspace`. A skill whose `allowed-tools` do not parse as rules gets
    /// no grants; why is returned as a warning.
    pub fn hooks(
        self,
        with_rules: WithRules<'_>,
        workspace: &Workspace,
    ) -> (HookRegistry, Vec<String>) {
        let (policies, warnings) = crate::grants::policies(self.allowed, with_rules, "skill");
        let grants = Grants {
            policies,
            active: self.in_use,
            workspace: workspace.clone(),
        };
        (grants.into_hooks("skill allowed-tools"), warnings)
    }
}

/// What a workspace's `SKILL.md` adds once trusted, for the review
/// (`agenthub trust --show`): its name, description and `allowed-tools`.
pub fn review_lines(file: &std::path::Path) -> Vec<String> {
    let Some(folder) = file.parent() else {
        return Vec::new();
    };
    match load::read(folder) {
        Ok(skill) => {
            let tools = skill
                .allowed_tools
                .map_or_else(|| "none".to_owned(), |tools| tools.join(", "));
            vec![format!(
                "skill {}: {} (allowed-tools: {tools})",
                skill.name, skill.description
            )]
        }
        Err(error) => vec![error.to_string()],
    }
}
