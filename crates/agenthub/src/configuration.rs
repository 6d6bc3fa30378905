//! The configuration of one workspace: the folder itself and the four settings
//! layers (user, project, local, the run's own file), read and validated once.
//! Everything that needs configuration — a run, `permissions explain`, `hooks
//! list`, `hooks test` — starts here, so none of them can read a different set
//! of files than a real run does.
//!
//! A settings file that cannot be understood is an error naming the file and
//! the JSON path: a skipped hook would be a hole in a gate. Nothing here
//! prints; warnings are returned for the caller to show.

use crate::conditions::RuleConditions;
use crate::TrustStatus;
use crate::{Options, SetupError};
use agenthub_core::system_prompt::ProjectMemory;
use agenthub_hooks::{CommandHookError, CommandHooks, HookRegistry, HookServices, RunLog};
use agenthub_settings::{
    CommandHookConfig, LayerKind, ProjectFingerprint, ProjectTrust, SetAside, Settings,
    SettingsSources,
};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A workspace and its merged settings.
#[derive(Debug, Clone)]
pub struct Configuration {
    workspace: PathBuf,
    settings: Settings,
    options: Options,
    fingerprint: ProjectFingerprint,
    /// The workspace files the project's hooks and MCP servers run, read
    /// once: trust pins them and the policy protects them.
    executed: Vec<PathBuf>,
    trust: TrustStatus,
    /// The plugins joined to the session (contract §20).
    plugins: Vec<crate::plugins::EnabledPlugin>,
    /// Why an enabled plugin, or part of one, was not joined, and which
    /// project hooks and MCP servers were set aside for running a link out
    /// of the repository.
    load_warnings: Vec<String>,
}

impl Configuration {
    /// Resolves the workspace and reads every settings layer for it.
    pub fn load(options: &Options) -> Result<Configuration, SetupError> {
        let workspace = resolve_workspace(options.workspace.as_deref())?;
        let executed = crate::executed::executed_paths(&workspace)?;
        let fingerprint = crate::pinned::project_fingerprint_with(&workspace, &executed)?;
        let has_memory = !crate::pinned::memory_file_names(&workspace).is_empty();
        let trust = crate::trust::decide(options.trust, &fingerprint, has_memory);
        let sources = SettingsSources::standard(
            &workspace,
            options.settings_files.clone(),
            !options.no_claude_settings,
        );
        let mut settings = Settings::load(&sources, trust.project_trust())?;
        let (plugins, mut load_warnings) =
            crate::plugins::enabled_plugins(&settings.enabled_plugins);
        if trust.project_trust() == ProjectTrust::Trusted {
            let set_aside = crate::executed::set_aside_links_out(&workspace, &mut settings);
            load_warnings.extend(set_aside);
        }
        if !settings.disable_all_hooks {
            for plugin in &plugins {
                match plugin.hooks() {
                    Ok(hooks) => settings.hooks.extend(hooks),
                    Err(why) => load_warnings.push(format!(
                        "the hooks of plugin {:?} not loaded: {why}",
                        plugin.manifest.name
                    )),
                }
            }
        }
        Ok(Configuration {
            workspace,
            settings,
            options: options.clone(),
            fingerprint,
            executed,
            trust,
            plugins,
            load_warnings,
        })
    }

    /// The plugins joined to the session: installed, enabled and unchanged.
    pub fn plugins(&self) -> &[crate::plugins::EnabledPlugin] {
        &self.plugins
    }

    /// Whether the workspace's own configuration acts, and why.
    pub fn trust(&self) -> &TrustStatus {
        &self.trust
    }

    /// The workspace's configuration files with their SHA-256, as they were read.
    pub fn fingerprint(&self) -> &ProjectFingerprint {
        &self.fingerprint
    }

    /// Records the workspace's configuration files, exactly as they were read,
    /// as trusted; load the configuration again for it to act.
    pub fn trust_project(&self) -> Result<(), SetupError> {
        Ok(crate::trust::record(&self.fingerprint)?)
    }

    /// The workspace of `options` with no settings file at all (not even
    /// `options.settings_files`): for a demo or a test that must not depend on
    /// the machine's configuration.
    pub fn without_settings_files(options: &Options) -> Result<Configuration, SetupError> {
        let workspace = resolve_workspace(options.workspace.as_deref())?;
        Ok(Configuration {
            executed: crate::executed::executed_paths(&workspace)?,
            fingerprint: ProjectFingerprint {
                workspace: workspace.clone(),
                files: Default::default(),
            },
            workspace,
            settings: Settings::default(),
            options: Options {
                settings_files: Vec::new(),
                ..options.clone()
            },
            trust: TrustStatus::NothingToTrust,
            plugins: Vec::new(),
            load_warnings: Vec::new(),
        })
    }

    /// The workspace files the project's hooks and MCP servers run
    /// (canonical, whether or not they exist yet, sorted), as read at load.
    pub(crate) fn executed_paths(&self) -> &[PathBuf] {
        &self.executed
    }

    /// The workspace root, canonical.
    pub fn workspace(&self) -> &Path {
        &self.workspace
    }

    /// Every layer merged.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Adds `rules` as allow rules written in `file` (a skill's or custom
    /// command's `allowed-tools`): a last permissions layer, so errors and
    /// audit lines name that file.
    pub(crate) fn allow_also(&mut self, file: &Path, rules: &[String]) {
        self.settings
            .permissions
            .push((file.to_path_buf(), serde_json::json!({ "allow": rules })));
    }

