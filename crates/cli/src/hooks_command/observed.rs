//! `hooks test` for the events contract §21 added (StopFailure, PermissionDenied,
//! PostCompact, InstructionsLoaded, PostToolBatch, UserPromptExpansion):
//! their contexts built from a payload file, what their matchers see, and
//! their run. The first four only observe; PostToolBatch's run reports the
//! context its hooks add, UserPromptExpansion's whether the command goes on.

use super::context::{outcome, Outcome, PayloadReader};
use crate::error::CliError;
use agenthub_hooks::{
    BatchedCall, HookCommon, HookRegistry, InstructionsLoadedContext, PermissionDeniedContext,
    PostCompactContext, PostToolBatchContext, StopFailureContext, UserPromptExpansionContext,
};
use agenthub_protocol::CompactionTrigger;
use agenthub_settings::HookEvent;
use serde_json::{json, Value};

/// One observing event ready to run.
pub enum ObservedEvent {
    StopFailure(StopFailureContext),
    PermissionDenied(PermissionDeniedContext),
    PostCompact(PostCompactContext),
    InstructionsLoaded(InstructionsLoadedContext),
    PostToolBatch(PostToolBatchContext),
    UserPromptExpansion(UserPromptExpansionContext),
}

impl PayloadReader<'_> {
    /// The context of an observing `event`; `None` for every other event.
    pub fn observed(
        &self,
        event: HookEvent,
        common: HookCommon,
    ) -> Result<Option<ObservedEvent>, CliError> {
        Ok(Some(match event {
            HookEvent::StopFailure => ObservedEvent::StopFailure(StopFailureContext {
                common,
                error: self.string("error", Some("model request failed: hooks test"))?,
            }),
            HookEvent::PermissionDenied => {
                ObservedEvent::PermissionDenied(PermissionDeniedContext {
                    common,
                    tool_name: self.string("tool_name", None)?,
                    tool_input: self.payload.get("tool_input").cloned().unwrap_or(json!({})),
                    tool_use_id: self.string("tool_use_id", Some("toolu_hooks_test"))?,
                    reason: self.string("reason", Some("hooks test"))?,
                })
            }
            HookEvent::PostCompact => ObservedEvent::PostCompact(PostCompactContext {
                common,
                trigger: match self.string("trigger", Some("manual"))?.as_str() {
                    "manual" => CompactionTrigger::Manual,
                    "auto" => CompactionTrigger::Auto,
                    _ => return Err(self.bad("trigger", "\"manual\" or \"auto\"")),
                },
                compact_summary: self.string("compact_summary", Some(""))?,
            }),
            HookEvent::InstructionsLoaded => {
                ObservedEvent::InstructionsLoaded(InstructionsLoadedContext {
                    common,
                    file_path: self.string("file_path", None)?.into(),
                    load_reason: self.string("load_reason", Some("session_start"))?,
                })
            }
            HookEvent::PostToolBatch => ObservedEvent::PostToolBatch(PostToolBatchContext {
                common,
                tool_calls: self.batched_calls()?,
            }),
            HookEvent::UserPromptExpansion => {
                ObservedEvent::UserPromptExpansion(UserPromptExpansionContext {
                    common,
                    expansion_type: self.string("expansion_type", Some("slash_command"))?,
                    command_name: self.string("command_name", None)?,
                    command_args: self.string("command_args", Some(""))?,
                    prompt: self.string("prompt", Some(""))?,
                })
            }
            _ => return Ok(None),
        }))
    }
}

impl PayloadReader<'_> {
    /// `tool_calls`: each `{tool_name, tool_use_id?, tool_input?, is_error?}`.
    fn batched_calls(&self) -> Result<Vec<BatchedCall>, CliError> {
        let expected = "a list of {tool_name, tool_use_id, tool_input, is_error}";
        let Some(Value::Array(calls)) = self.payload.get("tool_calls") else {
            return Err(self.bad("tool_calls", expected));
        };
        calls
            .iter()
            .map(|call| {
                let tool_name = call.get("tool_name").and_then(Value::as_str);
                let tool_name = tool_name.ok_or_else(|| self.bad("tool_calls", expected))?;
                Ok(BatchedCall {
                    tool_name: tool_name.to_owned(),
                    tool_use_id: call
                        .get("tool_use_id")
                        .and_then(Value::as_str)
                        .unwrap_or("toolu_hooks_test")
                        .to_owned(),
                    tool_input: call.get("tool_input").cloned().unwrap_or(json!({})),
                    is_error: call
                        .get("is_error")
                        .and_then(Value::as_bool)
                        .unwrap_or(false),
                })
            })
            .collect()
    }
}

impl ObservedEvent {
    /// What matchers of this event are compared with, if anything.
    pub fn target(&self) -> Option<String> {
        match self {
            ObservedEvent::StopFailure(_) => None,
            ObservedEvent::PermissionDenied(context) => Some(context.tool_name.clone()),
            ObservedEvent::PostCompact(context) => Some(context.trigger.as_str().to_owned()),
            ObservedEvent::InstructionsLoaded(context) => Some(context.load_reason.clone()),
            ObservedEvent::PostToolBatch(_) => None,
            ObservedEvent::UserPromptExpansion(context) => Some(context.command_name.clone()),
        }
    }

    /// Runs the event's hooks through the engine, as a run would.
    pub async fn run(self, hooks: &HookRegistry) -> Outcome {
        let (run, event) = match self {
            ObservedEvent::UserPromptExpansion(context) => {
                return outcome(
                    hooks.run_user_prompt_expansion(context).await,
                    super::describe::user_prompt_submit,
                )
            }
            ObservedEvent::PostToolBatch(context) => {
                return outcome(hooks.run_post_tool_batch(context).await, |verdict| {
                    verdict.context
                })
            }
            ObservedEvent::StopFailure(context) => {
                (hooks.run_stop_failure(context).await, "StopFailure")
            }
            ObservedEvent::PermissionDenied(context) => (
                hooks.run_permission_denied(context).await,
                "PermissionDenied",
            ),
            ObservedEvent::PostCompact(context) => {
                (hooks.run_post_compact(context).await, "PostCompact")
            }
            ObservedEvent::InstructionsLoaded(context) => (
                hooks.run_instructions_loaded(context).await,
                "InstructionsLoaded",
            ),
        };
        outcome(run, |()| vec![format!("{event} hooks only observe")])
    }
}
