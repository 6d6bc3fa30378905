//! What a run prints: the answer (text), Claude Code's result message
//! (json), or Claude Code's message stream (stream-json: its lines as they
//! happen come from [`crate::stream_json`]; the result message, last, from here).

use crate::args::OutputFormat;
use crate::headless::denial_reason;
use agenthub::RunReport;
use agenthub::RunStatus;
use serde_json::Value;
use std::io::Write;
use std::path::Path;

/// Writes `text` to stdout (neutralised when stdout is a terminal). A reader that went away (`agenthub run ... | head`)
/// is not an error of the run: what could not be written is dropped, and the
/// exit code still tells how the run ended. `print!` would panic instead.
pub fn print_stdout(text: &str) {
    let mut out = crate::terminal::Neutral::when_terminal(std::io::stdout().lock());
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// Whether the final answer is already on stdout because it was streamed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerShown {
    AlreadyStreamed,
    NotYet,
}

/// Prints the report for the chosen format; returns the process exit code. In
/// text mode an answer that was already streamed is not printed a second time.
pub fn print_report(
    report: &RunReport,
    format: OutputFormat,
    transcript: &Path,
    shown: AnswerShown,
) -> u8 {
    match format {
        OutputFormat::Json | OutputFormat::StreamJson => {
            print_stdout(&format!("{}\n", json_report(report, transcript)));
        }
        OutputFormat::Text => print_text(report, shown),
    }
    exit_code(report.status)
}

/// The `--output-format json` object (the library's; stream-json's last
/// line), its denials worded
/// with this command's flags.
pub fn json_report(report: &RunReport, transcript: &Path) -> Value {
    agenthub::report_json(report, transcript, &denial_reason)
}

fn print_text(report: &RunReport, shown: AnswerShown) {
    match report.status {
        RunStatus::Completed => {
            if let (Some(answer), AnswerShown::NotYet) = (&report.result, shown) {
                print_stdout(&format!("{answer}\n"));
            }
        }
        status => {
            let detail = report.error.as_deref().unwrap_or("no reason given");
            crate::terminal::eprintln_neutral!("agenthub: run {status}: {detail}");
        }
    }
}

fn exit_code(status: RunStatus) -> u8 {
    u8::try_from(status.exit_code()).unwrap_or(1)
}
