//! Merging the layers: hooks appended in layer order (an identical hook from a
//! later file is dropped, so it runs once), scalar keys taken from the last
//! layer that sets them, `permissions` sections kept per file in layer order.

use crate::hook::CommandHookConfig;
use crate::layers::{LayerKind, SettingsSources};
use crate::load::FileSettings;
use crate::trust::ProjectTrust;
use crate::SettingsError;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::{Path, PathBuf};

/// What all the layers say, merged: what an embedder hands on to the hook
/// registry (`hooks`), the permission policy (`permissions`) and the model
/// configuration (`model`, `provider`, `base_url`).
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// The command hooks to register, in order; empty when `disableAllHooks`.
    pub hooks: Vec<CommandHookConfig>,
    /// `disableAllHooks` from the last layer that sets it: when true, no
    /// command hook is registered.
    pub disable_all_hooks: bool,
    /// Each file's raw `permissions` object, in layer order.
    pub permissions: Vec<(PathBuf, Value)>,
    /// `model` from the last layer that sets it: the model name for the real
    /// provider (`--model` and `AGENTHUB_MODEL` take precedence).
    pub model: Option<String>,
    /// `provider` from the last layer that sets it: which provider API to
    /// speak, as written (`openai`, `anthropic`).
    pub provider: Option<String>,
    /// `baseUrl` from the last layer that sets it: the provider endpoint
    /// (`--base-url` and the provider's URL variable take precedence).
    pub base_url: Option<String>,
    /// `toolProtocol` from the last layer that sets it, as written
    /// (`native`, `react`, `auto`; `--tool-protocol` takes precedence).
    pub tool_protocol: Option<String>,
    /// `maxStopContinuations` from the last layer that sets it: how many
    /// times Stop hooks may make the model continue in one run (the caller's
    /// default applies when `None`).
    pub max_stop_continuations: Option<u32>,
    /// `systemPrompt` from the last layer that sets it: replaces the system
    /// prompt's built-in instructions (`--system-prompt` takes precedence).
    pub system_prompt: Option<String>,
    /// `appendSystemPrompt` from the last layer that sets it: added after
    /// the instructions (`--append-system-prompt` takes precedence).
    pub append_system_prompt: Option<String>,
    /// `maxTurns` from the last layer that sets it: the most model requests
    /// in one run (`--max-turns` takes precedence).
    pub max_turns: Option<u32>,
    /// `maxParallelAgents` from the last layer that sets it: how many
    /// subagents of one message run at the same time (default 4).
    pub max_parallel_agents: Option<u32>,
    /// `approvalTimeout` from the last layer that sets it: how long an ask
    /// on a fleet worker waits (default [`crate::DEFAULT_APPROVAL_TIMEOUT`]).
    pub approval_timeout: Option<std::time::Duration>,
    /// `contextWindow` and `autoCompactThreshold`, each from the last layer
    /// that sets it.
    pub budget: crate::ContextBudgetSettings,
    /// `apiTimeoutMs`, `maxOutputTokens`, `retryOnTimeout`, `temperature`, `loopGuard`
    /// (key by key) and `modelPrices` (model by model), from the last layer that sets each;
    /// an untrusted project's are set aside.
    pub model_limits: crate::ModelLimitSettings,
    /// Each file's raw `mcpServers` object (the project's `.mcp.json` among
    /// them), in precedence order: later files' servers win.
    pub mcp_servers: Vec<(PathBuf, Value)>,
    /// `sandbox.mode` and `sandbox.network` (an untrusted project's only when stricter).
    pub sandbox: crate::SandboxSettings,
    /// `env` of every layer merged (a later file wins per variable): set for
    /// hooks and tool processes.
    pub env: std::collections::BTreeMap<String, String>,
    /// `allowedHttpHookUrls` from the last user file that sets it: `http`
    /// hooks may only call URLs it lists (`None`: no restriction).
    pub allowed_http_hook_urls: Option<Vec<String>>,
    /// What the user should be told: ignored keys, events, duplicate hooks.
    pub warnings: Vec<String>,
    /// The files that were read, in layer order.
    pub files: Vec<PathBuf>,
    /// True when the project's own `disableAllHooks` switched off the
    /// project's and local file's hooks (never the user's).
    pub project_hooks_disabled: bool,
    /// What untrusted project configuration asked for and did not get (contract §11).
    pub set_aside: Vec<SetAside>,
    /// The untrusted project files that could not be read or understood,
    /// set aside whole, each with why (contract §29); also in `set_aside`.
    pub unusable: Vec<(PathBuf, String)>,
    /// The project's command hooks that wait for the workspace to be trusted.
    pub waiting_hooks: Vec<CommandHookConfig>,
    /// Each untrusted project file's whole raw `permissions` object: not
    /// applied, but still checked, so that a value of the wrong type stays a
    /// configuration error naming its file whether or not it is trusted.
    pub set_aside_permissions: Vec<(PathBuf, Value)>,
    /// `enabledPlugins`, plugin by plugin from the last layer that names it.
    pub enabled_plugins: std::collections::BTreeMap<String, bool>,
}

