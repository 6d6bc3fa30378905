//! `agenthub hooks`'s flags (`list`, `test`); the actions are `hooks_command/`.

use clap::{Args, Subcommand};
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct HooksArgs {
    #[command(subcommand)]
    pub command: HooksCommand,
}

#[derive(Debug, Subcommand)]
pub enum HooksCommand {
    /// Every configured command hook: event, matcher, command, source file, index, onFailure.
    List(ListArgs),
    /// Run the hooks of EVENT on a payload and show each verdict, then the merged result.
    Test(TestArgs),
}

/// Which settings to read.
#[derive(Debug, Args)]
pub struct SettingsArgs {
    /// Default: the current directory.
    #[arg(long, value_name = "DIR")]
    pub workspace: Option<PathBuf>,
    #[command(flatten)]
    pub settings: super::flags::SettingsFlags,
    #[command(flatten)]
    pub trust: super::flags::TrustFlag,
}

#[derive(Debug, Args)]
pub struct ListArgs {
    #[command(flatten)]
    pub sources: SettingsArgs,
}

#[derive(Debug, Args)]
pub struct TestArgs {
    #[arg(value_name = "EVENT", help = event_help())]
    pub event: String,
    /// The payload, as a hook would get it on stdin (missing common fields are filled in).
    #[arg(long, value_name = "FILE")]
    pub input: PathBuf,
    #[command(flatten)]
    pub sources: SettingsArgs,
}

/// The help of `hooks test EVENT`: every event AgentHub fires, from the one list.
fn event_help() -> String {
    let names: Vec<&str> = agenthub::HookEvent::ALL
        .iter()
        .map(|event| event.as_str())
        .collect();
    format!("The event: {}", names.join(", "))
}
