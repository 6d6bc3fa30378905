//! Reading what a hook said (HOOKS-PROTOCOL.md "Exit codes", "stdout JSON"):
//! the exit code picks the bucket, stdout is JSON only when its first
//! non-blank character is `{` and it parses as an object, and every JSON field
//! is checked against the event — a field on the wrong event, a wrong type or
//! a `hookSpecificOutput.hookEventName` for another event is a contract error.
//!
//! A banner line printed before the JSON makes the whole stdout plain text, as
//! in Claude Code: the decision in it is ignored.

use super::runner::{RawRun, RunEnd, OUTPUT_CAP_BYTES};
use crate::HookError;
use agenthub_settings::HookEvent;
use serde_json::{Map, Value};

/// What a hook said, by exit-code bucket.
#[derive(Debug)]
pub(crate) enum Said {
    /// Exit 0 (or any other exit with valid JSON): what its stdout says.
    Output(Output),
    /// Exit 2: a blocking error with stderr as the reason, plus the JSON's
    /// fields when stdout held a valid object.
    Blocking {
        stderr: String,
        json: Option<Fields>,
    },
}

#[derive(Debug)]
pub(crate) enum Output {
    Json(Fields),
    /// Not JSON: context for UserPromptSubmit and SessionStart, else ignored.
    Text(String),
}

/// A stdout JSON object that passed the event's contract.
#[derive(Debug, Default)]
pub(crate) struct Fields {
    /// `continue: false`: the stop reason (possibly empty).
    pub stop: Option<String>,
    pub system_message: Option<String>,
    pub decision: Option<String>,
    pub reason: Option<String>,
    /// `hookSpecificOutput` without `hookEventName`; keys already checked.
    pub specific: Map<String, Value>,
}

impl Fields {
    /// A string field of `hookSpecificOutput`.
    pub fn specific_string(&self, key: &str) -> Result<Option<String>, HookError> {
        match self.specific.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(text)) => Ok(Some(text.clone())),
            Some(other) => Err(HookError::contract(format!(
                "hookSpecificOutput.{key} must be a string, not {}",
                kind(other)
            ))),
        }
    }
}

/// Sorts a finished run into its bucket. Runs that did not exit on their own
/// (cannot start, timeout, too much output, cancelled) are execution errors.
pub(crate) fn read(run: &RawRun, event: HookEvent) -> Result<Said, HookError> {
    match &run.end {
        RunEnd::Exited(0) => Ok(Said::Output(match json_object(&run.stdout) {
            Some(object) => Output::Json(check(object, event)?),
            None => Output::Text(run.stdout.clone()),
        })),
        RunEnd::Exited(2) => Ok(Said::Blocking {
            stderr: run.stderr.trim().to_owned(),
            json: json_object(&run.stdout).and_then(|object| check(object, event).ok()),
        }),
        RunEnd::Exited(_) | RunEnd::Signaled(_) => match json_object(&run.stdout) {
            Some(object) => Ok(Said::Output(Output::Json(check(object, event)?))),
            None => Err(HookError::execution(failure(run))),
        },
        _ => Err(HookError::execution(failure(run))),
    }
}

/// Why a run counts as a failure, with the first line of stderr when it has one.
pub(crate) fn failure(run: &RawRun) -> String {
    let first_line = run
        .stderr
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty());
    let with_stderr = |text: String| match first_line {
        Some(line) => format!("{text}: {line}"),
        None => text,
    };
    match &run.end {
        RunEnd::Exited(127) => with_stderr("exited with status 127 (command not found)".to_owned()),
        RunEnd::Exited(code) => with_stderr(format!("exited with status {code}")),
        RunEnd::Signaled(signal) => with_stderr(format!("was killed by signal {signal}")),
        RunEnd::CannotStart(message) => format!("could not be started: {message}"),
        RunEnd::TimedOut(timeout) => format!(
            "timed out after {}s; its process group was killed",
            timeout.as_secs_f64()
        ),
        RunEnd::OutputTooLarge(stream) => format!(
            "wrote more than {} bytes to {}; its process group was killed",
            OUTPUT_CAP_BYTES,
            stream.as_str()
        ),
        RunEnd::Unreadable(stream, message) => {
            format!(
                "its {} could not be read ({message}); its process group was killed",
                stream.as_str()
            )
        }
        RunEnd::Cancelled => "was cancelled with the run; its process group was killed".to_owned(),
    }
}

/// stdout as a JSON object, when its first non-blank character is `{` and the
/// whole of it parses.
fn json_object(stdout: &str) -> Option<Map<String, Value>> {
    if !stdout.trim_start().starts_with('{') {
        return None;
    }
    match serde_json::from_str(stdout) {
        Ok(Value::Object(object)) => Some(object),
        _ => None,
    }
}

