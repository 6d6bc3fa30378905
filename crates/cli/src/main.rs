//! The `agenthub` binary: parses the command line, builds an agent from the
//! library crates, and is the only place that prints or knows about terminals.

mod approver;
mod args;
mod demo;
mod error;
mod headless;
mod hooks_command;
mod live;
mod output;
mod permissions_command;
mod prompt;
mod run_command;
mod sessions_command;
mod setup;
mod signals;
mod spinner;
mod terminal;
mod trust_command;

use args::{Cli, Command};
use clap::Parser;
use error::CliError;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            return report(CliError::Internal(format!(
                "cannot start the async runtime: {error}"
            )))
        }
    };
    let outcome = runtime.block_on(async {
        match cli.command {
            Command::Run(args) => run_command::run(args).await,
            Command::Demo(args) => demo::run(args).await,
            Command::Hooks(args) => hooks_command::run(args).await,
            Command::Permissions(args) => permissions_command::run(args).await,
            Command::Trust(args) => trust_command::run(args),
            Command::Sessions(args) => sessions_command::run(args),
        }
    });
    match outcome {
        Ok(code) => ExitCode::from(code),
        Err(error) => report(error),
    }
}

fn report(error: CliError) -> ExitCode {
    crate::terminal::eprintln_neutral!("agenthub: {error}");
    ExitCode::from(error.exit_code())
}
