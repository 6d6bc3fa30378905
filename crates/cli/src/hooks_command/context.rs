//! An event's context built from a payload file, the way a run would build it:
//! the tool call is prepared by the real tool registry (a tool AgentHub does
//! not have gets a stand-in that accepts any input), and missing common
//! fields get test values.

use super::describe;
use super::observed::ObservedEvent;
use crate::error::CliError;
use agenthub::StandInTool;
use agenthub_hooks::{
    HookCommon, HookRegistry, HookRun, NotificationContext, PermissionRequestContext,
    PreCompactContext, SessionEndContext, SessionEndReason, SessionSource, SessionStartContext,
    StopContext, SubagentIdentity, SubagentStartContext, ToolOutcome, UserPromptSubmitContext,
};
use agenthub_protocol::{CompactionTrigger, HookRecord, RunStatus, ToolCall};
use agenthub_settings::HookEvent;
use agenthub_tools::{PreparedCall, ToolError, ToolRegistry};
use serde_json::{json, Value};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// One event ready to run, with what its matchers are compared with.
pub enum EventContext {
    SessionStart(SessionStartContext),
    UserPromptSubmit(UserPromptSubmitContext),
    PreToolUse(HookCommon, PreparedCall),
    PermissionRequest(PermissionRequestContext),
    PostToolUse(HookCommon, PreparedCall, ToolOutcome),
    Stop(StopContext),
    SubagentStart(SubagentStartContext),
    SubagentStop(StopContext),
    PreCompact(PreCompactContext),
    Notification(NotificationContext),
    SessionEnd(SessionEndContext),
    /// An observing event of contract §21.
    Observed(ObservedEvent),
}

/// What the engine made of the hooks' answers.
pub struct Outcome {
    pub records: Vec<HookRecord>,
    pub messages: Vec<String>,
    pub merged: Vec<String>,
}

/// Reads the payload's fields for `event`.
pub struct PayloadReader<'a> {
    pub payload: &'a Value,
    pub file: &'a Path,
    pub workspace: &'a Path,
}

