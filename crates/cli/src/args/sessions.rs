//! `agenthub sessions`'s flags; the listing is `sessions_command.rs`.

use clap::{Args, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct SessionsArgs {
    #[command(subcommand)]
    pub command: SessionsCommand,
}

#[derive(Debug, Subcommand)]
pub enum SessionsCommand {
    /// This workspace's sessions, most recent first.
    List(ListArgs),
}

#[derive(Debug, Args)]
pub struct ListArgs {
    /// Default: the current directory.
    #[arg(long, value_name = "DIR")]
    pub workspace: Option<PathBuf>,
    /// text: a line per session; json: an array of objects (session_id,
    /// created, model, first_prompt, turns, last_status, transcript).
    #[arg(long, value_enum, default_value_t = ListFormat::Text)]
    pub output_format: ListFormat,
}

/// How the list is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    Text,
    Json,
}
