//! From what a hook said to its event's typed result (docs/hooks.md exit
//! code and stdout JSON tables). The typed results then go through the same
//! engine as in-process hooks, so every rule of contract §3 holds for them.
//!
//! Reasons that reach the model are capped at [`MODEL_TEXT_CAP`] characters
//! with a marker; context (`additionalContext`, plain-text stdout) is passed
//! whole, and the run saves a long one to a file before the model sees it.

use super::payload;
use super::runner::RawRun;
use super::wire::{read, Fields, Output, ReadAs, Said};
use crate::context::*;
use crate::result::*;
use crate::HookError;
use agenthub_protocol::PermissionEffect;
use agenthub_tools::truncate_output;
use serde_json::Value;

/// Strings from a hook that go to the model are cut after this many characters.
pub const MODEL_TEXT_CAP: usize = 10_000;

fn to_model(text: String) -> String {
    truncate_output(text, MODEL_TEXT_CAP)
}

fn to_model_opt(text: Option<String>) -> Option<String> {
    text.map(to_model)
}

/// Context for the model (`additionalContext`, a plain-text stdout) is
/// never cut here: the run saves a text over the cap whole in the session's
/// state folder and gives the model its start and the path (contract §21).
fn context_text(text: String) -> Option<String> {
    let trimmed = text.trim();
    (!trimmed.is_empty()).then(|| trimmed.to_owned())
}

/// Joins the JSON's `systemMessage` and a blocking stderr shown to the user.
fn joined(first: Option<String>, second: String) -> Option<String> {
    match (first, second.is_empty()) {
        (Some(first), false) => Some(format!("{first}\n{second}")),
        (Some(first), true) => Some(first),
        (None, false) => Some(second),
        (None, true) => None,
    }
}

pub(crate) fn session_start(
    run: &RawRun,
    as_: ReadAs<'_>,
) -> Result<SessionStartResult, HookError> {
    let from_json = |fields: Fields| -> Result<SessionStartResult, HookError> {
        Ok(SessionStartResult {
            additional_context: fields.specific_string("additionalContext")?,
            stop_run: fields.stop,
            system_message: fields.system_message,
        })
    };
    match read(run, as_)? {
        Said::Output(Output::Text(text)) => Ok(SessionStartResult {
            additional_context: context_text(text),
            ..SessionStartResult::default()
        }),
        Said::Output(Output::Warning(text)) => Ok(SessionStartResult {
            system_message: Some(text),
            ..SessionStartResult::default()
        }),
        Said::Output(Output::Json(fields)) => from_json(fields),
        Said::Blocking { reason, json } => {
            let base = json.map(from_json).and_then(Result::ok).unwrap_or_default();
            Ok(SessionStartResult {
                system_message: joined(base.system_message.clone(), reason),
                ..base
            })
        }
    }
}

pub(crate) fn user_prompt_submit(
    run: &RawRun,
    as_: ReadAs<'_>,
) -> Result<UserPromptSubmitResult, HookError> {
    let from_json = |fields: Fields| -> Result<UserPromptSubmitResult, HookError> {
        let block = (fields.decision.as_deref() == Some("block")).then(|| {
            fields
                .reason
                .clone()
                .filter(|reason| !reason.trim().is_empty())
                .unwrap_or_else(|| as_.default_reason())
        });
        Ok(UserPromptSubmitResult {
            additional_context: fields.specific_string("additionalContext")?,
            block,
            stop_run: fields.stop,
            system_message: fields.system_message,
        })
    };
    match read(run, as_)? {
        Said::Output(Output::Text(text)) => Ok(UserPromptSubmitResult {
            additional_context: context_text(text),
            ..UserPromptSubmitResult::default()
        }),
        Said::Output(Output::Warning(text)) => Ok(UserPromptSubmitResult {
            system_message: Some(text),
            ..UserPromptSubmitResult::default()
        }),
        Said::Output(Output::Json(fields)) => from_json(fields),
        Said::Blocking { reason, json } => {
            let base = json.map(from_json).and_then(Result::ok).unwrap_or_default();
            Ok(UserPromptSubmitResult {
                block: Some(reason),
                ..base
            })
        }
    }
}