/// One grant, command or redirect of an untrusted project file that was not applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetAside {
    /// The file that asked for it.
    pub file: PathBuf,
    /// What it asked for, as a person reads it (`allow rule Bash`, `baseUrl http://…`).
    pub item: String,
}

impl Settings {
    /// Reads every layer of `sources`. Missing user, project and local files
    /// are skipped; a missing `--settings` file is an error. With `trust`
    /// [`ProjectTrust::Untrusted`], the project and local files only restrict,
    /// and one that cannot be read or understood is set aside whole, named in
    /// [`Settings::set_aside`] with its error (contract §29): a cloned
    /// repository's broken file never stops a run. Trusted, it is an error.
    ///
    /// ```
    /// use agenthub_settings::{HookEvent, ProjectTrust, Settings, SettingsSources};
    ///
    /// let workspace = tempfile::tempdir()?;
    /// std::fs::create_dir(workspace.path().join(".agenthub"))?;
    /// std::fs::write(
    ///     workspace.path().join(".agenthub/settings.json"),
    ///     r#"{"model": "gpt-4o", "hooks": {"PreToolUse": [
    ///         {"matcher": "Bash", "hooks": [{"command": "./check.sh"}]}]}}"#,
    /// )?;
    /// let sources = SettingsSources::agenthub_only(workspace.path(), Vec::new());
    /// let settings = Settings::load(&sources, ProjectTrust::Trusted)?;
    /// assert_eq!(settings.model.as_deref(), Some("gpt-4o"));
    /// assert_eq!(settings.hooks[0].event, HookEvent::PreToolUse);
    /// assert_eq!(settings.hooks[0].command, "./check.sh");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn load(sources: &SettingsSources, trust: ProjectTrust) -> Result<Settings, SettingsError> {
        let mut layers = Vec::new();
        let mut unreadable = Vec::new();
        for layer in sources.layers() {
            let optional = layer.kind != LayerKind::CommandLine;
            if optional && !layer.path.exists() {
                continue;
            }
            let from_project = matches!(layer.kind, LayerKind::Project | LayerKind::Local);
            match crate::foreign::parse_layer(&layer) {
                Ok(file) => layers.push((layer.kind, file)),
                Err(error) if from_project && trust == ProjectTrust::Untrusted => {
                    unreadable.push((layer.path.clone(), error.to_string()));
                }
                Err(error) => return Err(error),
            }
        }
        let layers = crate::claude_keys::without_claude_files(sources, layers);
        let mut settings = Settings::merge(layers, trust);
        for (file, error) in unreadable {
            settings.set_aside_unusable(&file, error);
        }
        crate::mcp::read_project_file(sources, trust, &mut settings)?;
        crate::claude_keys::restrict_http_hooks(&mut settings);
        Ok(settings)
    }

    /// Merges files given in layer order. The project and local files of an
    /// untrusted workspace keep only their restrictions (deny and ask rules);
    /// everything else they say is listed in [`Settings::set_aside`].
    pub fn merge(layers: Vec<(LayerKind, FileSettings)>, trust: ProjectTrust) -> Settings {
        let mut settings = Settings::default();
        let mut seen = HashSet::new();
        let mut project_disables = false;
        let mut project_files = Vec::new();
        let mut users = BTreeSet::new();
        for (kind, file) in layers {
            let from_project = matches!(kind, LayerKind::Project | LayerKind::Local);
            if from_project {
                project_files.push(file.path.clone());
            }
            let file = if from_project && trust == ProjectTrust::Untrusted {
                settings.set_aside_untrusted(file)
            } else {
                file
            };
            settings.files.push(file.path.clone());
            settings.warnings.extend(file.warnings);
            for hook in file.hooks {
                if seen.insert(hook.dedupe_key()) {
                    settings.hooks.push(hook);
                }
            }
            if let Some(servers) = file.mcp_servers {
                settings.mcp_servers.push((file.path.clone(), servers));
            }
            if let Some(permissions) = file.permissions {
                settings.permissions.push((file.path.clone(), permissions));
            }
            match (from_project, file.disable_all_hooks) {
                (true, Some(flag)) => project_disables = flag,
                (false, Some(flag)) => settings.disable_all_hooks = flag,
                (_, None) => {}
            }
            later_wins(&mut settings.model, file.model);
            later_wins(&mut settings.provider, file.provider);
            later_wins(&mut settings.base_url, file.base_url);
            later_wins(&mut settings.tool_protocol, file.tool_protocol);
            later_wins(
                &mut settings.max_stop_continuations,
                file.max_stop_continuations,
            );
            later_wins(&mut settings.system_prompt, file.system_prompt);
            later_wins(
                &mut settings.append_system_prompt,
                file.append_system_prompt,
            );
            later_wins(&mut settings.max_turns, file.max_turns);
            later_wins(&mut settings.max_parallel_agents, file.max_parallel_agents);
            later_wins(&mut settings.approval_timeout, file.approval_timeout);
            settings.budget.merge(file.budget);
            settings.model_limits.merge(file.model_limits);
            settings.sandbox.merge(file.sandbox);
            settings.env.extend(file.claude.env);
            settings.merge_plugins(from_project, &file.path, file.enabled_plugins, &mut users);
            if kind == LayerKind::User {
                later_wins(
                    &mut settings.allowed_http_hook_urls,
                    file.claude.allowed_http_hook_urls,
                );
            }
        }
        settings.apply_disable_all_hooks(project_disables, &project_files);
        settings
    }

    /// Sets aside whole an untrusted project `file` that cannot be read or
    /// understood (contract §29), naming it and `error` in the trust warning.
    pub(crate) fn set_aside_unusable(&mut self, file: &Path, error: String) {
        self.set_aside.push(SetAside {
            file: file.to_path_buf(),
            item: format!("the whole file, which cannot be used: {error}"),
        });
        self.unusable.push((file.to_path_buf(), error));
    }

    /// Merges one file's `enabledPlugins` (contract §28): a project's may
    /// enable an installed plugin but never switch off one the user's own
    /// layers enabled (`users`, kept up to date here) — that entry is
    /// ignored with a warning, as `disableAllHooks` in a project never
    /// switches off the user's hooks.
    fn merge_plugins(
        &mut self,
        from_project: bool,
        file: &Path,
        plugins: BTreeMap<String, bool>,
        users: &mut BTreeSet<String>,
    ) {
        for (id, on) in plugins {
            if from_project && !on && users.contains(&id) {
                self.warnings.push(format!(
                    "{}: enabledPlugins {id:?}: false is ignored: a project never switches off \
                     a plugin the user enabled",
                    file.display()
                ));
                continue;
            }
            if !from_project {
                match on {
                    true => users.insert(id.clone()),
                    false => users.remove(&id),
                };
            }
            self.enabled_plugins.insert(id, on);
        }
    }

    /// A user's or `--settings` file's `disableAllHooks` switches every command
    /// hook off; a project's only the project's own (contract §11).
    fn apply_disable_all_hooks(&mut self, project_disables: bool, project_files: &[PathBuf]) {
        if self.disable_all_hooks {
            self.hooks.clear();
        } else if project_disables {
            self.project_hooks_disabled = true;
            self.hooks
                .retain(|hook| !project_files.contains(&hook.source));
        }
    }

    /// Keeps what restricts (deny and ask rules) and records the rest as set aside.
    fn set_aside_untrusted(&mut self, file: FileSettings) -> FileSettings {
        let sandbox_aside = self.sandbox.merge_restrictions(file.sandbox);
        let mut aside = |item: String| {
            self.set_aside.push(SetAside {
                file: file.path.clone(),
                item,
            })
        };
        for hook in &file.hooks {
            aside(format!("{} hook `{}`", hook.event, hook.display_command()));
        }
        let permissions = file
            .permissions
            .as_ref()
            .map(|permissions| restrictions_only(permissions, &mut aside));
        for (key, value) in [
            (
                "contextWindow",
                file.budget.context_window.map(|tokens| tokens.to_string()),
            ),
            (
                "autoCompactThreshold",
                file.budget
                    .auto_compact_threshold
                    .map(|fraction| fraction.to_string()),
            ),
        ] {
            if let Some(value) = value {
                aside(format!("{key} {value}"));
            }
        }
        for (key, value) in [
            ("model", &file.model),
            ("provider", &file.provider),
            ("baseUrl", &file.base_url),
            ("toolProtocol", &file.tool_protocol),
        ] {
            if let Some(value) = value {
                aside(format!("{key} {value}"));
            }
        }
        for (key, count) in [
            ("maxStopContinuations", file.max_stop_continuations),
            ("maxTurns", file.max_turns),
            ("maxParallelAgents", file.max_parallel_agents),
        ] {
            if let Some(count) = count {
                aside(format!("{key} {count}"));
            }
        }
        if let Some(timeout) = file.approval_timeout {
            aside(format!("approvalTimeout {}s", timeout.as_secs()));
        }
        for (key, text) in [
            ("systemPrompt", &file.system_prompt),
            ("appendSystemPrompt", &file.append_system_prompt),
        ] {
            if let Some(text) = text {
                aside(format!("{key} ({} characters)", text.chars().count()));
            }
        }
        for item in sandbox_aside {
            aside(item);
        }
        for item in file.model_limits.described() {
            aside(item);
        }
        for name in file.claude.env.keys() {
            aside(format!("env {name}"));
        }
        for (plugin, _) in file.enabled_plugins.iter().filter(|(_, on)| **on) {
            aside(format!("enabledPlugins {plugin}"));
        }
        if let Some(servers) = &file.mcp_servers {
            self.set_aside
                .extend(crate::mcp::set_aside(&file.path, servers));
        }
        self.waiting_hooks.extend(file.hooks);
        if let Some(raw) = file.permissions {
            self.set_aside_permissions.push((file.path.clone(), raw));
        }
        FileSettings {
            path: file.path,
            permissions,
            disable_all_hooks: file.disable_all_hooks,
            warnings: file.warnings,
            ..FileSettings::default()
        }
    }
}

/// The `deny` and `ask` lists of a `permissions` object; every other entry
/// (allow rules, `defaultMode`, `additionalDirectories`, …) goes to `aside`.
fn restrictions_only(permissions: &Value, aside: &mut impl FnMut(String)) -> Value {
    let Some(object) = permissions.as_object() else {
        return permissions.clone();
    };
    let mut kept = serde_json::Map::new();
    for (key, value) in object {
        match key.as_str() {
            "deny" | "ask" => {
                kept.insert(key.clone(), value.clone());
            }
            "allow" => match value.as_array() {
                Some(rules) => rules.iter().for_each(|rule| match rule.as_str() {
                    Some(text) => aside(format!("allow rule {text}")),
                    None => aside(format!("allow rule {rule}")),
                }),
                None => aside(format!("permissions.allow {value}")),
            },
            _ => aside(format!("permissions.{key} {value}")),
        }
    }
    Value::Object(kept)
}

fn later_wins<T>(slot: &mut Option<T>, later: Option<T>) {
    if later.is_some() {
        *slot = later;
    }
}
