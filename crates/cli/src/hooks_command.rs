//! `agenthub hooks list` and `agenthub hooks test`: tools for people who write
//! hooks. `list` shows every configured command hook and where it comes from;
//! `test` runs the hooks of one event on a payload file, exactly as a run
//! would (same registry, same engine), and shows each hook's exit code,
//! output, decision and time, then the merged result.
//!
//! Nothing here decides anything a run does not: it only calls the library.

pub(crate) mod list;
mod probe;

use crate::error::CliError;
use agenthub::{Configuration, PermissionOptions};
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
    pub settings: crate::setup::SettingsFlags,
    #[command(flatten)]
    pub trust: crate::setup::TrustFlag,
}

impl SettingsArgs {
    /// The workspace and its settings layers, as a run would read them; the
    /// settings warnings go to stderr.
    pub fn load(&self) -> Result<Configuration, CliError> {
        let options = crate::setup::options(
            self.workspace.clone(),
            self.settings.clone(),
            PermissionOptions::default(),
            self.trust,
        );
        let configuration = Configuration::load(&options)?;
        for warning in configuration.warnings() {
            crate::terminal::eprintln_neutral!("agenthub: warning: {warning}");
        }
        Ok(configuration)
    }
}

#[derive(Debug, Args)]
pub struct ListArgs {
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

pub async fn run(args: HooksArgs) -> Result<u8, CliError> {
    match args.command {
        HooksCommand::List(args) => {
            let configuration = args.sources.load()?;
            crate::output::print_stdout(&list::render(
                configuration.workspace(),
                configuration.settings(),
            ));
            Ok(0)
        }
        HooksCommand::Test(args) => probe::run(args).await,
    }
}
