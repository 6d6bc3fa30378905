//! The `--output-format json` object of one run (contract §9, §12, §22, §29):
//! Claude Code's result message — `type: "result"`, `subtype`, `is_error`,
//! `errors` (an error result's reasons, as the Agent SDKs read them),
//! `duration_ms`, `duration_api_ms`, `num_turns`, `result`, `session_id`,
//! `total_cost_usd` (`null` when a price is unknown), `usage` with Claude
//! Code's keys, `permission_denials`, and `structured_output` when the run had
//! an answer schema and the answer satisfied it — with AgentHub's own keys
//! (`status`, `error`, `turns`, `transcript_path`, the older `usage` keys)
//! kept beside it. It lives in the library so that every front end that
//! reports a run — `agenthub run` (json, and the last line of stream-json),
//! each line of `agenthub batch` — prints the same object.
//!
//! It must never word a denial itself: how a refused ask could be allowed is
//! said in the front end's own terms (its flags, a task's settings), so the
//! caller gives that wording.

use agenthub_core::{PermissionDenial, RunReport};
use agenthub_protocol::claude_line::WireUsage;
use agenthub_protocol::{RunStatus, Usage};
use serde_json::{json, Value};
use std::path::Path;

/// Claude Code's `subtype` of a result message: how the run ended, in the
/// words an SDK reader switches on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultSubtype {
    /// Completed, or stopped or blocked by a hook on purpose.
    Success,
    /// The turn limit was reached before a final answer.
    ErrorMaxTurns,
    /// `--max-budget-usd` was spent (the error begins `budget exceeded`, §22).
    ErrorMaxBudgetUsd,
    /// The answer never matched `--json-schema` (the error begins
    /// `structured output:`).
    ErrorMaxStructuredOutputRetries,
    /// A reply was cut at the output limit again after its continuation
    /// (the error begins `max output tokens`, §33).
    ErrorMaxOutputTokens,
    /// Cancelled, or any other failure (a model request, a hook on a gate,
    /// the loop guard, …).
    ErrorDuringExecution,
}

/// How the run errors that have their own subtype begin (their texts are
/// contract: §22, §29, §33); a failed run whose error begins otherwise is
/// `error_during_execution`.
const ERROR_BEGINNINGS: [(&str, ResultSubtype); 3] = [
    ("budget exceeded", ResultSubtype::ErrorMaxBudgetUsd),
    (
        "structured output:",
        ResultSubtype::ErrorMaxStructuredOutputRetries,
    ),
    ("max output tokens", ResultSubtype::ErrorMaxOutputTokens),
];

impl ResultSubtype {
    /// The subtype of a run that ended with `status` and `error`.
    pub fn of(status: RunStatus, error: Option<&str>) -> ResultSubtype {
        match status {
            RunStatus::Completed | RunStatus::Stopped | RunStatus::Blocked => {
                ResultSubtype::Success
            }
            RunStatus::MaxTurns => ResultSubtype::ErrorMaxTurns,
            RunStatus::Cancelled => ResultSubtype::ErrorDuringExecution,
            RunStatus::Failed => ERROR_BEGINNINGS
                .iter()
                .find(|(beginning, _)| error.is_some_and(|text| text.starts_with(beginning)))
                .map_or(ResultSubtype::ErrorDuringExecution, |(_, subtype)| *subtype),
        }
    }

    /// The subtype as written, e.g. `error_max_turns`.
    pub fn as_str(self) -> &'static str {
        match self {
            ResultSubtype::Success => "success",
            ResultSubtype::ErrorMaxTurns => "error_max_turns",
            ResultSubtype::ErrorMaxBudgetUsd => "error_max_budget_usd",
            ResultSubtype::ErrorMaxStructuredOutputRetries => "error_max_structured_output_retries",
            ResultSubtype::ErrorMaxOutputTokens => "error_max_output_tokens",
            ResultSubtype::ErrorDuringExecution => "error_during_execution",
        }
    }

    /// Claude Code's `is_error`: true for every `error_*` subtype.
    pub fn is_error(self) -> bool {
        self != ResultSubtype::Success
    }
}

/// The `usage` of the result: AgentHub's keys (`input_tokens` the whole
/// prompt, `cache_read_tokens`, `cache_creation_tokens`) with Claude Code's
/// cache keys beside them, holding the same values.
pub fn usage_json(usage: &Usage) -> Value {
    let wire = WireUsage::from(*usage);
    json!({
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "cache_read_tokens": usage.cache_read_tokens,
        "cache_creation_tokens": usage.cache_creation_tokens,
        "cache_read_input_tokens": wire.cache_read_input_tokens,
        "cache_creation_input_tokens": wire.cache_creation_input_tokens,
    })
}

