//! Reading what a hook said (docs/hooks.md "Exit codes", "stdout JSON"):
//! the exit code picks the bucket, stdout is JSON only when its first
//! non-blank character is `{` and it parses as an object, and every JSON field
//! is checked against the event — a field on the wrong event, a wrong type or
//! a `hookSpecificOutput.hookEventName` for another event is a contract error.
//!
//! A banner line printed before the JSON makes the whole stdout plain text, as
//! in Claude Code: the decision in it is ignored. Fields the protocol does
//! not know are ignored too.
//!
//! Two kinds of trouble are told apart (docs/hooks.md "When a hook cannot do its job"): a
//! non-blocking error (an exit code other than 0 and 2 without JSON) is a
//! warning unless the hook says `"onFailure": "block"`; "the check could not
//! run" (cannot start, exit 126/127, a signal, a timeout, output over the cap,
//! stdout that starts with `{` but does not parse, a contract break) is a
//! [`HookError`] that the engine maps through the hook's failure policy.

use super::decision::{meaning, Decision};
use super::runner::{RawRun, RunEnd, OUTPUT_CAP_BYTES};
use crate::error::{ContractError, ExecutionError};
use crate::events::{EventSpec, WireContract};
use crate::HookError;
use agenthub_settings::HookEvent;
use serde_json::{Map, Value};

/// Which hook's run is read, for its event's contract and for messages.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ReadAs<'a> {
    /// The event the hook answers.
    pub event: HookEvent,
    /// The output fields that event accepts.
    pub wire: WireContract,
    /// The hook as a person reads it (its command).
    pub hook: &'a str,
    /// Its settings file.
    pub file: &'a str,
    /// `"onFailure": "block"` was given: a non-blocking error blocks too.
    pub strict: bool,
}

impl<'a> ReadAs<'a> {
    /// How a hook of event `E` is read.
    pub fn of<E: EventSpec>(hook: &'a str, file: &'a str, strict: bool) -> Self {
        ReadAs {
            event: E::EVENT,
            wire: E::WIRE,
            hook,
            file,
            strict,
        }
    }

    /// The reason used when a hook blocks without saying why.
    pub fn default_reason(&self) -> String {
        format!(
            "the {} hook {:?} blocked without a reason",
            self.event, self.hook
        )
    }
}

#[cfg(test)]
impl ReadAs<'static> {
    /// How the project hook `./h.sh` of event `E` is read, for tests.
    pub(crate) fn sample<E: EventSpec>() -> Self {
        ReadAs::of::<E>("./h.sh", "/ws/.claude/settings.json", false)
    }
}

/// What a hook said, by exit-code bucket.
#[derive(Debug)]
pub(crate) enum Said {
    /// Exit 0 (or any other exit with valid JSON): what its stdout says.
    Output(Output),
    /// Exit 2: a blocking error with its reason (stderr, else the JSON's
    /// reason, else a default naming the hook: never blank), plus the JSON's
    /// fields when stdout held a valid object.
    Blocking {
        reason: String,
        json: Option<Fields>,
    },
}

#[derive(Debug)]
pub(crate) enum Output {
    Json(Fields),
    /// Not JSON: context for UserPromptSubmit and SessionStart, else ignored.
    Text(String),
    /// A non-blocking error: shown to the user, the action goes on.
    Warning(String),
}

/// A stdout JSON object that passed the event's contract.
#[derive(Debug, Default)]
pub(crate) struct Fields {
    /// `continue: false`: the stop reason (possibly empty).
    pub stop: Option<String>,
    pub system_message: Option<String>,
    /// The `decision`, by what it means on this event.
    pub decision: Option<Decision>,
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
            Some(other) => Err(ContractError::SpecificNotAString {
                key: key.to_owned(),
                kind: kind(other),
            }
            .into()),
        }
    }
}

/// Sorts a finished run into its bucket. Runs that could not do their job
/// (see the module docs) are errors.
pub(crate) fn read(run: &RawRun, as_: ReadAs<'_>) -> Result<Said, HookError> {
    match &run.end {
        RunEnd::Exited(2) => {
            let object = json_object(&run.stdout).ok().flatten();
            let reason = blocking_reason(&run.stderr, object.as_ref())
                .unwrap_or_else(|| as_.default_reason());
            Ok(Said::Blocking {
                reason,
                json: object.and_then(|object| check(object, &as_).ok()),
            })
        }
        RunEnd::Exited(126 | 127) => Err(failure(run).into()),
        RunEnd::Exited(code) => match json_object(&run.stdout) {
            Err(problem) => Err(problem.into()),
            Ok(Some(object)) => Ok(Said::Output(Output::Json(check(object, &as_)?))),
            Ok(None) if *code == 0 => Ok(Said::Output(Output::Text(run.stdout.clone()))),
            Ok(None) if as_.strict => Err(failure(run).into()),
            Ok(None) => Ok(Said::Output(Output::Warning(format!(
                "{}; a non-blocking error, the action goes on (hook from {}; \"onFailure\": \"block\" makes it block)",
                failure(run),
                as_.file
            )))),
        },
        _ => Err(failure(run).into()),
    }
}

/// The reason of an exit 2: stderr, else the `reason`, `stopReason` or
/// `hookSpecificOutput.permissionDecisionReason` of the stdout JSON.
fn blocking_reason(stderr: &str, object: Option<&Map<String, Value>>) -> Option<String> {
    let stderr = stderr.trim();
    if !stderr.is_empty() {
        return Some(stderr.to_owned());
    }
    let object = object?;
    let specific = object.get("hookSpecificOutput").and_then(Value::as_object);
    [
        object.get("reason"),
        object.get("stopReason"),
        specific.and_then(|specific| specific.get("permissionDecisionReason")),
    ]
    .into_iter()
    .flatten()
    .filter_map(Value::as_str)
    .map(str::trim)
    .find(|text| !text.is_empty())
    .map(str::to_owned)
}

