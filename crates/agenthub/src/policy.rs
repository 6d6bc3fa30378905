//! The permission policy of a workspace, built once from the settings files'
//! `permissions` sections and the run's own rules and mode: the real engine,
//! the workspace with its extra roots, and the read guard that makes Glob and
//! Grep honour Read deny rules, and the fetch guard through which WebFetch
//! puts each redirect to the same engine. A run and an explanation use this one
//! function, so what is explained is what is enforced.
//!
//! A configuration error (a bad rule, mode or value) is an error naming the
//! file or flag; it never falls back to a weaker policy. An untrusted
//! project file's is the exception (contract §29): that file is set aside
//! whole, with a warning, as if it were not there.

use crate::configuration::home;
use crate::network::SessionNetworkGate;
use crate::{Configuration, SetupError};
use agenthub_policy::{CliPermissions, PolicyConfig, PolicyEngine, PolicyInput};
use agenthub_sandbox::{NetworkAccess, NetworkProxy, SandboxPolicy};
use agenthub_tools::{FetchGuard, ReadGuard, ToolRegistry, Workspace};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The engine, and the workspace whose boundary and read guard it governs.
#[derive(Clone)]
pub struct PolicySetup {
    /// The permission policy of every call.
    pub engine: Arc<PolicyEngine>,
    /// The workspace root, `additionalDirectories`, and the read guard.
    pub workspace: Workspace,
    /// Rules that loaded without effect (for tools AgentHub does not have).
    pub warnings: Vec<String>,
    /// With `sandbox.network` an object, who answers and records for the
    /// sandbox's network proxy: connected to a session when it opens.
    pub network_gate: Option<Arc<SessionNetworkGate>>,
}

/// Builds the policy for `configuration`; `tools` names the tools rules may use.
pub fn build_policy(
    configuration: &Configuration,
    tools: &ToolRegistry,
) -> Result<PolicySetup, SetupError> {
    let home = home();
    let root = configuration.workspace();
    let permissions = &configuration.options().permissions;
    let extra_tools: Vec<String> = tools
        .iter()
        .map(|definition| definition.name().to_owned())
        .collect();
    let (sections, set_aside) = usable_sections(configuration, home.as_deref(), &extra_tools);
    let config = PolicyConfig::build(PolicyInput {
        workspace: root,
        home: home.as_deref(),
        sections: &sections,
        cli: CliPermissions {
            allow: &permissions.allow,
            deny: &permissions.deny,
            mode: permissions.mode.as_ref(),
        },
        extra_tools: &extra_tools,
    })?;
    let mut config = config;
    config.protected_files = configuration.executed_paths().to_vec();
    for directory in &permissions.additional_directories {
        if !config.additional_directories.contains(directory) {
            config.additional_directories.push(directory.clone());
        }
    }
    let mut warnings = set_aside;
    warnings.extend(config.warnings.iter().cloned());
    let roots = config.additional_directories.clone();
    let mut engine = PolicyEngine::new(config, home.clone());
    if let Some(NetworkAccess::Domains(lists)) = &configuration.settings().sandbox.network {
        engine = engine.with_domain_lists(lists.clone());
    }
    let engine = Arc::new(engine);
    let workspace = guarded_workspace(root, roots, home, &engine, tools);
    let (sandbox, network_gate) = sandbox_policy(configuration, &workspace, &engine);
    Ok(PolicySetup {
        workspace: workspace.with_sandbox(sandbox),
        engine,
        warnings,
        network_gate,
    })
}