/// The `--output-format json` object of `report`, whose transcript is at
/// `transcript`; each permission denial's `reason` is `denial_reason(denial)`.
pub fn report_json(
    report: &RunReport,
    transcript: &Path,
    denial_reason: &dyn Fn(&PermissionDenial) -> String,
) -> Value {
    let denials: Vec<Value> = report
        .permission_denials
        .iter()
        .map(|denial| {
            json!({
                "tool_name": denial.tool_name,
                "tool_use_id": denial.tool_use_id,
                "tool_input": denial.tool_input,
                "reason": denial_reason(denial),
            })
        })
        .collect();
    let subtype = ResultSubtype::of(report.status, report.error.as_deref());
    let mut object = json!({
        "type": "result",
        "subtype": subtype.as_str(),
        "is_error": subtype.is_error(),
        "status": report.status.as_str(),
        "result": report.result,
        "error": report.error,
        "turns": report.turns,
        "session_id": report.session_id,
        "transcript_path": transcript.display().to_string(),
        "usage": usage_json(&report.usage),
        "num_turns": report.turns,
        "duration_ms": report.duration_ms,
        "duration_api_ms": report.duration_api_ms,
        "permission_denials": denials,
        "total_cost_usd": report.total_cost_usd,
    });
    if let Value::Object(fields) = &mut object {
        if let Some(structured) = &report.structured_output {
            fields.insert("structured_output".to_owned(), structured.clone());
        }
        if subtype.is_error() {
            fields.insert("errors".to_owned(), json!(error_list(report)));
        }
    }
    object
}

/// Claude Code's `errors` of an error result: what went wrong, one string
/// each (the SDKs read this list, not `error`).
fn error_list(report: &RunReport) -> Vec<String> {
    let text = report
        .error
        .clone()
        .unwrap_or_else(|| format!("the run ended {}", report.status.as_str()));
    vec![text]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_maps_to_claude_codes_subtype_and_is_error() {
        let mapped: Vec<(&str, bool)> = [
            RunStatus::Completed,
            RunStatus::Stopped,
            RunStatus::Blocked,
            RunStatus::MaxTurns,
            RunStatus::Cancelled,
            RunStatus::Failed,
        ]
        .into_iter()
        .map(|status| {
            let subtype = ResultSubtype::of(status, Some("model request failed: refused"));
            (subtype.as_str(), subtype.is_error())
        })
        .collect();
        assert_eq!(
            mapped,
            [
                ("success", false),
                ("success", false),
                ("success", false),
                ("error_max_turns", true),
                ("error_during_execution", true),
                ("error_during_execution", true),
            ]
        );
    }

    #[test]
    fn a_failed_runs_error_names_the_limit_it_reached() {
        let mapped: Vec<&str> = [
            Some("budget exceeded: $0.02 spent, the limit is $0.01 (--max-budget-usd); no further model request was made"),
            Some("structured output: the final answer does not match the JSON schema after 2 retries: …"),
            Some("max output tokens: the reply was cut at 16384 tokens twice"),
            Some("loop: Bash repeated 5 times"),
            None,
        ]
        .into_iter()
        .map(|error| ResultSubtype::of(RunStatus::Failed, error).as_str())
        .collect();
        assert_eq!(
            mapped,
            [
                "error_max_budget_usd",
                "error_max_structured_output_retries",
                "error_max_output_tokens",
                "error_during_execution",
                "error_during_execution",
            ]
        );
    }

    #[test]
    fn only_a_failure_reads_the_error_text() {
        let subtype = ResultSubtype::of(RunStatus::Stopped, Some("budget exceeded"));
        assert_eq!(subtype, ResultSubtype::Success);
    }

    #[test]
    fn usage_carries_claude_codes_keys_beside_agenthubs_with_the_same_values() {
        let usage = Usage {
            input_tokens: 1200,
            output_tokens: 80,
            cache_read_tokens: 1000,
            cache_creation_tokens: 150,
        };
        assert_eq!(
            usage_json(&usage),
            json!({
                "input_tokens": 1200, "output_tokens": 80,
                "cache_read_tokens": 1000, "cache_creation_tokens": 150,
                "cache_read_input_tokens": 1000, "cache_creation_input_tokens": 150,
            })
        );
    }
}
