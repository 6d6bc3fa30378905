//! How a hook fails: why it could not complete ([`ExecutionError`]) or how
//! its answer broke its event's contract ([`ContractError`]).
//!
//! The `Display` of every variant is the exact text users and transcripts have
//! always seen (hook records, `hooks test`, warnings): change a message here and
//! an end-to-end test that asserts it fails. This module must never decide a
//! failure policy; the engine does that from the kind.

use agenthub_settings::HookEvent;
use agenthub_tools::RewriteRejection;
use std::time::Duration;
use thiserror::Error;

/// A hook that could not complete (`Execution`) or returned something its event
/// does not allow (`Contract`). Either way the hook's result is not applied.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HookError {
    /// The hook could not complete (an error, a crash, a timeout): reported
    /// as `hook_execution_error`.
    #[error(transparent)]
    Execution(ExecutionError),
    /// The hook answered something its event does not allow (an illegal
    /// field, a bad rewrite, a blank force_continue): reported as
    /// `hook_contract_error`.
    #[error(transparent)]
    Contract(ContractError),
}

impl HookError {
    /// An in-process hook could not complete; `message` says why.
    pub fn execution(message: impl Into<String>) -> Self {
        HookError::Execution(ExecutionError::Hook(message.into()))
    }

    /// An in-process hook broke its event's contract; `message` says how.
    pub fn contract(message: impl Into<String>) -> Self {
        HookError::Contract(ContractError::Hook(message.into()))
    }
}

impl From<ExecutionError> for HookError {
    fn from(error: ExecutionError) -> Self {
        HookError::Execution(error)
    }
}

impl From<ContractError> for HookError {
    fn from(error: ContractError) -> Self {
        HookError::Contract(error)
    }
}

/// Why a hook could not do its job. `stderr` is the first non-blank line of
/// the hook's stderr, when it wrote one.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ExecutionError {
    /// An in-process hook's own words.
    #[error("{0}")]
    Hook(String),
    /// Exit 127: the shell found no such command.
    #[error("exited with status 127 (command not found){}", colon(.stderr))]
    CommandNotFound {
        /// The first non-blank line of its stderr.
        stderr: Option<String>,
    },
    /// Exit 126: the command is not executable.
    #[error("exited with status 126 (not executable){}", colon(.stderr))]
    NotExecutable {
        /// The first non-blank line of its stderr.
        stderr: Option<String>,
    },
    /// Another exit status that counts as a failure.
    #[error("exited with status {code}{}", colon(.stderr))]
    Exited {
        /// The exit status.
        code: i32,
        /// The first non-blank line of its stderr.
        stderr: Option<String>,
    },
    /// Killed by a signal AgentHub did not send.
    #[error("was killed by signal {signal}{}", colon(.stderr))]
    Signaled {
        /// The signal number.
        signal: i32,
        /// The first non-blank line of its stderr.
        stderr: Option<String>,
    },
    /// The command could not be started.
    #[error("could not be started: {0}")]
    CannotStart(String),
    /// Ran past its timeout.
    #[error("timed out after {}s; its process group was killed", .0.as_secs_f64())]
    TimedOut(Duration),
    /// Wrote more than `cap` bytes to `stream`.
    #[error("wrote more than {cap} bytes to {stream}; its process group was killed")]
    OutputTooLarge {
        /// `stdout` or `stderr`.
        stream: &'static str,
        /// The cap in bytes.
        cap: usize,
    },
    /// A stream could not be read.
    #[error("its {stream} could not be read ({message}); its process group was killed")]
    Unreadable {
        /// `stdout` or `stderr`.
        stream: &'static str,
        /// What went wrong.
        message: String,
    },
    /// The run was cancelled.
    #[error("was cancelled with the run; its process group was killed")]
    Cancelled,
    /// A handler that is not a process got no answer (an `http` hook's
    /// status, no model for a `prompt` hook, …).
    #[error("could not run: {0}")]
    Refused(String),
    /// stdout starts with `{` and parses, but not as an object.
    #[error("its stdout starts with '{{' but is not a JSON object")]
    StdoutNotAnObject,
    /// stdout starts with `{` but does not parse; the parser says why.
    #[error("its stdout starts with '{{' but is not one JSON object ({0})")]
    StdoutNotJson(String),
    /// The event's stdin could not be serialized.
    #[error("cannot write {event} stdin: {message}")]
    Stdin {
        /// The event.
        event: HookEvent,
        /// What went wrong.
        message: String,
    },
}

