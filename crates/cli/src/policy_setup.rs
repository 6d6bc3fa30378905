//! Builds the permission policy of a run (or an explanation) from the
//! settings files' `permissions` sections and the command-line flags, once,
//! in one place: `agenthub run` and `agenthub permissions explain` call the
//! same function, so what is explained is what is enforced.
//!
//! A configuration error (a bad rule, mode or value) is a usage error (exit 2)
//! naming the file or flag; it never falls back to a weaker policy.

use crate::approver::approver_for;
use crate::error::CliError;
use agenthub_policy::{Approver, CliPermissions, PolicyConfig, PolicyEngine, PolicyInput};
use agenthub_tools::{ReadGuard, ToolRegistry, Workspace};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// `--allow`, `--deny` (repeatable) and `--permission-mode`.
#[derive(Debug, Clone, Copy, Default)]
pub struct PermissionFlags<'a> {
    pub allow: &'a [String],
    pub deny: &'a [String],
    pub mode: Option<&'a str>,
}

/// What a run needs: the engine, the workspace with its extra roots, the
/// approver for this process, and what loaded without effect.
pub struct PolicySetup {
    pub engine: Arc<PolicyEngine>,
    pub workspace: Workspace,
    pub approver: Arc<dyn Approver>,
    pub warnings: Vec<String>,
}

/// `sections` are `(settings file, its raw "permissions" object)` in layer
/// order; `root` is the canonical workspace; `tools` names the tools rules may use.
pub fn build_policy(
    sections: &[(PathBuf, Value)],
    flags: PermissionFlags<'_>,
    root: &Path,
    tools: &ToolRegistry,
) -> Result<PolicySetup, CliError> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let extra_tools: Vec<String> = tools.specs().into_iter().map(|spec| spec.name).collect();
    let config = PolicyConfig::build(PolicyInput {
        workspace: root,
        home: home.as_deref(),
        sections,
        cli: CliPermissions {
            allow: flags.allow,
            deny: flags.deny,
            mode: flags.mode,
        },
        extra_tools: &extra_tools,
    })
    .map_err(|error| CliError::Usage(error.to_string()))?;
    let warnings = config.warnings.clone();
    let roots = config.additional_directories.clone();
    let engine = Arc::new(PolicyEngine::new(config, home));
    let guarded = engine.clone();
    let guard: ReadGuard = Arc::new(move |path: &Path| guarded.read_allowed(path));
    let workspace = Workspace::new(root)
        .with_additional_roots(roots)
        .with_read_guard(guard);
    Ok(PolicySetup {
        engine,
        approver: approver_for(&workspace),
        workspace,
        warnings,
    })
}

/// Prints each warning as a `[Warning]` line on stderr.
pub fn print_warnings(warnings: &[String]) {
    for warning in warnings {
        eprintln!("[Warning] {warning}");
    }
}