pub(crate) fn pre_tool_use(
    run: &RawRun,
    as_: ReadAs<'_>,
    context: &PreToolUseContext,
) -> Result<PreToolUseResult, HookError> {
    let from_json = |fields: Fields| -> Result<PreToolUseResult, HookError> {
        let (decision, reason) = match fields.specific_string("permissionDecision")? {
            Some(text) => (
                Some(permission_effect(&text)?),
                fields.specific_string("permissionDecisionReason")?,
            ),
            None => (
                legacy_decision(fields.decision.as_deref()),
                fields.reason.clone(),
            ),
        };
        let updated_input = fields
            .specific
            .get("updatedInput")
            .map(|input| context.call.with_input(input.clone()));
        Ok(PreToolUseResult {
            permission_decision: decision,
            permission_reason: to_model_opt(reason),
            updated_input,
            block: None,
            additional_context: fields.specific_string("additionalContext")?,
            stop_run: fields.stop,
            system_message: fields.system_message,
        })
    };
    match read(run, as_)? {
        Said::Output(Output::Text(_)) => Ok(PreToolUseResult::default()),
        Said::Output(Output::Warning(text)) => Ok(PreToolUseResult {
            system_message: Some(text),
            ..PreToolUseResult::default()
        }),
        Said::Output(Output::Json(fields)) => from_json(fields),
        Said::Blocking { reason, json } => {
            let base = json.map(from_json).and_then(Result::ok).unwrap_or_default();
            Ok(PreToolUseResult {
                block: Some(to_model(reason)),
                ..base
            })
        }
    }
}

fn permission_effect(text: &str) -> Result<PermissionEffect, HookError> {
    match text {
        "allow" => Ok(PermissionEffect::Allow),
        "ask" => Ok(PermissionEffect::Ask),
        "deny" => Ok(PermissionEffect::Deny),
        other => Err(HookError::contract(format!(
            "hookSpecificOutput.permissionDecision must be \"allow\", \"ask\" or \"deny\", not {other:?}"
        ))),
    }
}

/// The deprecated top-level `decision`: `approve` = allow, `block` = deny.
fn legacy_decision(decision: Option<&str>) -> Option<PermissionEffect> {
    match decision {
        Some("approve") => Some(PermissionEffect::Allow),
        Some("block") => Some(PermissionEffect::Deny),
        _ => None,
    }
}

/// PostToolUse (the tool succeeded) and PostToolUseFailure (it failed).
pub(crate) fn post_tool_use(run: &RawRun, as_: ReadAs<'_>) -> Result<PostToolUseResult, HookError> {
    let event = as_.event;
    let from_json = |fields: Fields| -> Result<PostToolUseResult, HookError> {
        let feedback = (fields.decision.as_deref() == Some("block")).then(|| {
            fields
                .reason
                .clone()
                .filter(|reason| !reason.trim().is_empty())
                .unwrap_or_else(|| format!("a {event} hook flagged this result"))
        });
        // Every tool's result may be replaced (contract §21): text as it is, any
        // other JSON value (a tool_response-shaped object, an MCP result) as
        // its JSON text; `updatedMCPToolOutput` is Claude Code's older name.
        let updated = fields.specific.get("updatedToolOutput");
        let updated_output = match updated.or(fields.specific.get("updatedMCPToolOutput")) {
            None | Some(Value::Null) => None,
            Some(Value::String(text)) => Some(to_model(text.clone())),
            Some(other) => Some(to_model(other.to_string())),
        };
        Ok(PostToolUseResult {
            updated_output,
            additional_context: fields.specific_string("additionalContext")?,
            prevent_continuation: fields.stop,
            feedback: to_model_opt(feedback),
            system_message: fields.system_message,
        })
    };
    match read(run, as_)? {
        Said::Output(Output::Text(_)) => Ok(PostToolUseResult::default()),
        Said::Output(Output::Warning(text)) => Ok(PostToolUseResult {
            system_message: Some(text),
            ..PostToolUseResult::default()
        }),
        Said::Output(Output::Json(fields)) => from_json(fields),
        Said::Blocking { reason, json } => {
            let base = json.map(from_json).and_then(Result::ok).unwrap_or_default();
            Ok(PostToolUseResult {
                feedback: Some(to_model(reason)),
                ..base
            })
        }
    }
}