/// Why a run counts as a failure, with the first line of stderr when it has
/// one. Its text is also the start of a non-blocking error's warning.
pub(crate) fn failure(run: &RawRun) -> ExecutionError {
    let stderr = run
        .stderr
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty())
        .map(str::to_owned);
    match &run.end {
        RunEnd::Exited(127) => ExecutionError::CommandNotFound { stderr },
        RunEnd::Exited(126) => ExecutionError::NotExecutable { stderr },
        RunEnd::Exited(code) => ExecutionError::Exited {
            code: *code,
            stderr,
        },
        RunEnd::Signaled(signal) => ExecutionError::Signaled {
            signal: *signal,
            stderr,
        },
        RunEnd::CannotStart(message) => ExecutionError::CannotStart(message.clone()),
        RunEnd::TimedOut(timeout) => ExecutionError::TimedOut(*timeout),
        RunEnd::OutputTooLarge(stream) => ExecutionError::OutputTooLarge {
            stream: stream.as_str(),
            cap: OUTPUT_CAP_BYTES,
        },
        RunEnd::Unreadable(stream, message) => ExecutionError::Unreadable {
            stream: stream.as_str(),
            message: message.clone(),
        },
        RunEnd::Cancelled => ExecutionError::Cancelled,
        RunEnd::Refused(message) => ExecutionError::Refused(message.clone()),
    }
}

/// stdout as a JSON object when its first non-blank character is `{`;
/// `Ok(None)` for plain text; `Err` when it starts with `{` but is not one
/// JSON object (a truncated `{"permissionDecision":"deny"` must not pass).
///
/// A first line `{"async": true, …}` is Claude Code's word that the hook went
/// on in the background: what follows is its own log, never a decision nor
/// context, so it reads as an empty answer.
fn json_object(stdout: &str) -> Result<Option<Map<String, Value>>, ExecutionError> {
    if !stdout.trim_start().starts_with('{') {
        return Ok(None);
    }
    let first_line = stdout.trim_start().lines().next().unwrap_or_default();
    if let Ok(Value::Object(head)) = serde_json::from_str::<Value>(first_line) {
        if head.get("async") == Some(&Value::Bool(true)) {
            return Ok(Some(Map::new()));
        }
    }
    match serde_json::from_str(stdout) {
        Ok(Value::Object(object)) => Ok(Some(object)),
        Ok(_) => Err(ExecutionError::StdoutNotAnObject),
        Err(error) => Err(ExecutionError::StdoutNotJson(error.to_string())),
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
    value.as_str().map(str::to_owned).ok_or_else(|| {
        ContractError::NotAString {
            key: key.to_owned(),
            kind: kind(value),
        }
        .into()
    })
}

fn boolean(key: &str, value: &Value) -> Result<bool, HookError> {
    value.as_bool().ok_or_else(|| {
        ContractError::NotABoolean {
            key: key.to_owned(),
            kind: kind(value),
        }
        .into()
    })
}

/// Checks a stdout object against `event`'s contract.
fn check(object: Map<String, Value>, as_: &ReadAs<'_>) -> Result<Fields, HookError> {
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
            "decision" => fields.decision = check_decision(as_, value)?,
            "reason" if !as_.wire.decisions.is_empty() => fields.reason = Some(string(key, value)?),
            "hookSpecificOutput" => fields.specific = check_specific(as_, value)?,
            // Fields the protocol does not know are ignored, as in Claude Code.
            _ => {}
        }
    }
    if !proceed {
        fields.stop = Some(stop_reason.unwrap_or_default());
    }
    Ok(fields)
}

/// A top-level `decision`, read as Claude Code reads it: a spelling the event
/// reads (PreToolUse's `allow`, Stop's `block`) by what it means, any other
/// (`"allow"` on Stop) lets the action go on.
fn check_decision(as_: &ReadAs<'_>, value: &Value) -> Result<Option<Decision>, HookError> {
    let decision = string("decision", value)?;
    if as_.wire.decisions.is_empty() {
        return Err(ContractError::DecisionNotAllowed(as_.event).into());
    }
    Ok(meaning(as_.wire.decisions, &decision))
}

fn check_specific(as_: &ReadAs<'_>, value: &Value) -> Result<Map<String, Value>, HookError> {
    let event = as_.event;
    let Value::Object(object) = value else {
        return Err(ContractError::SpecificNotAnObject(kind(value)).into());
    };
    match object.get("hookEventName") {
        Some(Value::String(name)) if name == event.as_str() => {}
        Some(other) => {
            return Err(ContractError::WrongEventName {
                found: other.to_string(),
                event,
            }
            .into())
        }
        None => return Err(ContractError::MissingEventName(event).into()),
    }
    let (legal, ignored) = (as_.wire.specific, as_.wire.accepted_unused);
    let mut kept = Map::new();
    for (key, value) in object {
        if key == "hookEventName" || ignored.contains(&key.as_str()) {
            continue;
        }
        if !legal.contains(&key.as_str()) {
            return Err(ContractError::SpecificNotAllowed {
                key: key.clone(),
                event,
            }
            .into());
        }
        kept.insert(key.clone(), value.clone());
    }
    Ok(kept)
}
