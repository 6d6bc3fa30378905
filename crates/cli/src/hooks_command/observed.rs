//! `hooks test` for the observing events of SPEC §21 (StopFailure,
//! PermissionDenied, PostCompact, InstructionsLoaded): their contexts built
//! from a payload file, what their matchers see, and their run. They only
//! observe, so a run reports what the hooks told the user and nothing else.

use super::context::{outcome, Outcome, PayloadReader};
use crate::error::CliError;
use agenthub_hooks::{
    HookCommon, HookRegistry, InstructionsLoadedContext, PermissionDeniedContext,
    PostCompactContext, StopFailureContext,
};
use agenthub_protocol::CompactionTrigger;
use agenthub_settings::HookEvent;
use serde_json::json;

/// One observing event ready to run.
pub enum ObservedEvent {
    StopFailure(StopFailureContext),
    PermissionDenied(PermissionDeniedContext),
    PostCompact(PostCompactContext),
    InstructionsLoaded(InstructionsLoadedContext),
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
            _ => return Ok(None),
        }))
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
        }
    }

    /// Runs the event's hooks through the engine, as a run would.
    pub async fn run(self, hooks: &HookRegistry) -> Outcome {
        let (run, event) = match self {
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
