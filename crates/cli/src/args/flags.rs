//! Flags several commands share: the settings files, the permission rules and
//! mode, `--trust-project`. `setup.rs` turns them into the library's options.

use std::path::PathBuf;

/// `--settings FILE|JSON` (repeatable) and `--no-claude-settings`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SettingsFlags {
    /// Extra settings, a file or JSON text (`'{"model": "…"}'`), applied
    /// last, in the order given (repeatable; a Claude Code
    /// .claude/settings.json works as it is).
    #[arg(long, value_name = "FILE|JSON")]
    pub settings: Vec<PathBuf>,
    /// Do not read Claude Code's settings files (~/.claude/settings.json,
    /// .claude/settings.json, .claude/settings.local.json).
    #[arg(long)]
    pub no_claude_settings: bool,
}

/// `--allow`, `--deny` (repeatable) and `--permission-mode`: rules and mode
/// for this command only, on top of the settings files.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct PermissionFlags {
    /// default, acceptEdits, plan, dontAsk or bypassPermissions (else permissions.defaultMode).
    #[arg(long, value_name = "MODE")]
    pub permission_mode: Option<String>,
    /// An extra allow rule, e.g. 'Bash(git status:*)' (repeatable).
    #[arg(long = "allow", value_name = "RULE")]
    pub allow: Vec<String>,
    /// An extra deny rule, e.g. 'Bash(curl *)' (repeatable).
    #[arg(long = "deny", value_name = "RULE")]
    pub deny: Vec<String>,
}

/// `--trust-project`: the workspace's own configuration acts for this run
/// only, as if trusted (for CI, where the repository is the user's own).
#[derive(Debug, Clone, Copy, Default, clap::Args)]
pub struct TrustFlag {
    /// Trust the workspace's own configuration for this run only (see `agenthub trust`).
    #[arg(long)]
    pub trust_project: bool,
}
