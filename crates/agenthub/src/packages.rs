//! A configuration's doors to its packages (`agenthub-packages`): the skills
//! and custom commands its folders hold, read under its trust and its
//! enabled plugins, what an untrusted workspace sets aside, and the session
//! policy with a package's `allowed-tools` added. Finding and reading are the
//! packages crate's; nothing is read here.

use crate::policy::build_policy;
use crate::Configuration;
use agenthub_packages::{CommandError, CustomCommands, SkillError, Skills, Sources};
use agenthub_policy::PolicyEngine;
use agenthub_settings::SetAside;
use agenthub_tools::ToolRegistry;
use std::path::{Path, PathBuf};
use std::sync::Arc;

impl Configuration {
    /// What decides which folders are read: the workspace, its trust,
    /// whether Claude Code's files are read, the enabled plugins.
    pub(crate) fn sources(&self) -> Sources<'_> {
        Sources {
            workspace: self.workspace(),
            trust: self.trust().project_trust(),
            claude_files: !self.options().no_claude_settings,
            plugins: self.plugins(),
        }
    }

    /// The folders read for skills, in order (later wins).
    /// (An enabled plugin's skills come before these: see [`Configuration::skills`].)
    pub fn skill_folders(&self) -> Vec<PathBuf> {
        self.sources().skill_folders()
    }

    /// Every skill of [`Configuration::skill_folders`], and why each skill
    /// that could not be read was skipped (a link out of the workspace's
    /// repository or a plugin's folder among them).
    ///
    /// An enabled plugin's skill goes by its bare name, or `plugin:name` when
    /// an earlier plugin's skill has that name; the user's and the
    /// workspace's own skills come after and win a shared bare name.
    pub fn skills(&self) -> (Skills, Vec<SkillError>) {
        self.sources().skills()
    }

    /// The folders read for custom commands, in order (later wins).
    pub fn command_folders(&self) -> Vec<PathBuf> {
        self.sources().command_folders()
    }

    /// Every command of [`Configuration::command_folders`], and why each
    /// file that could not be read was skipped (a link out of the workspace's
    /// repository or a plugin's folder among them).
    ///
    /// An enabled plugin's commands come first, as `/plugin:name` and as
    /// `/name` (so the user's and the workspace's own win a shared name).
    pub fn custom_commands(&self) -> (CustomCommands, Vec<CommandError>) {
        self.sources().custom_commands()
    }

    /// The workspace's subagent definitions, skills and command files an
    /// untrusted workspace sets aside, in that order.
    pub(crate) fn packages_set_aside(&self) -> Vec<SetAside> {
        let sources = self.sources();
        let mut set_aside = sources.agents_set_aside();
        set_aside.extend(sources.skills_set_aside());
        set_aside.extend(sources.commands_set_aside());
        set_aside
    }

    /// The session's policy (this configuration's, naming `tools`) with
    /// `rules`, written in `file`, added as allow rules: what a skill's or
    /// command's `allowed-tools` grant while it is active.
    pub(crate) fn policy_with(
        &self,
        tools: &ToolRegistry,
        file: &Path,
        rules: &[String],
    ) -> Result<Arc<PolicyEngine>, String> {
        let mut with_rules = self.clone();
        with_rules.allow_also(file, rules);
        build_policy(&with_rules, tools)
            .map(|setup| setup.engine)
            .map_err(|error| error.to_string())
    }
}
