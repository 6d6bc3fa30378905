//! `agenthub hooks list` and `agenthub hooks test`: tools for people who write
//! hooks. `list` shows every configured command hook and where it comes from;
//! `test` runs the hooks of one event on a payload file, exactly as a run
//! would (same registry, same engine), and shows each hook's exit code,
//! output, decision and time, then the merged result.
//!
//! Nothing here decides anything a run does not: it only calls the library.

pub(crate) mod list;
mod probe;

use crate::args::hooks::{HooksArgs, HooksCommand, SettingsArgs};
use crate::error::CliError;
use agenthub::{Configuration, PermissionOptions};

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