/// Stop: exit 2 or `decision: "block"` continue with the reason (a default
/// naming the hook when blank); `additionalContext` alone continues with
/// that context, as in Claude Code.
/// SubagentStart: plain stdout or `additionalContext` is context for the
/// subagent; a blocking exit cannot stop it and is shown to the user.
pub(crate) fn subagent_start(
    run: &RawRun,
    as_: ReadAs<'_>,
) -> Result<SubagentStartResult, HookError> {
    session_start(run, as_).map(|started| SubagentStartResult {
        additional_context: started.additional_context,
        system_message: started.system_message,
    })
}

pub(crate) fn stop(run: &RawRun, as_: ReadAs<'_>) -> Result<StopResult, HookError> {
    let from_json = |fields: Fields| -> Result<StopResult, HookError> {
        let context = fields.specific_string("additionalContext")?;
        let force_continue = match fields.decision.as_deref() {
            Some("block") => Some(to_model(
                fields
                    .reason
                    .clone()
                    .filter(|reason| !reason.trim().is_empty())
                    .unwrap_or_else(|| as_.default_reason()),
            )),
            _ => None,
        };
        let (force_continue, additional_context) = match (force_continue, context) {
            (None, Some(context)) if !context.trim().is_empty() => (Some(context), None),
            (force_continue, context) => (force_continue, context),
        };
        Ok(StopResult {
            force_continue,
            additional_context,
            stop_run: fields.stop,
            system_message: fields.system_message,
        })
    };
    match read(run, as_)? {
        Said::Output(Output::Text(_)) => Ok(StopResult::default()),
        Said::Output(Output::Warning(text)) => Ok(StopResult {
            system_message: Some(text),
            ..StopResult::default()
        }),
        Said::Output(Output::Json(fields)) => from_json(fields),
        Said::Blocking { reason, json } => {
            let base = json.map(from_json).and_then(Result::ok).unwrap_or_default();
            Ok(StopResult {
                force_continue: Some(to_model(reason)),
                ..base
            })
        }
    }
}

/// PreCompact: exit 2 (stderr), `decision: "block"` (`reason`) or
/// `continue: false` (`stopReason`) block; a blank reason still blocks.
pub(crate) fn pre_compact(run: &RawRun, as_: ReadAs<'_>) -> Result<PreCompactResult, HookError> {
    let from_json = |fields: Fields| PreCompactResult {
        block: fields.stop.or_else(|| {
            (fields.decision.as_deref() == Some("block"))
                .then(|| fields.reason.clone().unwrap_or_default())
        }),
        system_message: fields.system_message,
    };
    match read(run, as_)? {
        Said::Output(Output::Text(_)) => Ok(PreCompactResult::default()),
        Said::Output(Output::Warning(text)) => Ok(PreCompactResult {
            system_message: Some(text),
            ..PreCompactResult::default()
        }),
        Said::Output(Output::Json(fields)) => Ok(from_json(fields)),
        Said::Blocking { reason, json } => {
            let base = json.map(from_json).unwrap_or_default();
            Ok(PreCompactResult {
                block: Some(reason),
                ..base
            })
        }
    }
}

pub(crate) fn notification(run: &RawRun, as_: ReadAs<'_>) -> Result<NotificationResult, HookError> {
    session_end(run, as_).map(|result| NotificationResult {
        system_message: result.system_message,
    })
}

/// PostToolBatch: `additionalContext` for the model and `systemMessage`;
/// plain-text stdout is only logged, as on other events without context.
pub(crate) fn post_tool_batch(
    run: &RawRun,
    as_: ReadAs<'_>,
) -> Result<crate::PostToolBatchResult, HookError> {
    match read(run, as_)? {
        Said::Output(Output::Text(_)) => Ok(crate::PostToolBatchResult::default()),
        Said::Output(Output::Warning(text)) => Ok(crate::PostToolBatchResult {
            system_message: Some(text),
            ..crate::PostToolBatchResult::default()
        }),
        Said::Output(Output::Json(fields)) => Ok(crate::PostToolBatchResult {
            additional_context: fields.specific_string("additionalContext")?,
            system_message: fields.system_message,
        }),
        Said::Blocking { reason, json } => Ok(crate::PostToolBatchResult {
            system_message: joined(json.and_then(|fields| fields.system_message), reason),
            ..crate::PostToolBatchResult::default()
        }),
    }
}

