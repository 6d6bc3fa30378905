//! `agenthub agents`'s flags (the subagent definitions); the listing is `agents_command.rs`.

use super::flags::{SettingsFlags, TrustFlag};
use clap::{Args, Subcommand};
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct AgentsArgs {
    #[command(subcommand)]
    pub command: AgentsCommand,
}

#[derive(Debug, Subcommand)]
pub enum AgentsCommand {
    /// Every subagent type, with its file.
    List(ListArgs),
}

#[derive(Debug, Args)]
pub struct ListArgs {
    /// Default: the current directory.
    #[arg(long, value_name = "DIR")]
    pub workspace: Option<PathBuf>,
    #[command(flatten)]
    pub settings: SettingsFlags,
    #[command(flatten)]
    pub trust: TrustFlag,
}
