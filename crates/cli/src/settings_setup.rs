//! Settings for a command: the four layers for the workspace (user, project,
//! local, `--settings`), their warnings on stderr, and the command hooks they
//! define. A settings file that cannot be understood stops the command with
//! exit 2 (a usage error naming the file and the JSON path): a skipped hook
//! would be a hole in a gate.

use crate::error::CliError;
use crate::hook_conditions::RuleConditions;
use agenthub_hooks::{CommandHooks, HookRegistry, RunLog};
use agenthub_settings::{CommandHookConfig, Settings, SettingsSources};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Reads and merges every layer for `workspace`; prints the warnings.
pub fn load(workspace: &Path, command_line: Option<&Path>) -> Result<Settings, CliError> {
    let sources = SettingsSources::standard(workspace, command_line.map(Path::to_path_buf));
    let settings = Settings::load(&sources).map_err(|error| CliError::Usage(error.to_string()))?;
    for warning in &settings.warnings {
        eprintln!("agenthub: warning: {warning}");
    }
    Ok(settings)
}

/// The command hooks of `settings`, to register after the in-process hooks.
pub fn command_hooks(settings: &Settings, workspace: &Path) -> Result<HookRegistry, CliError> {
    registry(settings.hooks.clone(), workspace, None)
}

/// Command hooks whose `if` conditions are read with the permission rule
/// syntax; every run is reported to `log` when given.
pub fn registry(
    hooks: Vec<CommandHookConfig>,
    workspace: &Path,
    log: Option<RunLog>,
) -> Result<HookRegistry, CliError> {
    let conditions = RuleConditions {
        workspace: workspace.to_path_buf(),
        home: std::env::var_os("HOME").map(PathBuf::from),
    };
    let mut hooks = CommandHooks::new(hooks).with_conditions(Arc::new(conditions));
    if let Some(log) = log {
        hooks = hooks.with_log(log);
    }
    hooks
        .into_registry()
        .map_err(|error| CliError::Usage(error.to_string()))
}