impl PayloadReader<'_> {
    pub(super) fn bad(&self, field: &str, expected: &str) -> CliError {
        CliError::Usage(format!(
            "payload {} at {field}: expected {expected}",
            self.file.display()
        ))
    }

    pub(super) fn string(&self, field: &str, default: Option<&str>) -> Result<String, CliError> {
        match (self.payload.get(field), default) {
            (Some(Value::String(text)), _) => Ok(text.clone()),
            (None | Some(Value::Null), Some(default)) => Ok(default.to_owned()),
            _ => Err(self.bad(field, "a string")),
        }
    }

    fn common(&self) -> Result<HookCommon, CliError> {
        Ok(HookCommon {
            session_id: self.string("session_id", Some("hooks-test"))?,
            workspace: self.workspace.to_path_buf(),
            transcript_path: match self.payload.get("transcript_path") {
                Some(Value::String(path)) => Some(path.into()),
                _ => None,
            },
            permission_mode: self.string("permission_mode", Some("default"))?,
            cancel: CancellationToken::new(),
            agent: None,
        })
    }

    fn call(&self) -> Result<PreparedCall, CliError> {
        let name = self.string("tool_name", None)?;
        let input = self.payload.get("tool_input").cloned().unwrap_or(json!({}));
        let id = self.string("tool_use_id", Some("toolu_hooks_test"))?;
        let mut tools =
            ToolRegistry::with_builtins().map_err(|error| CliError::Internal(error.to_string()))?;
        if tools.get(&name).is_none() {
            tools
                .register(StandInTool::new(name.clone()))
                .map_err(|error| CliError::Internal(error.to_string()))?;
        }
        tools
            .prepare(&ToolCall::new(id, name, input.to_string()))
            .map_err(|rejection| {
                CliError::Usage(format!(
                    "payload {}: this call would never reach hooks: {}",
                    self.file.display(),
                    rejection.result_text()
                ))
            })
    }

    /// The context of `event`.
    pub fn build(&self, event: HookEvent) -> Result<EventContext, CliError> {
        let common = self.common()?;
        if let Some(observed) = self.observed(event, common.clone())? {
            return Ok(EventContext::Observed(observed));
        }
        Ok(match event {
            HookEvent::SessionStart => EventContext::SessionStart(SessionStartContext {
                common,
                source: match self.string("source", Some("startup"))?.as_str() {
                    "startup" => SessionSource::Startup,
                    "resume" => SessionSource::Resume,
                    "compact" => SessionSource::Compact,
                    _ => return Err(self.bad("source", "\"startup\", \"resume\" or \"compact\"")),
                },
                model: self
                    .string("model", Some(""))
                    .ok()
                    .filter(|model| !model.is_empty()),
            }),
            HookEvent::UserPromptSubmit => {
                EventContext::UserPromptSubmit(UserPromptSubmitContext {
                    common,
                    prompt: self.string("prompt", None)?,
                })
            }
            HookEvent::PreToolUse => EventContext::PreToolUse(common, self.call()?),
            HookEvent::PermissionRequest => {
                EventContext::PermissionRequest(PermissionRequestContext {
                    common,
                    call: self.call()?,
                    reason: "hooks test".to_owned(),
                })
            }
            HookEvent::PostToolUse | HookEvent::PostToolUseFailure => {
                EventContext::PostToolUse(common, self.call()?, self.outcome(event)?)
            }
            HookEvent::Stop => EventContext::Stop(self.stop(common)?),
            HookEvent::SubagentStart => EventContext::SubagentStart(SubagentStartContext {
                common: self.with_agent(common)?,
                description: self.string("description", Some("hooks test"))?,
            }),
            HookEvent::SubagentStop => {
                EventContext::SubagentStop(self.stop(self.with_agent(common)?)?)
            }
            HookEvent::PreCompact => EventContext::PreCompact(PreCompactContext {
                common,
                trigger: match self.string("trigger", Some("manual"))?.as_str() {
                    "manual" => CompactionTrigger::Manual,
                    "auto" => CompactionTrigger::Auto,
                    _ => return Err(self.bad("trigger", "\"manual\" or \"auto\"")),
                },
                custom_instructions: self.string("custom_instructions", Some(""))?,
            }),
            HookEvent::Notification => EventContext::Notification(NotificationContext {
                common,
                message: self.string("message", Some("AgentHub is waiting for your input"))?,
                notification_type: self.string("notification_type", Some("idle_prompt"))?,
            }),
            HookEvent::SessionEnd => {
                let (reason, exit) = self.session_end_reason()?;
                EventContext::SessionEnd(SessionEndContext {
                    common,
                    reason,
                    exit,
                })
            }
            HookEvent::StopFailure
            | HookEvent::PermissionDenied
            | HookEvent::PostCompact
            | HookEvent::InstructionsLoaded
            | HookEvent::PostToolBatch
            | HookEvent::UserPromptExpansion => {
                return Err(CliError::Internal(format!(
                    "{event} has no hooks test context"
                )))
            }
        })
    }

    fn stop(&self, common: HookCommon) -> Result<StopContext, CliError> {
        Ok(StopContext {
            common,
            history: Arc::from(Vec::new()),
            last_assistant_message: self.string("last_assistant_message", Some(""))?,
            stop_hook_active: match self.payload.get("stop_hook_active") {
                None | Some(Value::Null) => false,
                Some(Value::Bool(active)) => *active,
                Some(_) => return Err(self.bad("stop_hook_active", "true or false")),
            },
        })
    }

    /// The subagent the payload names (`agent_id`, `agent_type`), with test defaults.
    fn with_agent(&self, common: HookCommon) -> Result<HookCommon, CliError> {
        Ok(HookCommon {
            agent: Some(SubagentIdentity {
                agent_id: self.string("agent_id", Some("agent-test"))?,
                agent_type: self.string("agent_type", Some("general-purpose"))?,
            }),
            ..common
        })
    }

    fn outcome(&self, event: HookEvent) -> Result<ToolOutcome, CliError> {
        let elapsed = Duration::from_millis(
            self.payload
                .get("duration_ms")
                .and_then(Value::as_u64)
                .unwrap_or(0),
        );
        if event == HookEvent::PostToolUseFailure {
            let error = self.string("error", Some("the tool failed"))?;
            return Ok(ToolOutcome::failed(ToolError::new(error), elapsed));
        }
        // A structured `tool_response` (Claude Code's shape) is passed on as
        // it is; its JSON text stands in for the text the model would see.
        let (output, structured) = match self.payload.get("tool_response") {
            None | Some(Value::Null) => (String::new(), None),
            Some(Value::String(text)) => (text.clone(), None),
            Some(other) => (other.to_string(), Some(other.clone())),
        };
        Ok(ToolOutcome::succeeded(output, structured, elapsed))
    }

    /// SessionEnd's `reason` is Claude Code's (`clear`, `resume`, `logout`,
    /// `prompt_input_exit`, `other`) and `agenthub_outcome` the run's status;
    /// an older payload's `reason` that names a status is read as that status.
    fn session_end_reason(&self) -> Result<(RunStatus, SessionEndReason), CliError> {
        let reason = self.string("reason", Some("other"))?;
        let exit = SessionEndReason::ALL
            .into_iter()
            .find(|exit| exit.as_str() == reason);
        match exit {
            Some(exit) => Ok((self.status("agenthub_outcome")?, exit)),
            None => Ok((self.status("reason")?, SessionEndReason::Other)),
        }
    }

    fn status(&self, field: &str) -> Result<RunStatus, CliError> {
        let text = self.string(field, Some("completed"))?;
        [
            RunStatus::Completed,
            RunStatus::Stopped,
            RunStatus::Blocked,
            RunStatus::Failed,
            RunStatus::MaxTurns,
            RunStatus::Cancelled,
        ]
        .into_iter()
        .find(|status| status.as_str() == text)
        .ok_or_else(|| {
            self.bad(
                field,
                "completed, stopped, blocked, failed, max_turns or cancelled",
            )
        })
    }
}

