//! The console observer: the source articles' `[Hook]` and `[Permission]` lines
//! and warnings, written to the stream the CLI hands it (stderr). Every failure
//! line names its contract §7 code (`hook_execution_error`, …), as the transcript does.

use crate::{AgentEvent, Observer, ObserverError};
use agenthub_protocol::{
    CompactionRecord, ErrorCode, HookOutcomeKind, HookRecord, PermissionRecord,
};
use std::io::Write;
use std::sync::Mutex;

/// Writes the human-readable `[Hook]`, `[Permission]` and `[Warning]` lines of
/// a run to `W` (the CLI gives it stderr), failures named by their code;
/// messages, text deltas and outcomes are left to other observers.
pub struct ConsoleObserver<W: Write + Send> {
    out: Mutex<W>,
}

impl<W: Write + Send> ConsoleObserver<W> {
    /// Writes to `out`, one line per event it shows.
    pub fn new(out: W) -> Self {
        ConsoleObserver {
            out: Mutex::new(out),
        }
    }
}

/// `[Hook] PreToolUse: Echo`, `[Hook] PostToolUse: Echo -> ok`, `[Hook] Stop`,
/// with what the hook decided or why it failed after it.
pub fn hook_line(record: &HookRecord) -> String {
    let mut line = format!("[Hook] {}", record.event);
    if let Some(tool) = &record.tool_name {
        line.push_str(&format!(": {tool}"));
    }
    if let Some(result) = record.tool_result {
        line.push_str(&format!(" -> {}", result.as_str()));
    }
    match record.outcome {
        HookOutcomeKind::Ok => {}
        HookOutcomeKind::Blocked => line.push_str(" [blocked]"),
        HookOutcomeKind::ExecutionError => line.push_str(" [hook_execution_error]"),
        HookOutcomeKind::ContractError => line.push_str(" [hook_contract_error]"),
    }
    if let Some(decision) = record
        .decision
        .filter(|_| record.outcome == HookOutcomeKind::Ok)
    {
        line.push_str(&format!(" [{decision}]"));
    }
    line.push_str(&format!(" ({})", record.hook));
    if let Some(error) = &record.error {
        line.push_str(&format!(": {error}"));
    }
    line
}

/// `[Warning] hook_execution_error: PostToolUse hook "log" failed: …`: a
/// failure that left the result alone, named by its code.
pub fn failure_line(code: ErrorCode, text: &str) -> String {
    format!("[Warning] {code}: {text}")
}

/// `[Permission] Bash: ask (default) - Bash asks by default`.
pub fn permission_line(record: &PermissionRecord) -> String {
    format!(
        "[Permission] {}: {} ({}) - {}",
        record.tool, record.effect, record.source, record.reason
    )
}

/// `[Compact] auto: 171 -> 42 tokens, 2 latest messages kept`.
pub fn compaction_line(record: &CompactionRecord) -> String {
    format!(
        "[Compact] {}: {} -> {} tokens, {} latest messages kept",
        record.trigger.as_str(),
        record.tokens_before,
        record.tokens_after,
        record.kept
    )
}

/// The line an event shows on the console, if it shows one.
fn console_line(event: &AgentEvent<'_>) -> Option<String> {
    Some(match event {
        AgentEvent::Hook(record) => hook_line(record),
        AgentEvent::Permission(record) => permission_line(record),
        AgentEvent::Warning(text) => format!("[Warning] {text}"),
        AgentEvent::Failure(code, text) => failure_line(*code, text),
        AgentEvent::Compaction(record) => compaction_line(record),
        _ => return None,
    })
}

impl<W: Write + Send> Observer for ConsoleObserver<W> {
    fn on_event(&self, event: &AgentEvent<'_>) -> Result<(), ObserverError> {
        let line = match event {
            // A subagent's audit lines, named by its type: `[explore] [Permission] …`.
            AgentEvent::Subagent(info, inner) => match console_line(inner) {
                Some(line) => format!("[{}] {line}", info.agent_type),
                None => return Ok(()),
            },
            other => match console_line(other) {
                Some(line) => line,
                None => return Ok(()),
            },
        };
        let mut out = self
            .out
            .lock()
            .map_err(|_| ObserverError("console poisoned".to_owned()))?;
        writeln!(out, "{line}").map_err(|error| ObserverError(error.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failed_record(outcome: HookOutcomeKind) -> HookRecord {
        HookRecord {
            agent_id: None,
            event: agenthub_protocol::HookEvent::PreToolUse.into(),
            hook: "guard".into(),
            tool_use_id: Some("call_1".into()),
            tool_name: Some("Bash".into()),
            tool_result: None,
            outcome,
            decision: None,
            elapsed_ms: 1.0,
            handler_ran: None,
            error: Some("bad output".into()),
            source: None,
            index: None,
            exit_code: None,
        }
    }

    #[test]
    fn a_hook_failure_line_names_its_code() {
        assert_eq!(
            [
                hook_line(&failed_record(HookOutcomeKind::ExecutionError)),
                hook_line(&failed_record(HookOutcomeKind::ContractError)),
            ],
            [
                "[Hook] PreToolUse: Bash [hook_execution_error] (guard): bad output",
                "[Hook] PreToolUse: Bash [hook_contract_error] (guard): bad output",
            ]
        );
    }

    #[test]
    fn a_compaction_line_says_what_started_it_and_what_it_saved() {
        let record = CompactionRecord {
            trigger: agenthub_protocol::CompactionTrigger::Auto,
            tokens_before: 171,
            tokens_after: 42,
            kept: 2,
        };
        assert_eq!(
            compaction_line(&record),
            "[Compact] auto: 171 -> 42 tokens, 2 latest messages kept"
        );
    }

    #[test]
    fn a_failure_warning_names_its_code_first() {
        assert_eq!(
            failure_line(
                ErrorCode::HookExecutionError,
                "PostToolUse hook \"log\" failed: x"
            ),
            "[Warning] hook_execution_error: PostToolUse hook \"log\" failed: x"
        );
    }
}
