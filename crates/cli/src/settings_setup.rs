//! Settings for a command: the four layers for the workspace (user, project,
//! local, `--settings`), their warnings on stderr, and the command hooks they
//! define. A settings file that cannot be understood stops the command with
//! exit 2 (a usage error naming the file and the JSON path): a skipped hook
//! would be a hole in a gate.

use crate::error::CliError;
use agenthub_hooks::{CommandHooks, HookRegistry};
use agenthub_settings::{Settings, SettingsSources};
use std::path::Path;

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
pub fn command_hooks(settings: &Settings) -> HookRegistry {
    CommandHooks::new(settings.hooks.clone()).into_registry()
}
