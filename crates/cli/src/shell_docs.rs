//! Documents generated from the command line's own definition, so they can
//! never drift from it: shell completion scripts and the man page.

use crate::args::completions::CompletionsArgs;
use crate::error::CliError;
use clap::CommandFactory;

/// Writes the completion script for `args.shell` to stdout.
pub fn completions(args: CompletionsArgs) -> Result<u8, CliError> {
    let mut command = crate::args::Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "agenthub", &mut script);
    write_stdout(&script)
}

/// Writes the man page (roff) to stdout.
pub fn man_page() -> Result<u8, CliError> {
    let mut page = Vec::new();
    clap_mangen::Man::new(crate::args::Cli::command())
        .render(&mut page)
        .map_err(|error| CliError::Internal(format!("cannot render the man page: {error}")))?;
    write_stdout(&page)
}

fn write_stdout(bytes: &[u8]) -> Result<u8, CliError> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Ok(()) => Ok(0),
        // A closed pipe (`| head`) is the reader's choice, not a failure.
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => Ok(0),
        Err(error) => Err(CliError::Internal(format!(
            "cannot write to stdout: {error}"
        ))),
    }
}
