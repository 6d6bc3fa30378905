//! What a run prints: the answer (text), one JSON object (json), or every
//! transcript line as it happens (stream-json; set up in `run_command`).

use crate::args::OutputFormat;
use agenthub_core::RunReport;
use agenthub_protocol::RunStatus;
use serde_json::json;
use std::path::Path;

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
        OutputFormat::Json => {
            let object = json!({
                "status": report.status.as_str(),
                "result": report.result,
                "error": report.error,
                "turns": report.turns,
                "session_id": report.session_id,
                "transcript_path": transcript.display().to_string(),
            });
            println!("{object}");
        }
        OutputFormat::Text => print_text(report, shown),
        OutputFormat::StreamJson => {}
    }
    exit_code(report.status)
}

fn print_text(report: &RunReport, shown: AnswerShown) {
    match report.status {
        RunStatus::Completed => {
            if let (Some(answer), AnswerShown::NotYet) = (&report.result, shown) {
                println!("{answer}");
            }
        }
        status => {
            let detail = report.error.as_deref().unwrap_or("no reason given");
            eprintln!("agenthub: run {status}: {detail}");
        }
    }
}

fn exit_code(status: RunStatus) -> u8 {
    u8::try_from(status.exit_code()).unwrap_or(1)
}
