//! The Claude Agent SDKs' protocol (contract §30): `--input-format
//! stream-json`. The official SDKs start the executable they are pointed at
//! (`pathToClaudeCodeExecutable`, `cli_path`) and speak to it over stdio:
//! user messages and control requests on stdin, §29's message stream and
//! control lines on stdout. Pointed at `agenthub`, an application written
//! for the SDK gets AgentHub's hooks, rules, sandbox, trust and transcripts
//! unchanged.
//!
//! Three parts run side by side: the reader (here) takes stdin a line at a
//! time and routes it — a user message to the session's queue, a control
//! request to [`control`], a response to the request of ours it answers;
//! the session ([`session`]) takes its queue in order; the channel
//! ([`channel`]) carries our requests to the SDK. Nothing here decides a
//! permission or runs a hook: the SDK's answers enter the one pipeline as an
//! approver ([`approver`]), hook callbacks and MCP servers ([`callbacks`]).

mod approver;
mod callbacks;
mod channel;
mod control;
mod initialize;
mod session;
mod wire;

use crate::args::{OutputFormat, RunArgs};
use crate::error::CliError;
use crate::signals::SignalWatch;
use channel::{Channel, LineOut};
use control::Control;
use session::{Command, Driver};
use std::sync::{Arc, Mutex};
use tokio::io::AsyncBufReadExt;
use tokio::sync::mpsc::{self, UnboundedSender};
use wire::Incoming;

/// `agenthub [run] --input-format stream-json --output-format stream-json …`:
/// serves the SDK until stdin ends.
pub async fn run(args: RunArgs) -> Result<u8, CliError> {
    if args.output_format != OutputFormat::StreamJson {
        return Err(CliError::Usage(
            "--input-format stream-json goes with --output-format stream-json (the Agent SDK's protocol)"
                .to_owned(),
        ));
    }
    for note in args.sdk.ignored() {
        crate::terminal::eprintln_neutral!("agenthub: {note}");
    }
    let options = crate::setup::run_options(&args)?;
    let out = LineOut::stdout();
    let channel = Channel::new(out.clone());
    let setup = Arc::new(Mutex::new(None));
    let driver = Driver::new(args, options, channel.clone(), out, setup.clone());
    let (commands, queue) = mpsc::unbounded_channel();
    let control = Control::new(channel, driver.turn.clone(), setup, commands.clone());
    let reader = tokio::spawn(read_stdin(control, commands));
    // A stopping signal ends the running turn as `interrupt` does, then the
    // session; the exit code says which signal (128 + its number).
    let signals = SignalWatch::start(driver.stop.clone());
    let (stop, turn) = (driver.stop.clone(), driver.turn.clone());
    let interrupt = tokio::spawn(async move {
        stop.cancelled().await;
        turn.cancel();
    });
    let served = driver.serve(queue).await;
    reader.abort();
    interrupt.abort();
    served.map(|()| signals.exit_code(0))
}

/// Routes stdin's lines until it ends; then every request of ours still
/// waiting fails, and the session ends after the messages queued.
async fn read_stdin(control: Control, commands: UnboundedSender<Command>) {
    let mut lines = tokio::io::BufReader::new(tokio::io::stdin()).lines();
    let mut number = 0_u64;
    loop {
        let line = match lines.next_line().await {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(error) => {
                crate::terminal::eprintln_neutral!(
                    "agenthub: stdin line {}: {error}; the input ends here",
                    number + 1
                );
                break;
            }
        };
        number += 1;
        if line.trim().is_empty() {
            continue;
        }
        match wire::parse(&line) {
            Ok(Incoming::User(message)) => {
                for kind in &message.left_out {
                    control.name_once(&format!(
                        "a user message's `{kind}` block is not supported; only text is sent to the model"
                    ));
                }
                let _ = commands.send(Command::Turn(message.text));
            }
            Ok(Incoming::Request { id, request }) => control.handle(id, request),
            Ok(Incoming::Response { id, outcome }) => control.channel.answer(&id, outcome),
            Ok(Incoming::Cancel { .. } | Incoming::Ignored) => {}
            Err(bad) => crate::terminal::eprintln_neutral!(
                "agenthub: stdin line {number}: {bad}; the line is skipped"
            ),
        }
    }
    control.channel.close();
}
