//! The `--output-format json` object of one run (contract §9, §12, §22): the
//! outcome, then Claude Code's `usage`, `num_turns`, `duration_ms`,
//! `permission_denials` and `total_cost_usd` (`null` when a price is
//! unknown), and `structured_output` when the run had an answer schema and
//! the answer satisfied it. It lives in the library so that every front end that
//! reports a run — `agenthub run`, each line of `agenthub batch` — prints the
//! same object.
//!
//! It must never word a denial itself: how a refused ask could be allowed is
//! said in the front end's own terms (its flags, a task's settings), so the
//! caller gives that wording.

use agenthub_core::{PermissionDenial, RunReport};
use serde_json::{json, Value};
use std::path::Path;

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
    let mut object = json!({
        "status": report.status.as_str(),
        "result": report.result,
        "error": report.error,
        "turns": report.turns,
        "session_id": report.session_id,
        "transcript_path": transcript.display().to_string(),
        "usage": report.usage,
        "num_turns": report.turns,
        "duration_ms": report.duration_ms,
        "permission_denials": denials,
        "total_cost_usd": report.total_cost_usd,
    });
    if let (Some(structured), Value::Object(fields)) = (&report.structured_output, &mut object) {
        fields.insert("structured_output".to_owned(), structured.clone());
    }
    object
}
