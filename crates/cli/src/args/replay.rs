//! `agenthub replay`'s flags; the lookup and output are `replay_command.rs`.

use clap::{Args, ValueEnum};
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// Sessions to replay: session ids (or the start of one) of this
    /// workspace, or transcript files.
    #[arg(required = true, value_name = "SESSION")]
    pub sessions: Vec<String>,
    /// Decide as if the sessions had run in DIR (its settings; paths under
    /// the recorded workspace read under DIR). Default: each session's own
    /// workspace; session ids are looked up in the current directory's.
    #[arg(long, value_name = "DIR")]
    pub workspace: Option<PathBuf>,
    #[command(flatten)]
    pub settings: super::flags::SettingsFlags,
    #[command(flatten)]
    pub permissions: super::flags::PermissionFlags,
    #[command(flatten)]
    pub trust: super::flags::TrustFlag,
    /// Also run the PreToolUse and PermissionRequest hooks on the recorded
    /// calls (otherwise what the recorded hooks said stands).
    #[arg(long)]
    pub with_hooks: bool,
    /// text (default) or json.
    #[arg(long, value_enum, default_value_t = ReplayFormat::Text)]
    pub output_format: ReplayFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReplayFormat {
    /// A line per call and a summary.
    Text,
    /// One JSON object.
    Json,
}
