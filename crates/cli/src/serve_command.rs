//! `agenthub acp` and `agenthub mcp serve` (contract §23): `run`'s flags
//! turned into the options every served session starts from, then the
//! serving library (`agenthub-serve`) on stdin and stdout. Stdout carries
//! protocol messages only; the audit lines, the hints and the setup
//! warnings go to stderr.

use crate::args::{OutputFormat, RunArgs};
use crate::error::CliError;
use crate::headless::{hint, HeadlessHints};
use agenthub::{ConsoleObserver, HowToAllow, Observer, SetupWarning};
use agenthub_serve::{Flags, Host, ServeError, ServedBy};
use std::sync::Arc;

/// Serves ACP on stdin and stdout until the client closes stdin.
pub async fn acp(args: RunArgs) -> Result<u8, CliError> {
    let flags = flags(&args, ServedBy::Acp)?;
    let served = agenthub_serve::acp::serve(
        flags,
        Arc::new(Stderr),
        tokio::io::stdin(),
        tokio::io::stdout(),
    )
    .await;
    if let Err(error) = served {
        match error {
            ServeError::Input(error) => {
                crate::terminal::eprintln_neutral!("agenthub acp: cannot read stdin: {error}")
            }
            other => return Err(other.into()),
        }
    }
    Ok(0)
}

/// Serves MCP on stdin and stdout until the client closes stdin.
pub async fn mcp_serve(args: RunArgs) -> Result<u8, CliError> {
    let flags = flags(&args, ServedBy::McpServe)?;
    agenthub_serve::mcp::serve(
        flags,
        Arc::new(Stderr),
        tokio::io::stdin(),
        tokio::io::stdout(),
    )
    .await?;
    Ok(0)
}

/// The terminal's part in serving: audit lines and hints on stderr.
struct Stderr;

impl Host for Stderr {
    fn observers(&self, door: ServedBy) -> Vec<Arc<dyn Observer>> {
        let console: Arc<dyn Observer> = Arc::new(ConsoleObserver::new(crate::terminal::stderr()));
        match door {
            ServedBy::Acp => vec![console],
            ServedBy::McpServe => vec![
                console,
                Arc::new(HeadlessHints::new(crate::terminal::stderr())),
            ],
        }
    }

    fn hint(&self, tool: &str, how: &HowToAllow) -> String {
        hint(tool, how)
    }

    fn warnings(&self, warnings: Vec<SetupWarning>) {
        crate::setup::print_warning_list(warnings);
    }
}

/// `run`'s flags as every session's options (for ACP the workspace is
/// each session's `cwd`).
fn flags(args: &RunArgs, door: ServedBy) -> Result<Flags, CliError> {
    refuse_unserved(args, door)?;
    let options = crate::setup::run_options(args)?;
    Ok(Flags {
        options,
        model: crate::setup::model_options(args),
        max_turns: args.max_turns,
    })
}

/// Run's flags that mean nothing when a client drives the sessions are
/// refused, not ignored: the client sends the prompts, picks or loads the
/// sessions and reads the protocol's own output.
fn refuse_unserved(args: &RunArgs, door: ServedBy) -> Result<(), CliError> {
    let (name, sessions) = match door {
        ServedBy::Acp => (
            "agenthub acp",
            "the editor sends prompts and loads sessions (session/load)",
        ),
        ServedBy::McpServe => (
            "agenthub mcp serve",
            "each agenthub_run call is a new session with its own prompt",
        ),
    };
    let given = [
        (
            args.positional_prompt.is_some() || args.prompt.is_some(),
            "a prompt",
        ),
        (args.transcript.is_some(), "--transcript"),
        (args.resume.is_some(), "--resume"),
        (args.continue_latest, "--continue"),
        (args.fork_session, "--fork-session"),
        (args.claude.session_id.is_some(), "--session-id"),
        (
            args.claude.input_format != crate::args::claude_flags::InputFormat::Text,
            "--input-format",
        ),
        (args.output_format != OutputFormat::Text, "--output-format"),
    ];
    match given.iter().find(|(present, _)| *present) {
        Some((_, flag)) => Err(CliError::Usage(format!(
            "{name} does not take {flag}: {sessions}, and the protocol is its output"
        ))),
        None => Ok(()),
    }
}