impl EventContext {
    /// What matchers of this event are compared with, if anything.
    pub fn target(&self) -> Option<String> {
        match self {
            EventContext::SessionStart(context) => Some(context.source.as_str().to_owned()),
            EventContext::PreToolUse(_, call) | EventContext::PostToolUse(_, call, _) => {
                Some(call.name().to_owned())
            }
            EventContext::PermissionRequest(context) => Some(context.call.name().to_owned()),
            EventContext::SessionEnd(context) => Some(context.exit.as_str().to_owned()),
            EventContext::Notification(context) => Some(context.notification_type.clone()),
            EventContext::PreCompact(context) => Some(context.trigger.as_str().to_owned()),
            EventContext::SubagentStart(SubagentStartContext { common, .. })
            | EventContext::SubagentStop(StopContext { common, .. }) => {
                common.agent.as_ref().map(|agent| agent.agent_type.clone())
            }
            EventContext::Observed(observed) => observed.target(),
            EventContext::UserPromptSubmit(_) | EventContext::Stop(_) => None,
        }
    }

    /// Runs the event's hooks through the engine, as a run would.
    pub async fn run(self, hooks: &HookRegistry) -> Outcome {
        match self {
            EventContext::SessionStart(context) => outcome(
                hooks.run_session_start(context).await,
                describe::session_start,
            ),
            EventContext::UserPromptSubmit(context) => outcome(
                hooks.run_user_prompt_submit(context).await,
                describe::user_prompt_submit,
            ),
            EventContext::PreToolUse(common, call) => outcome(
                hooks.run_pre_tool_use(common, call).await,
                describe::pre_tool_use,
            ),
            EventContext::PermissionRequest(context) => outcome(
                hooks.run_permission_request(context).await,
                describe::permission_request,
            ),
            EventContext::PostToolUse(common, call, result) => outcome(
                hooks.run_post_tool_use(common, call, result).await,
                describe::post_tool_use,
            ),
            EventContext::Stop(context) => {
                outcome(hooks.run_stop(context, true).await, describe::stop)
            }
            EventContext::SubagentStart(context) => {
                outcome(hooks.run_subagent_start(context).await, |verdict| {
                    let mut lines = verdict.context;
                    lines.extend(verdict.failure);
                    lines
                })
            }
            EventContext::SubagentStop(context) => {
                outcome(hooks.run_subagent_stop(context, true).await, describe::stop)
            }
            EventContext::PreCompact(context) => {
                outcome(hooks.run_pre_compact(context).await, describe::pre_compact)
            }
            EventContext::Notification(context) => {
                outcome(hooks.run_notification(context).await, |()| {
                    vec!["Notification hooks only observe".to_owned()]
                })
            }
            EventContext::SessionEnd(context) => {
                outcome(hooks.run_session_end(context).await, |()| {
                    vec!["SessionEnd hooks only observe".to_owned()]
                })
            }
            EventContext::Observed(observed) => observed.run(hooks).await,
        }
    }
}

pub(super) fn outcome<V>(run: HookRun<V>, describe: impl FnOnce(V) -> Vec<String>) -> Outcome {
    Outcome {
        records: run.records,
        messages: run.messages,
        merged: describe(run.verdict),
    }
}