/// `": line"` after a failure when stderr said something.
fn colon(stderr: &Option<String>) -> String {
    stderr
        .as_deref()
        .map(|line| format!(": {line}"))
        .unwrap_or_default()
}

/// How a hook's answer broke its event's contract. `kind` is how a JSON
/// value reads ("a number", "an array", …).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ContractError {
    /// An in-process hook's own words.
    #[error("{0}")]
    Hook(String),
    /// A top-level field that must be a string.
    #[error("{key} must be a string, not {kind}")]
    NotAString {
        /// The field, as written.
        key: String,
        /// How the value reads ("a number", …).
        kind: &'static str,
    },
    /// A top-level field that must be a boolean.
    #[error("{key} must be true or false, not {kind}")]
    NotABoolean {
        /// The field, as written.
        key: String,
        /// How the value reads ("a number", …).
        kind: &'static str,
    },
    /// A `hookSpecificOutput` field that must be a string.
    #[error("hookSpecificOutput.{key} must be a string, not {kind}")]
    SpecificNotAString {
        /// The field, as written.
        key: String,
        /// How the value reads ("a number", …).
        kind: &'static str,
    },
    /// `decision` on an event that reads none.
    #[error("decision is not a field of a {0} hook's output")]
    DecisionNotAllowed(HookEvent),
    /// `hookSpecificOutput` that is not an object.
    #[error("hookSpecificOutput must be an object, not {0}")]
    SpecificNotAnObject(&'static str),
    /// `hookSpecificOutput.hookEventName` names another event (`found` is
    /// the JSON as written).
    #[error("hookSpecificOutput.hookEventName is {found} but the event is {event}")]
    WrongEventName {
        /// The JSON as written.
        found: String,
        /// The event.
        event: HookEvent,
    },
    /// `hookSpecificOutput` without `hookEventName`.
    #[error("hookSpecificOutput needs \"hookEventName\": \"{0}\"")]
    MissingEventName(HookEvent),
    /// A `hookSpecificOutput` field the event does not allow.
    #[error("hookSpecificOutput.{key} is not a field of a {event} hook's output")]
    SpecificNotAllowed {
        /// The field, as written.
        key: String,
        /// The event.
        event: HookEvent,
    },
    /// PreToolUse's `permissionDecision` spelled otherwise.
    #[error(
        "hookSpecificOutput.permissionDecision must be \"allow\", \"ask\" or \"deny\", not {0:?}"
    )]
    PermissionDecision(String),
    /// PermissionRequest's `decision` that is not an object.
    #[error("hookSpecificOutput.decision must be an object")]
    RequestDecisionNotAnObject,
    /// A PermissionRequest `decision` field that is not valid (`value` is the
    /// JSON as written).
    #[error("hookSpecificOutput.decision.{key} is not valid: {value}")]
    RequestDecisionField {
        /// The field, as written.
        key: String,
        /// The JSON as written.
        value: String,
    },
    /// A PermissionRequest `decision` without a behavior.
    #[error("hookSpecificOutput.decision needs \"behavior\": \"allow\" or \"deny\"")]
    RequestDecisionNoBehavior,
    /// A PreToolUse rewrite the call refused.
    #[error(transparent)]
    Rewrite(#[from] RewriteRejection),
    /// Stop's `force_continue` without a reason.
    #[error("force_continue needs a non-empty reason")]
    BlankForceContinue,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exit_with_stderr_prints_as_it_always_has() {
        let error = HookError::from(ExecutionError::Exited {
            code: 3,
            stderr: Some("boom".to_owned()),
        });
        assert_eq!(error.to_string(), "exited with status 3: boom");
    }

    #[test]
    fn a_timeout_prints_its_seconds() {
        let error = ExecutionError::TimedOut(Duration::from_millis(1500));
        assert_eq!(
            error.to_string(),
            "timed out after 1.5s; its process group was killed"
        );
    }

    #[test]
    fn a_wrong_event_name_prints_the_json_as_written() {
        let error = ContractError::WrongEventName {
            found: "\"Stop\"".to_owned(),
            event: HookEvent::PreToolUse,
        };
        assert_eq!(
            error.to_string(),
            "hookSpecificOutput.hookEventName is \"Stop\" but the event is PreToolUse"
        );
    }

    #[test]
    fn an_in_process_hook_keeps_its_own_words_and_kind() {
        assert_eq!(
            HookError::execution("disk full"),
            HookError::Execution(ExecutionError::Hook("disk full".to_owned()))
        );
        assert_eq!(HookError::contract("no").to_string(), "no");
    }
}