/// The `decision` values each event accepts.
fn decisions(event: HookEvent) -> &'static [&'static str] {
    match event {
        HookEvent::PreToolUse => &["approve", "block"],
        HookEvent::UserPromptSubmit
        | HookEvent::PostToolUse
        | HookEvent::Stop
        | HookEvent::PreCompact => &["block"],
        _ => &[],
    }
}

/// `hookSpecificOutput` keys each event accepts, and Claude Code keys it
/// accepts without effect.
fn specific_keys(event: HookEvent) -> (&'static [&'static str], &'static [&'static str]) {
    match event {
        HookEvent::PreToolUse => (
            &[
                "permissionDecision",
                "permissionDecisionReason",
                "updatedInput",
                "additionalContext",
            ],
            &[],
        ),
        HookEvent::UserPromptSubmit => (
            &["additionalContext"],
            &["sessionTitle", "suppressOriginalPrompt"],
        ),
        HookEvent::SessionStart => (
            &["additionalContext"],
            &[
                "initialUserMessage",
                "sessionTitle",
                "watchPaths",
                "reloadSkills",
            ],
        ),
        HookEvent::PostToolUse => (
            &["additionalContext", "updatedToolOutput"],
            &["updatedMCPToolOutput", "classifierContext"],
        ),
        HookEvent::PostToolUseFailure | HookEvent::Stop => (&["additionalContext"], &[]),
        HookEvent::PermissionRequest => (&["decision"], &[]),
        HookEvent::SessionEnd | HookEvent::PreCompact => (&[], &[]),
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn string(key: &str, value: &Value) -> Result<String, HookError> {
    value
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| HookError::contract(format!("{key} must be a string, not {}", kind(value))))
}

fn boolean(key: &str, value: &Value) -> Result<bool, HookError> {
    value.as_bool().ok_or_else(|| {
        HookError::contract(format!("{key} must be true or false, not {}", kind(value)))
    })
}

/// Checks a stdout object against `event`'s contract.
fn check(object: Map<String, Value>, event: HookEvent) -> Result<Fields, HookError> {
    let mut fields = Fields::default();
    let mut proceed = true;
    let mut stop_reason = None;
    for (key, value) in &object {
        match key.as_str() {
            "continue" => proceed = boolean(key, value)?,
            "stopReason" => stop_reason = Some(string(key, value)?),
            "suppressOutput" => {
                boolean(key, value)?;
            }
            "systemMessage" => fields.system_message = Some(string(key, value)?),
            "terminalSequence" => {
                string(key, value)?;
            }
            "decision" => fields.decision = Some(check_decision(event, value)?),
            "reason" if !decisions(event).is_empty() => fields.reason = Some(string(key, value)?),
            "hookSpecificOutput" => fields.specific = check_specific(event, value)?,
            _ => {
                return Err(HookError::contract(format!(
                    "{key} is not a field of a {event} hook's output"
                )))
            }
        }
    }
    if !proceed {
        fields.stop = Some(stop_reason.unwrap_or_default());
    }
    Ok(fields)
}

fn check_decision(event: HookEvent, value: &Value) -> Result<String, HookError> {
    let decision = string("decision", value)?;
    let allowed = decisions(event);
    if allowed.contains(&decision.as_str()) {
        return Ok(decision);
    }
    Err(HookError::contract(if allowed.is_empty() {
        format!("decision is not a field of a {event} hook's output")
    } else {
        format!(
            "decision {decision:?} is not valid for {event}; expected {}",
            allowed.join(" or ")
        )
    }))
}

fn check_specific(event: HookEvent, value: &Value) -> Result<Map<String, Value>, HookError> {
    let Value::Object(object) = value else {
        return Err(HookError::contract(format!(
            "hookSpecificOutput must be an object, not {}",
            kind(value)
        )));
    };
    match object.get("hookEventName") {
        Some(Value::String(name)) if name == event.as_str() => {}
        Some(other) => {
            return Err(HookError::contract(format!(
                "hookSpecificOutput.hookEventName is {other} but the event is {event}"
            )))
        }
        None => {
            return Err(HookError::contract(format!(
                "hookSpecificOutput needs \"hookEventName\": \"{event}\""
            )))
        }
    }
    let (legal, ignored) = specific_keys(event);
    let mut kept = Map::new();
    for (key, value) in object {
        if key == "hookEventName" || ignored.contains(&key.as_str()) {
            continue;
        }
        if !legal.contains(&key.as_str()) {
            return Err(HookError::contract(format!(
                "hookSpecificOutput.{key} is not a field of a {event} hook's output"
            )));
        }
        kept.insert(key.clone(), value.clone());
    }
    Ok(kept)
}
