//! `agenthub hooks test EVENT --input FILE`: runs the event's command hooks
//! on the payload through the engine and prints, per hook, its exit code,
//! stdout, stderr, decision and elapsed time, then the merged result. The
//! payload is read as the event's stdin by the hooks crate
//! (`agenthub::run_sample`, through the type the engine writes): this
//! file names no event.

use crate::args::hooks::TestArgs;
use crate::error::CliError;
use crate::output::print_stdout;
use agenthub::RunEnd;
use agenthub::StandInTool;
use agenthub::{CommandHookConfig, HookEvent};
use agenthub::{CommandRunReport, RunLog, SampleEnv};
use agenthub::{HookDecision, HookOutcomeKind, HookRecord, ToolCall};
use agenthub::{PreparedCall, ToolRegistry};
use serde_json::Value;
use std::fmt::Write;
use std::path::Path;

pub async fn run(args: TestArgs) -> Result<u8, CliError> {
    let event = HookEvent::parse(&args.event).ok_or_else(|| {
        let known: Vec<&str> = HookEvent::ALL.iter().map(|event| event.as_str()).collect();
        CliError::Usage(format!(
            "unknown event {:?}; known events: {}",
            args.event,
            known.join(", ")
        ))
    })?;
    let configuration = args.sources.load()?;
    let workspace = configuration.workspace();
    let settings = configuration.settings();
    let payload = read_payload(&args.input)?;
    let hooks: Vec<CommandHookConfig> = settings
        .hooks
        .iter()
        .filter(|hook| hook.event == event)
        .cloned()
        .collect();
    let log = RunLog::default();
    let registry = configuration.hooks_registry(hooks.clone(), Some(log.clone()))?;
    let env = SampleEnv {
        workspace: workspace.to_path_buf(),
        prepare: &prepare,
    };
    let outcome = agenthub::run_sample(&registry, event, payload, &env)
        .await
        .map_err(|error| CliError::Usage(format!("payload {}: {error}", args.input.display())))?;
    let target = outcome.target.clone();
    print_stdout(&render(
        event,
        target.as_deref(),
        &hooks,
        &log.reports(),
        &outcome.records,
    ));
    let mut tail = String::new();
    for message in &outcome.messages {
        let _ = writeln!(tail, "message to the user: {message}");
    }
    let _ = writeln!(tail, "merged result:");
    for line in &outcome.merged {
        let _ = writeln!(tail, "  {line}");
    }
    print_stdout(&tail);
    Ok(0)
}

/// Prepares a sample's tool call with the real tool registry; a tool
/// AgentHub does not have gets a stand-in that accepts any input.
fn prepare(call: &ToolCall) -> Result<PreparedCall, String> {
    let mut tools = ToolRegistry::with_builtins().map_err(|error| error.to_string())?;
    if tools.get(call.name()).is_none() {
        tools
            .register(StandInTool::new(call.name().to_owned()))
            .map_err(|error| error.to_string())?;
    }
    tools
        .prepare(call)
        .map_err(|rejection| rejection.result_text())
}

fn read_payload(path: &Path) -> Result<Value, CliError> {
    let text = std::fs::read_to_string(path).map_err(|error| {
        CliError::Usage(format!("cannot read payload {}: {error}", path.display()))
    })?;
    let value: Value = serde_json::from_str(&text).map_err(|error| {
        CliError::Usage(format!(
            "malformed payload {} at line {}, column {}: {error}",
            path.display(),
            error.line(),
            error.column()
        ))
    })?;
    if !value.is_object() {
        return Err(CliError::Usage(format!(
            "payload {} must be a JSON object",
            path.display()
        )));
    }
    Ok(value)
}

/// One block per configured hook of the event, in run order.
fn render(
    event: HookEvent,
    target: Option<&str>,
    hooks: &[CommandHookConfig],
    reports: &[CommandRunReport],
    records: &[HookRecord],
) -> String {
    let mut out = String::new();
    let _ = match target {
        Some(target) => writeln!(
            out,
            "{event} on {target:?}: {} command hook(s) configured",
            hooks.len()
        ),
        None => writeln!(out, "{event}: {} command hook(s) configured", hooks.len()),
    };
    let mut ran = reports.iter().zip(records.iter());
    for (position, hook) in hooks.iter().enumerate() {
        let _ = writeln!(out, "\n[{}] {}", position + 1, hook.display_command());
        let _ = writeln!(
            out,
            "    source:   {} (index {}, {}), onFailure: {}",
            hook.source.display(),
            hook.index,
            hook.json_path,
            hook.on_failure
        );
        let matched = target.is_none_or(|target| hook.matcher.matches(target));
        if !matched {
            let _ = writeln!(
                out,
                "    skipped:  matcher {:?} does not match",
                hook.matcher.key()
            );
            continue;
        }
        match ran.next() {
            Some((report, record)) => describe_run(&mut out, report, record),
            None => {
                let _ = writeln!(out, "    not run:  an earlier hook already decided");
            }
        }
    }
    let _ = writeln!(out);
    out
}

fn describe_run(out: &mut String, report: &CommandRunReport, record: &HookRecord) {
    let run = &report.run;
    let _ = writeln!(out, "    exit:     {}", exit_text(&run.end));
    let _ = writeln!(
        out,
        "    elapsed:  {:.1} ms",
        run.elapsed.as_secs_f64() * 1000.0
    );
    let _ = writeln!(out, "    stdout:   {}", block(&run.stdout));
    let _ = writeln!(out, "    stderr:   {}", block(&run.stderr));
    let decision = match record.outcome {
        HookOutcomeKind::Ok => record
            .decision
            .map_or("none", HookDecision::as_str)
            .to_owned(),
        HookOutcomeKind::Blocked => record.decision.unwrap_or(HookDecision::Block).to_string(),
        HookOutcomeKind::ExecutionError => format!(
            "hook failure: {}",
            record.error.as_deref().unwrap_or("unknown")
        ),
        HookOutcomeKind::ContractError => format!(
            "contract error: {}",
            record.error.as_deref().unwrap_or("unknown")
        ),
    };
    let _ = writeln!(out, "    decision: {decision}");
}

fn exit_text(end: &RunEnd) -> String {
    match end {
        RunEnd::Exited(code) => code.to_string(),
        RunEnd::Signaled(signal) => format!("killed by signal {signal}"),
        RunEnd::CannotStart(message) => format!("could not start: {message}"),
        RunEnd::TimedOut(timeout) => format!("timed out after {}s", timeout.as_secs_f64()),
        RunEnd::OutputTooLarge(stream) => format!("too much output on {}", stream.as_str()),
        RunEnd::Unreadable(stream, message) => format!("{} unreadable: {message}", stream.as_str()),
        RunEnd::Cancelled => "cancelled".to_owned(),
        RunEnd::Refused(message) => format!("could not run: {message}"),
    }
}

/// Output text, indented under its label; `(empty)` when there is none.
fn block(text: &str) -> String {
    let trimmed = text.trim_end();
    if trimmed.is_empty() {
        return "(empty)".to_owned();
    }
    trimmed.replace('\n', "\n              ")
}
