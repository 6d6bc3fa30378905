//! The command line (SPEC §9).

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "agenthub",
    version,
    about = "An agent runtime whose hooks and permissions you can trust"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run one task non-interactively.
    Run(RunArgs),
    /// The source articles' hook demo, offline.
    Demo(DemoArgs),
    /// Command hooks: list them, or test them on a payload.
    Hooks(crate::hooks_command::HooksArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    Text,
    Json,
    StreamJson,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// The task (or use --prompt).
    #[arg(value_name = "TEXT", conflicts_with = "prompt")]
    pub positional_prompt: Option<String>,
    #[arg(long)]
    pub prompt: Option<String>,
    /// Use the scripted model (offline, no key).
    #[arg(long, value_name = "FILE")]
    pub script: Option<PathBuf>,
    /// Default: the current directory.
    #[arg(long, value_name = "DIR")]
    pub workspace: Option<PathBuf>,
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub max_turns: u32,
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub output_format: OutputFormat,
    /// Where to write the JSONL transcript.
    #[arg(long, value_name = "FILE")]
    pub transcript: Option<PathBuf>,
    /// Extra settings file, applied last (a Claude Code .claude/settings.json works as it is).
    #[arg(long, value_name = "FILE")]
    pub settings: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct DemoArgs {
    /// A PreToolUse hook blocks the Echo call.
    #[arg(long)]
    pub block: bool,
    /// A PostToolUse hook fails after Echo ran.
    #[arg(long)]
    pub post_error: bool,
    /// A Stop hook forces one more model turn.
    #[arg(long)]
    pub stop_continue: bool,
    /// Where to write the JSONL transcript.
    #[arg(long, value_name = "FILE")]
    pub transcript: Option<PathBuf>,
}