/// The `permissions` sections the policy is built from: every file's,
/// but an untrusted project file whose whole `permissions` object cannot be
/// used (`"defaultMode": 5`, a rule that does not parse) is set aside whole,
/// its deny and ask rules too, with a warning naming it and why (contract
/// §29: such a file never stops a run; trusted, it is an error naming it).
fn usable_sections(
    configuration: &Configuration,
    home: Option<&Path>,
    extra_tools: &[String],
) -> (Vec<(PathBuf, Value)>, Vec<String>) {
    let mut unusable = Vec::new();
    let mut warnings = Vec::new();
    for section in &configuration.settings().set_aside_permissions {
        let checked = PolicyConfig::build(PolicyInput {
            workspace: configuration.workspace(),
            home,
            sections: std::slice::from_ref(section),
            cli: CliPermissions::default(),
            extra_tools,
        });
        if let Err(error) = checked {
            unusable.push(section.0.clone());
            warnings.push(format!(
                "{} set aside whole while the project is not trusted, it cannot be used: {error}",
                section.0.display()
            ));
        }
    }
    let sections = configuration
        .settings()
        .permissions
        .iter()
        .filter(|(file, _)| !unusable.contains(file))
        .cloned()
        .collect();
    (sections, warnings)
}

/// Bash's sandbox (contract §15): the mode from `--sandbox`, else the settings,
/// else `workspace-write`; the network from the settings (off by default);
/// the workspace roots writable, what Read deny rules name masked, the
/// protected paths and names (at any depth) read-only; the secrets
/// `sandbox.passEnv` lists passed to commands. Domain lists (contract §32)
/// keep the network off and give commands the proxy, with the session's
/// gate.
fn sandbox_policy(
    configuration: &Configuration,
    workspace: &Workspace,
    engine: &PolicyEngine,
) -> (SandboxPolicy, Option<Arc<SessionNetworkGate>>) {
    let settings = &configuration.settings().sandbox;
    let roots = workspace.roots();
    let (network, proxy, gate) = match &settings.network {
        Some(NetworkAccess::On) => (true, None, None),
        Some(NetworkAccess::Domains(lists)) => {
            let gate = Arc::new(SessionNetworkGate::in_mode(engine.mode()));
            let proxy = NetworkProxy::new(lists.clone(), gate.clone());
            (false, Some(proxy), Some(gate))
        }
        Some(NetworkAccess::Off) | None => (false, None, None),
    };
    let policy = SandboxPolicy {
        mode: configuration
            .options()
            .sandbox
            .or(settings.mode)
            .unwrap_or_default(),
        network,
        proxy,
        masked: engine.read_denied_paths(&roots),
        protected: agenthub_policy::protected_paths(&roots)
            .into_iter()
            .chain(engine.config().protected_files.iter().cloned())
            .collect(),
        protected_names: agenthub_policy::protected_name_rules().clone(),
        pass_env: settings.pass_env.clone(),
        writable_roots: roots,
    };
    (policy, gate)
}

/// The workspace whose file tools refuse what the engine's Read deny rules
/// name, read `~` as the same home the rules do, and put each redirect a
/// fetch meets to the engine (as a call of the registry's fetch tool).
fn guarded_workspace(
    root: &Path,
    roots: Vec<std::path::PathBuf>,
    home: Option<std::path::PathBuf>,
    engine: &Arc<PolicyEngine>,
    tools: &ToolRegistry,
) -> Workspace {
    let guarded = engine.clone();
    let guard: ReadGuard = Arc::new(move |path: &Path| guarded.read_allowed(path));
    let mut workspace = Workspace::new(root)
        .with_additional_roots(roots)
        .with_read_guard(guard);
    let fetcher = tools
        .iter()
        .find(|definition| definition.capabilities().url_field.is_some());
    if let Some(fetcher) = fetcher {
        let (engine, tool, capabilities) = (
            engine.clone(),
            fetcher.name().to_owned(),
            fetcher.capabilities().clone(),
        );
        let guard: FetchGuard =
            Arc::new(move |url: &str| engine.judge_fetch(&tool, &capabilities, url));
        workspace = workspace.with_fetch_guard(guard);
    }
    match home {
        Some(home) => workspace.with_home(home),
        None => workspace,
    }
}