/// Every observing event of contract §21: only `systemMessage` (or a warning) matters.
pub(crate) fn observed(run: &RawRun, as_: ReadAs<'_>) -> Result<crate::ObservedResult, HookError> {
    session_end(run, as_).map(|result| crate::ObservedResult {
        system_message: result.system_message,
    })
}

pub(crate) fn session_end(run: &RawRun, as_: ReadAs<'_>) -> Result<SessionEndResult, HookError> {
    match read(run, as_)? {
        Said::Output(Output::Text(_)) => Ok(SessionEndResult::default()),
        Said::Output(Output::Warning(text)) => Ok(SessionEndResult {
            system_message: Some(text),
        }),
        Said::Output(Output::Json(fields)) => Ok(SessionEndResult {
            system_message: fields.system_message,
        }),
        Said::Blocking { reason, json } => Ok(SessionEndResult {
            system_message: joined(json.and_then(|fields| fields.system_message), reason),
        }),
    }
}

/// PermissionRequest: `hookSpecificOutput.decision.behavior` answers the ask.
/// **Differs:** exit 2 denies with stderr (Claude Code ignores it), and
/// `continue: false` denies with the stop reason (an approval cannot end a run).
pub(crate) fn permission_request(
    run: &RawRun,
    as_: ReadAs<'_>,
    context: &PermissionRequestContext,
) -> Result<PermissionRequestResult, HookError> {
    match read(run, as_)? {
        Said::Output(Output::Text(_)) => Ok(PermissionRequestResult::default()),
        Said::Output(Output::Warning(text)) => Ok(PermissionRequestResult {
            system_message: Some(text),
            ..PermissionRequestResult::default()
        }),
        Said::Output(Output::Json(fields)) => permission_from_json(fields, context),
        Said::Blocking { reason, json } => Ok(PermissionRequestResult {
            system_message: json.and_then(|fields| fields.system_message),
            ..PermissionRequestResult::deny(to_model(reason))
        }),
    }
}

fn permission_from_json(
    fields: Fields,
    context: &PermissionRequestContext,
) -> Result<PermissionRequestResult, HookError> {
    if let Some(reason) = fields.stop {
        return Ok(PermissionRequestResult {
            system_message: fields.system_message,
            ..PermissionRequestResult::deny(to_model(reason))
        });
    }
    let mut result = PermissionRequestResult {
        system_message: fields.system_message.clone(),
        ..PermissionRequestResult::default()
    };
    let Some(decision) = fields.specific.get("decision") else {
        return Ok(result);
    };
    let Value::Object(decision) = decision else {
        return Err(HookError::contract(
            "hookSpecificOutput.decision must be an object",
        ));
    };
    for (key, value) in decision {
        match (key.as_str(), value) {
            ("behavior", Value::String(behavior)) if behavior == "allow" => {
                result.behavior = Some(PermissionBehavior::Allow)
            }
            ("behavior", Value::String(behavior)) if behavior == "deny" => {
                result.behavior = Some(PermissionBehavior::Deny)
            }
            ("message", Value::String(message)) => result.message = Some(to_model(message.clone())),
            ("updatedInput", input) => same_input(input, context)?,
            ("updatedPermissions", _) | ("interrupt", Value::Bool(_)) => {}
            _ => {
                return Err(HookError::contract(format!(
                    "hookSpecificOutput.decision.{key} is not valid: {value}"
                )))
            }
        }
    }
    if result.behavior.is_none() {
        return Err(HookError::contract(
            "hookSpecificOutput.decision needs \"behavior\": \"allow\" or \"deny\"",
        ));
    }
    Ok(result)
}

/// AgentHub cannot change a call's input at approval time (use PreToolUse's
/// `updatedInput`): an `updatedInput` is accepted only when it is unchanged.
fn same_input(input: &Value, context: &PermissionRequestContext) -> Result<(), HookError> {
    let seen = payload::tool_input(&context.common, &context.call);
    if input == context.call.input() || *input == seen {
        return Ok(());
    }
    Err(HookError::contract(
        "hookSpecificOutput.decision.updatedInput cannot change the input at approval time; rewrite it in a PreToolUse hook",
    ))
}

#[cfg(test)]
#[path = "interpret_tests.rs"]
mod tests;
