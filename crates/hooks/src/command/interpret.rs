//! What every event's reading of a hook's answer shares (docs/hooks.md exit
//! code and stdout JSON tables); each event module turns the answer into its
//! own typed result (`EventSpec::read`). The typed results then go through the
//! same engine as in-process hooks, so every rule of contract §3 holds for them.
//!
//! Reasons that reach the model are capped at [`MODEL_TEXT_CAP`] characters
//! with a marker; context (`additionalContext`, plain-text stdout) is passed
//! whole, and the run saves a long one to a file before the model sees it.

use super::runner::RawRun;
use super::wire::{read, Output, ReadAs, Said};
use crate::{HookError, ObservedResult};
use agenthub_tools::truncate_output;

/// Strings from a hook that go to the model are cut after this many characters.
pub const MODEL_TEXT_CAP: usize = 10_000;

pub(crate) fn to_model(text: String) -> String {
    truncate_output(text, MODEL_TEXT_CAP)
}

pub(crate) fn to_model_opt(text: Option<String>) -> Option<String> {
    text.map(to_model)
}

/// Context for the model (`additionalContext`, a plain-text stdout) is
/// never cut here: the run saves a text over the cap whole in the session's
/// state folder and gives the model its start and the path (contract §21).
pub(crate) fn context_text(text: String) -> Option<String> {
    let trimmed = text.trim();
    (!trimmed.is_empty()).then(|| trimmed.to_owned())
}

/// Joins the JSON's `systemMessage` and a blocking stderr shown to the user.
pub(crate) fn joined(first: Option<String>, second: String) -> Option<String> {
    match (first, second.is_empty()) {
        (Some(first), false) => Some(format!("{first}\n{second}")),
        (Some(first), true) => Some(first),
        (None, false) => Some(second),
        (None, true) => None,
    }
}

/// An observing event's answer: only `systemMessage`, a warning, or the
/// stderr of a blocking exit (which cannot block) is shown to the user.
pub(crate) fn observed(run: &RawRun, as_: ReadAs<'_>) -> Result<ObservedResult, HookError> {
    Ok(match read(run, as_)? {
        Said::Output(Output::Text(_)) => ObservedResult::default(),
        Said::Output(Output::Warning(text)) => ObservedResult {
            system_message: Some(text),
        },
        Said::Output(Output::Json(fields)) => ObservedResult {
            system_message: fields.system_message,
        },
        Said::Blocking { reason, json } => ObservedResult {
            system_message: joined(json.and_then(|fields| fields.system_message), reason),
        },
    })
}

#[cfg(test)]
#[path = "interpret_tests.rs"]
mod tests;
