//! `agenthub rewind`'s flags; the action is `rewind_command.rs`.

use clap::{ArgGroup, Args};
use std::path::PathBuf;

/// The flags of `agenthub rewind`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("which").required(true).args(["session", "continue_latest"])))]
#[command(group(ArgGroup::new("what").required(true).args(["list", "to"])))]
#[command(group(ArgGroup::new("scope").args(["code", "conversation", "both"])))]
pub struct RewindArgs {
    /// The session (an id of this workspace, or its start).
    #[arg(long, value_name = "ID")]
    pub session: Option<String>,
    /// The most recent session of this workspace.
    #[arg(long = "continue")]
    pub continue_latest: bool,
    /// List the points: prompt number, time, first line, files changed after it.
    #[arg(long)]
    pub list: bool,
    /// Go back to the state before prompt N.
    #[arg(long, value_name = "N")]
    pub to: Option<u32>,
    /// Restore the files only.
    #[arg(long, requires = "to")]
    pub code: bool,
    /// End the conversation before prompt N only (resume goes on from there).
    #[arg(long, requires = "to")]
    pub conversation: bool,
    /// Both the files and the conversation (the default).
    #[arg(long, requires = "to")]
    pub both: bool,
    /// Default: the current directory.
    #[arg(long, value_name = "DIR")]
    pub workspace: Option<PathBuf>,
}