    /// The options this configuration was loaded with.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// What the user should be told about the settings files (ignored keys,
    /// unknown events, duplicate hooks), and what an untrusted workspace's
    /// files asked for and did not get, as one warning at the end.
    pub fn warnings(&self) -> Vec<String> {
        let mut set_aside = self.settings.set_aside.clone();
        set_aside.extend(self.packages_set_aside());
        set_aside.extend(self.memory_set_aside());
        let trust = crate::trust::warning(&self.workspace, &self.trust, &set_aside);
        self.settings
            .warnings
            .iter()
            .cloned()
            .chain(self.load_warnings.iter().cloned())
            .chain(self.memory_links_out())
            .chain(trust)
            .collect()
    }

    /// A warning for each memory file a trusted workspace would read that is
    /// a link out of its repository (contract §28): it is not read.
    fn memory_links_out(&self) -> Vec<String> {
        if self.project_memory() == ProjectMemory::SetAside {
            return Vec::new();
        }
        crate::pinned::memory_links_out(&self.workspace)
            .iter()
            .map(|out| format!("memory file skipped: {out}"))
            .collect()
    }

    /// Whether the workspace's memory files enter the system prompt: only
    /// once its configuration is trusted (contract §26).
    pub fn project_memory(&self) -> ProjectMemory {
        match self.trust.project_trust() {
            ProjectTrust::Trusted => ProjectMemory::Load,
            ProjectTrust::Untrusted => ProjectMemory::SetAside,
        }
    }

    /// The memory files an untrusted workspace keeps out of the prompt.
    fn memory_set_aside(&self) -> Vec<SetAside> {
        if self.project_memory() == ProjectMemory::Load {
            return Vec::new();
        }
        crate::pinned::memory_file_names(&self.workspace)
            .into_iter()
            .map(|name| SetAside {
                item: "memory file, not read into the system prompt".to_owned(),
                file: self.workspace.join(name),
            })
            .collect()
    }

    /// The command hooks of every layer, with their `if` conditions read as
    /// permission rules, ready to register after in-process hooks.
    pub fn command_hooks(&self) -> Result<HookRegistry, SetupError> {
        self.hooks_registry(self.settings.hooks.clone(), None)
    }

    /// The command hooks of every layer, using `services` (the model of
    /// `prompt` hooks, the MCP caller, where `CLAUDE_ENV_FILE` exports go);
    /// the settings' `env` is added to `services.env`.
    pub fn command_hooks_with(&self, services: HookServices) -> Result<HookRegistry, SetupError> {
        let hooks = self.command_hook_set(self.settings.hooks.clone(), services);
        Ok(hooks.into_registry()?)
    }

    /// `hooks` (a subagent definition's) as a registry built like the
    /// settings files' command hooks, using `services`.
    pub(crate) fn command_hooks_from(
        &self,
        hooks: Vec<CommandHookConfig>,
        services: HookServices,
    ) -> Result<HookRegistry, CommandHookError> {
        self.command_hook_set(hooks, services).into_registry()
    }

    fn command_hook_set(
        &self,
        hooks: Vec<CommandHookConfig>,
        mut services: HookServices,
    ) -> CommandHooks {
        let conditions = RuleConditions {
            workspace: self.workspace.clone(),
            home: home(),
        };
        let mut env: Vec<(String, String)> = self
            .settings
            .env
            .iter()
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect();
        env.append(&mut services.env);
        services.env = env;
        CommandHooks::new(hooks)
            .with_conditions(Arc::new(conditions))
            .with_services(services)
    }

    /// The settings files' hooks with an application's `application` hooks
    /// (an Agent SDK's callbacks) placed right after the user layer's own:
    /// they run as hooks of the user layer (SPEC §30), before the project's.
    pub(crate) fn hooks_with_application(
        &self,
        application: &[CommandHookConfig],
    ) -> Vec<CommandHookConfig> {
        let mut hooks = self.settings.hooks.clone();
        if application.is_empty() {
            return hooks;
        }
        let user_files: Vec<PathBuf> = SettingsSources::standard(
            &self.workspace,
            self.options.settings_files.clone(),
            !self.options.no_claude_settings,
        )
        .layers()
        .into_iter()
        .filter(|layer| layer.kind == LayerKind::User)
        .map(|layer| layer.path)
        .collect();
        let after_user = hooks
            .iter()
            .rposition(|hook| user_files.contains(&hook.source))
            .map_or(0, |last| last + 1);
        hooks.splice(after_user..after_user, application.iter().cloned());
        hooks
    }

    /// The given command hooks as a registry; every run is reported to `log`
    /// when given (what `agenthub hooks test` shows).
    pub fn hooks_registry(
        &self,
        hooks: Vec<CommandHookConfig>,
        log: Option<RunLog>,
    ) -> Result<HookRegistry, SetupError> {
        let mut hooks = self.command_hook_set(hooks, HookServices::default());
        if let Some(log) = log {
            hooks = hooks.with_log(log);
        }
        Ok(hooks.into_registry()?)
    }
}

/// The user's home folder, for `~/` in rules, conditions and directories.
pub(crate) fn home() -> Option<PathBuf> {
    std::env::var_os("HOME").map(PathBuf::from)
}

/// The workspace folder, canonical: `flag`, else the current directory.
pub fn resolve_workspace(flag: Option<&Path>) -> Result<PathBuf, SetupError> {
    let candidate = match flag {
        Some(path) => path.to_path_buf(),
        None => std::env::current_dir().map_err(|error| SetupError::Workspace {
            path: PathBuf::from("."),
            problem: format!("(the current directory) cannot be read: {error}"),
        })?,
    };
    let resolved = candidate
        .canonicalize()
        .map_err(|error| SetupError::Workspace {
            path: candidate.clone(),
            problem: format!("does not exist or cannot be read: {error}"),
        })?;
    if !resolved.is_dir() {
        return Err(SetupError::Workspace {
            path: candidate,
            problem: "is not a directory".to_owned(),
        });
    }
    Ok(resolved)
}
