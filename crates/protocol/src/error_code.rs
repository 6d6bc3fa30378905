//! The failure codes of contract §7. Every tool result that reports a failure starts
//! with `Error [code]: `, so a model and a person can tell "the tool was not run"
//! from "the tool ran and failed".

use std::fmt;

/// Why a tool result is a failure, one variant per row of contract §7. Only
/// [`ErrorCode::ToolError`] means the tool itself ran; every other code means
/// it was not run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// The model called a tool that is not registered.
    UnknownTool,
    /// The arguments are not JSON, or do not fit the tool's input schema.
    InvalidArguments,
    /// A PreToolUse hook blocked the call.
    HookBlocked,
    /// A PreToolUse hook returned something its event does not allow (an
    /// illegal field, an `updated_input` that does not fit the schema).
    HookContractError,
    /// A PreToolUse hook could not complete: it errored, crashed or timed out.
    HookExecutionError,
    /// The permission policy denied the call (a rule, the workspace boundary,
    /// the mode, or a refused approval); the message gives the reason.
    PermissionDenied,
    /// The permission policy could not reach a decision, so the call was not run.
    PermissionEvaluationError,
    /// The tool ran and failed; the message is the tool's own.
    ToolError,
    /// An earlier call's hook stopped the run, so this call was skipped.
    HookStoppedContinuation,
    /// The run was cancelled (Ctrl-C) while this call was pending.
    Cancelled,
    /// The loop guard ended the run (contract §22): this call, or an earlier one
    /// of its message, repeated the same call too often (in a row or among its latest calls).
    LoopDetected,
}

impl ErrorCode {
    /// The code as written between the brackets of `Error [code]: `, e.g.
    /// `unknown_tool`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::UnknownTool => "unknown_tool",
            ErrorCode::InvalidArguments => "invalid_arguments",
            ErrorCode::HookBlocked => "hook_blocked",
            ErrorCode::HookContractError => "hook_contract_error",
            ErrorCode::HookExecutionError => "hook_execution_error",
            ErrorCode::PermissionDenied => "permission_denied",
            ErrorCode::PermissionEvaluationError => "permission_evaluation_error",
            ErrorCode::ToolError => "tool_error",
            ErrorCode::HookStoppedContinuation => "hook_stopped_continuation",
            ErrorCode::Cancelled => "cancelled",
            ErrorCode::LoopDetected => "loop_detected",
        }
    }

    /// Whether the tool's handler has run when a result carries this code.
    pub fn handler_ran(self) -> bool {
        matches!(self, ErrorCode::ToolError)
    }

    /// The text of a failed tool result: `Error [code]: message`.
    pub fn result_text(self, message: &str) -> String {
        format!("Error [{}]: {}", self.as_str(), message)
    }

    /// The text of a failed tool result whose handler never ran:
    /// `Error [code]: the tool was not run: message`.
    pub fn not_run_text(self, message: &str) -> String {
        self.result_text(&not_run(message))
    }
}

/// How every failure whose handler never ran begins (contract §7: "the tool was not
/// run because …" is never worded as a failure of the tool). The one spelling of it.
pub const NOT_RUN: &str = "the tool was not run";

/// `the tool was not run: message`, the message of a failure whose handler never ran.
pub fn not_run(message: &str) -> String {
    format!("{NOT_RUN}: {message}")
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Reads the error code back out of a tool result text, if it is a failure.
pub trait ToolResultText {
    /// The `code` of a result text that starts with `Error [code]: `; `None`
    /// for a successful result.
    fn error_code(&self) -> Option<&str>;
}

impl ToolResultText for str {
    fn error_code(&self) -> Option<&str> {
        let rest = self.strip_prefix("Error [")?;
        let end = rest.find("]: ")?;
        Some(&rest[..end])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_text_starts_with_the_bracketed_code() {
        assert_eq!(
            ErrorCode::HookBlocked.result_text("no"),
            "Error [hook_blocked]: no"
        );
    }

    #[test]
    fn not_run_text_says_the_tool_was_not_run_after_the_code() {
        assert_eq!(
            ErrorCode::PermissionDenied.not_run_text("permission denied: no"),
            "Error [permission_denied]: the tool was not run: permission denied: no"
        );
    }

    #[test]
    fn error_code_is_read_back_from_a_result_text() {
        assert_eq!("Error [unknown_tool]: x".error_code(), Some("unknown_tool"));
        assert_eq!("plain output".error_code(), None);
    }
}
