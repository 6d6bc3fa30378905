//! The `agenthub` binary: parses the command line, builds an agent from the
//! library crates, and is the only place that prints or knows about terminals.

mod agents_command;
mod approver;
mod args;
mod bare_word;
mod batch_command;
mod batch_progress;
mod chat;
mod demo;
mod doctor_command;
mod doctor_probe;
mod error;
mod fleet_command;
mod headless;
mod hooks_command;
mod key_approver;
mod keys;
mod live;
mod mcp_command;
mod mcp_edit;
mod output;
mod permissions_command;
mod plugin_command;
mod prompt;
mod replay_command;
mod rewind_command;
mod run_command;
mod sdk;
mod serve_command;
mod sessions_command;
mod setup;
mod shell_docs;
mod shown_lines;
mod signals;
mod spinner;
mod stream_json;
mod stream_lines;
mod terminal;
mod trust_command;

use args::{Cli, Command};
use clap::Parser;
use error::CliError;
use std::io::IsTerminal;
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
        let outcome = match cli.command {
            None => no_command(cli.print, cli.chat).await,
            Some(command) => run(command).await,
        };
        flush_traces().await;
        outcome
    });
    match outcome {
        Ok(code) => ExitCode::from(code),
        Err(error) => report(error),
    }
}

/// `agenthub` with no subcommand (§29): `-p`/`--print` runs the prompt as
/// `agenthub run` does; otherwise the interactive session when stdin and
/// stdout are both terminals, else a run (`echo TASK | agenthub`,
/// `agenthub "fix the build"` in a script). A lone bare word that is not a
/// subcommand is refused first, unless `-p` said it is a prompt.
async fn no_command(print: bool, args: args::RunArgs) -> Result<u8, CliError> {
    if let (Some(word), false) = (&args.positional_prompt, print) {
        let after_separator = bare_word::has_separator(std::env::args_os());
        if let Some(refusal) = bare_word::refuse_bare_word(word, after_separator) {
            return Err(CliError::Usage(refusal));
        }
    }
    let interactive = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    if interactive && !print {
        return chat::run(args).await;
    }
    if std::env::args_os().len() == 1 && !prompt::stdin_has_text()? {
        // `agenthub` alone, with nothing to run and nobody to talk to.
        let mut usage = <Cli as clap::CommandFactory>::command();
        eprintln!("{}", usage.render_help());
        return Ok(2);
    }
    run_command::run(args).await
}

async fn run(command: Command) -> Result<u8, CliError> {
    match command {
        Command::Chat(args) => chat::run(args).await,
        Command::Acp(args) => serve_command::acp(args).await,
        Command::Run(args) => run_command::run(args).await,
        Command::Demo(args) => demo::run(args).await,
        Command::Doctor(args) => doctor_command::run(args).await,
        Command::Completions(args) => shell_docs::completions(args),
        Command::Man => shell_docs::man_page(),
        Command::Hooks(args) => hooks_command::run(args).await,
        Command::Permissions(args) => permissions_command::run(args).await,
        Command::Replay(args) => replay_command::run(args).await,
        Command::Trust(args) => trust_command::run(args),
        Command::Sessions(args) => sessions_command::run(args),
        Command::Agents(args) => agents_command::run(args),
        Command::Plugin(args) => plugin_command::run(args),
        Command::Mcp(args) => mcp_command::run(args).await,
        Command::Batch(args) => batch_command::run(args).await,
        Command::Worker(args) => fleet_command::worker(args).await,
        Command::Status(args) => fleet_command::status(args).await,
        Command::Approve(args) => fleet_command::approve(args).await,
        Command::Rewind(args) => rewind_command::run(args),
    }
}

/// Sends the spans still queued (contract §25), waiting at most 1 s: an
/// unreachable collector never fails a command and delays its end by at most that.
async fn flush_traces() {
    use agenthub::tracing_export::{flush_traces, FLUSH_LIMIT};
    if let Some(unsent) = flush_traces(FLUSH_LIMIT).await {
        crate::terminal::eprintln_neutral!("[Warning] {unsent}");
    }
}

fn report(error: CliError) -> ExitCode {
    crate::terminal::eprintln_neutral!("agenthub: {error}");
    ExitCode::from(error.exit_code())
}
