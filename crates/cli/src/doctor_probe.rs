//! `agenthub doctor --probe`: sends the library's one probe request
//! (`agenthub_model::probe`) to the provider `run` would use, and writes what
//! it found, one line each, and whether tool calls can work with the chosen
//! tool protocol. Only output lives here; the request and the verdict are the
//! library's.

use agenthub::crates::model::probe::{probe, CallShape, ProbeReport, Verdict};
use agenthub::crates::model::ToolProtocol;
use agenthub::{Configuration, ProviderOptions};
use std::fmt::Write;

/// The probe's report as text, and whether tool calls can work.
pub struct ProbeOutcome {
    pub text: String,
    pub works: bool,
}

pub async fn run(configuration: &Configuration, options: &ProviderOptions) -> ProbeOutcome {
    let config = match agenthub::provider_config(options, configuration.settings()) {
        Ok(config) => config,
        Err(error) => return failed(format!("not sent: {error}")),
    };
    match probe(&config).await {
        Ok(report) => render(&report, config.tool_protocol),
        Err(error) => failed(format!(
            "{} ({}, model {}): {error}",
            "the request failed", config.base_url, config.model
        )),
    }
}

fn failed(detail: String) -> ProbeOutcome {
    ProbeOutcome {
        text: format!("MISSING probe     {detail}\n"),
        works: false,
    }
}

fn render(report: &ProbeReport, protocol: ToolProtocol) -> ProbeOutcome {
    let observation = &report.observation;
    let yes_no = |flag: bool| if flag { "yes" } else { "no" };
    let calls = match report.tool_calls {
        CallShape::Structured => "structured (in the tool-call fields)".to_owned(),
        CallShape::Text => {
            "as text (a JSON call in the reply's text, not in the tool-call fields)".to_owned()
        }
        CallShape::Absent => format!("not at all (the reply: {})", excerpt(&observation.text)),
    };
    let max_tokens = match (report.max_tokens_honoured(), observation.output_tokens) {
        (Some(true), Some(tokens)) => {
            format!("honoured ({tokens} of {} tokens)", report.max_tokens)
        }
        (Some(false), Some(tokens)) => format!(
            "NOT honoured ({tokens} tokens, {} asked)",
            report.max_tokens
        ),
        _ => "unknown (no usage reported)".to_owned(),
    };
    let finish = observation
        .finish_reason
        .as_deref()
        .map_or(String::new(), |reason| format!(", finish_reason {reason}"));
    let lines = [
        ("base URL", report.base_url.clone()),
        ("model", report.model.clone()),
        (
            "API key",
            if report.key_sent { "sent" } else { "not sent" }.to_owned(),
        ),
        ("streaming", yes_no(observation.streamed).to_owned()),
        ("tool calls", calls),
        ("max_tokens", format!("{max_tokens}{finish}")),
        (
            "usage",
            yes_no(observation.output_tokens.is_some()).to_owned(),
        ),
        (
            "1st token",
            report
                .first_token
                .map_or("unknown (not streamed)".to_owned(), |time| {
                    format!("{:.2} s", time.as_secs_f64())
                }),
        ),
        (
            "speed",
            report
                .tokens_per_second
                .map_or("unknown".to_owned(), |rate| format!("{rate:.1} tokens/s")),
        ),
    ];
    let mut text = String::new();
    for (name, detail) in lines {
        let _ = writeln!(text, "probe   {name:<10} {detail}");
    }
    let verdict = report.verdict(protocol);
    let chosen = protocol.as_str();
    match verdict {
        Verdict::Works => {
            let _ = writeln!(
                text,
                "ok      tool calls work with --tool-protocol {chosen}"
            );
        }
        Verdict::Fails { instead } => {
            let why = match report.tool_calls {
                CallShape::Text => "the server returns calls as text",
                _ => "no call came back, structured or as text",
            };
            let _ = writeln!(
                text,
                "MISSING tool calls cannot work with --tool-protocol {chosen}: {why}; use \
                 --tool-protocol {0} (settings \"toolProtocol\": \"{0}\"){1}",
                instead.as_str(),
                server_hint(report.tool_calls)
            );
        }
    }
    ProbeOutcome {
        text,
        works: verdict == Verdict::Works,
    }
}

fn server_hint(shape: CallShape) -> &'static str {
    match shape {
        CallShape::Text => ", or a server that parses tool calls (e.g. llama.cpp with --jinja)",
        _ => ", or a model and server with tool calling (see docs/real-models.md)",
    }
}

/// The reply's start, quoted, on one line.
fn excerpt(text: &str) -> String {
    const KEPT: usize = 80;
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match flat.char_indices().nth(KEPT) {
        Some((cut, _)) => format!("{:?}…", &flat[..cut]),
        None => format!("{flat:?}"),
    }
}
