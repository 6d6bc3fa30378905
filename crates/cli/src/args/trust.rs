//! `agenthub trust`'s flags; the action is `trust_command.rs`.

use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct TrustArgs {
    /// Default: the current directory.
    #[arg(long, value_name = "DIR")]
    pub workspace: Option<PathBuf>,
    /// Only show what the configuration would do and whether it is trusted.
    #[arg(long, conflicts_with = "revoke")]
    pub show: bool,
    /// Forget the trust in this workspace.
    #[arg(long)]
    pub revoke: bool,
}
