//! `agenthub permissions`'s flags; the explanation is `permissions_command.rs`.

use clap::{Args, Subcommand};
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct PermissionsArgs {
    #[command(subcommand)]
    pub command: PermissionsCommand,
}

#[derive(Debug, Subcommand)]
pub enum PermissionsCommand {
    /// Show each participant's verdict on one tool call, and the decision.
    Explain(ExplainArgs),
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The tool, e.g. Bash, Read, Write; `Network` for a sandboxed
    /// command's connection (sandbox.network).
    pub tool: String,
    /// The tool's input as a JSON object, e.g. '{"command": "git status"}';
    /// for `Network`, the host (`example.com` or `example.com:8080`).
    pub json: String,
    /// Default: the current directory.
    #[arg(long, value_name = "DIR")]
    pub workspace: Option<PathBuf>,
    #[command(flatten)]
    pub settings: super::flags::SettingsFlags,
    #[command(flatten)]
    pub permissions: super::flags::PermissionFlags,
    #[command(flatten)]
    pub trust: super::flags::TrustFlag,
}
