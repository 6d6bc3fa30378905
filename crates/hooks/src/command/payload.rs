//! The stdin JSON of each event (docs/hooks.md "stdin JSON"): the common
//! fields, then the event's own. Every path field a tool declares (read or
//! written: Read/Write/Edit `file_path`, Glob/Grep `path`) is absolute in
//! `tool_input`, as Claude Code sends file paths.

use crate::context::*;
use agenthub_tools::{PreparedCall, Workspace};
use serde_json::{json, Map, Value};

fn common(common: &HookCommon, event: &str) -> Map<String, Value> {
    let mut fields = Map::new();
    fields.insert("session_id".into(), json!(common.session_id));
    fields.insert(
        "transcript_path".into(),
        json!(common
            .transcript_path
            .as_ref()
            .map(|path| std::path::absolute(path)
                .unwrap_or_else(|_| path.clone())
                .display()
                .to_string())),
    );
    fields.insert("cwd".into(), json!(common.workspace.display().to_string()));
    fields.insert("permission_mode".into(), json!(common.permission_mode));
    fields.insert("hook_event_name".into(), json!(event));
    if let Some(agent) = &common.agent {
        fields.insert("agent_id".into(), json!(agent.agent_id));
        fields.insert("agent_type".into(), json!(agent.agent_type));
    }
    fields
}

fn with(mut fields: Map<String, Value>, extra: Value) -> Value {
    if let Value::Object(extra) = extra {
        fields.extend(extra);
    }
    Value::Object(fields)
}

/// `tool_input` as hooks see it: every declared path field that is present
/// made absolute (an absent one stays absent).
pub fn tool_input(common: &HookCommon, call: &PreparedCall) -> Value {
    let mut input = call.input().clone();
    let mut workspace = Workspace::new(common.workspace.clone());
    if let Some(home) = std::env::var_os("HOME") {
        // `~` means what it means to the tool that will run (see Workspace::with_home).
        workspace = workspace.with_home(std::path::PathBuf::from(home));
    }
    for (field, _) in call.definition().capabilities().path_fields() {
        if let Some(Value::String(path)) = input.get_mut(field.field) {
            *path = workspace.resolve(path).display().to_string();
        }
    }
    input
}

/// SessionStart's stdin: the common fields, `source` and, when known, `model`.
pub fn session_start(context: &SessionStartContext) -> Value {
    let mut extra = json!({"source": context.source.as_str()});
    if let (Some(model), Value::Object(fields)) = (&context.model, &mut extra) {
        fields.insert("model".into(), json!(model));
    }
    with(common(&context.common, "SessionStart"), extra)
}

/// UserPromptSubmit's stdin: the common fields and `prompt`.
pub fn user_prompt_submit(context: &UserPromptSubmitContext) -> Value {
    with(
        common(&context.common, "UserPromptSubmit"),
        json!({"prompt": context.prompt}),
    )
}

/// PreToolUse's stdin: the common fields, `tool_name`, `tool_input` (declared
/// paths absolute) and `tool_use_id`.
pub fn pre_tool_use(context: &PreToolUseContext) -> Value {
    with(
        common(&context.common, "PreToolUse"),
        json!({
            "tool_name": context.call.name(),
            "tool_input": tool_input(&context.common, &context.call),
            "tool_use_id": context.call.id(),
        }),
    )
}

/// PermissionRequest's stdin: the common fields, `tool_name` and `tool_input`
/// (declared paths absolute).
pub fn permission_request(context: &PermissionRequestContext) -> Value {
    with(
        common(&context.common, "PermissionRequest"),
        json!({
            "tool_name": context.call.name(),
            "tool_input": tool_input(&context.common, &context.call),
        }),
    )
}

/// PostToolUse (the tool succeeded) or PostToolUseFailure (it failed).
pub fn post_tool_use(context: &PostToolUseContext) -> Value {
    let duration_ms = u64::try_from(context.result.elapsed.as_millis()).unwrap_or(u64::MAX);
    let mut extra = json!({
        "tool_name": context.call.name(),
        "tool_input": tool_input(&context.common, &context.call),
        "tool_use_id": context.call.id(),
        "duration_ms": duration_ms,
    });
    let event = if context.result.is_error() {
        "PostToolUseFailure"
    } else {
        "PostToolUse"
    };
    if let Value::Object(fields) = &mut extra {
        match &context.result.failure {
            Some(failure) => fields.insert("error".into(), json!(failure.message)),
            None => fields.insert("tool_response".into(), tool_response(&context.result)),
        };
    }
    with(common(&context.common, event), extra)
}

/// PostToolUse `tool_response`: the tool's structured result, shaped like
/// Claude Code's (e.g. Bash `{stdout, stderr, …}`), when it has one; else the
/// result text (see [`ToolOutcome::structured`] for when that is).
fn tool_response(result: &ToolOutcome) -> Value {
    match &result.structured {
        Some(structured) => structured.clone(),
        None => json!(result.output),
    }
}

/// Stop's stdin: the common fields, `stop_hook_active` and
/// `last_assistant_message`; in a subagent's run it is SubagentStop's, whose
/// common fields carry `agent_id` and `agent_type`.
pub fn stop(context: &StopContext) -> Value {
    let event = match context.common.agent {
        Some(_) => "SubagentStop",
        None => "Stop",
    };
    with(
        common(&context.common, event),
        json!({
            "stop_hook_active": context.stop_hook_active,
            "last_assistant_message": context.last_assistant_message,
        }),
    )
}

/// SubagentStart's stdin: the common fields (with `agent_id` and `agent_type`).
pub fn subagent_start(context: &SubagentStartContext) -> Value {
    Value::Object(common(&context.common, "SubagentStart"))
}

/// PreCompact's stdin: the common fields, `trigger` and `custom_instructions`.
pub fn pre_compact(context: &PreCompactContext) -> Value {
    with(
        common(&context.common, "PreCompact"),
        json!({
            "trigger": context.trigger.as_str(),
            "custom_instructions": context.custom_instructions,
        }),
    )
}

/// SessionEnd's stdin: the common fields, `reason` in Claude Code's values
/// (`clear`, `resume`, `logout`, `prompt_input_exit`, `other`) and `agenthub_outcome`, the
/// outcome of the session's last run.
pub fn session_end(context: &SessionEndContext) -> Value {
    with(
        common(&context.common, "SessionEnd"),
        json!({"reason": context.exit.as_str(), "agenthub_outcome": context.reason.as_str()}),
    )
}

/// StopFailure's stdin: the common fields and `error`.
pub fn stop_failure(context: &crate::StopFailureContext) -> Value {
    with(
        common(&context.common, "StopFailure"),
        json!({"error": context.error}),
    )
}

/// PermissionDenied's stdin: the common fields, `tool_name`, `tool_input`,
/// `tool_use_id` and `reason`.
pub fn permission_denied(context: &crate::PermissionDeniedContext) -> Value {
    with(
        common(&context.common, "PermissionDenied"),
        json!({
            "tool_name": context.tool_name,
            "tool_input": context.tool_input,
            "tool_use_id": context.tool_use_id,
            "reason": context.reason,
        }),
    )
}

/// PostCompact's stdin: the common fields, `trigger` and `compact_summary`.
pub fn post_compact(context: &crate::PostCompactContext) -> Value {
    with(
        common(&context.common, "PostCompact"),
        json!({"trigger": context.trigger.as_str(), "compact_summary": context.compact_summary}),
    )
}

/// PostToolBatch's stdin: the common fields and `tool_calls`, each
/// `{tool_name, tool_use_id, tool_input, is_error}`.
pub fn post_tool_batch(context: &crate::PostToolBatchContext) -> Value {
    let calls: Vec<Value> = context
        .tool_calls
        .iter()
        .map(|call| {
            json!({
                "tool_name": call.tool_name,
                "tool_use_id": call.tool_use_id,
                "tool_input": call.tool_input,
                "is_error": call.is_error,
            })
        })
        .collect();
    with(
        common(&context.common, "PostToolBatch"),
        json!({"tool_calls": calls}),
    )
}

/// UserPromptExpansion's stdin: the common fields, `expansion_type`,
/// `command_name`, `command_args` and `prompt`.
pub fn user_prompt_expansion(context: &crate::UserPromptExpansionContext) -> Value {
    with(
        common(&context.common, "UserPromptExpansion"),
        json!({
            "expansion_type": context.expansion_type,
            "command_name": context.command_name,
            "command_args": context.command_args,
            "prompt": context.prompt,
        }),
    )
}

/// InstructionsLoaded's stdin: the common fields, `file_path` and `load_reason`.
pub fn instructions_loaded(context: &crate::InstructionsLoadedContext) -> Value {
    with(
        common(&context.common, "InstructionsLoaded"),
        json!({
            "file_path": context.file_path.display().to_string(),
            "load_reason": context.load_reason,
        }),
    )
}

/// Notification's stdin: the common fields, `message` and `notification_type`.
pub fn notification(context: &NotificationContext) -> Value {
    with(
        common(&context.common, "Notification"),
        json!({"message": context.message, "notification_type": context.notification_type}),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenthub_tools::builtin::{Echo, Glob};
    use agenthub_tools::{
        PathField, Tool, ToolCapabilities, ToolContext, ToolDefinition, ToolEffect, ToolError,
        ToolOutput,
    };
    use std::sync::Arc;
    use std::time::Duration;
    use tokio_util::sync::CancellationToken;

    fn context(structured: Option<Value>) -> PostToolUseContext {
        let definition = Arc::new(ToolDefinition::new(Echo).unwrap());
        PostToolUseContext {
            common: HookCommon {
                session_id: "s".into(),
                workspace: "/ws".into(),
                transcript_path: None,
                permission_mode: "default".into(),
                cancel: CancellationToken::new(),
                agent: None,
            },
            call: PreparedCall::from_parts("c1", "Echo", definition, json!({"text": "hi"})),
            result: ToolOutcome::succeeded("hi".into(), structured, Duration::from_millis(3)),
        }
    }

    /// A tool that reads `from` and writes `to`, declared as such.
    struct Copy;

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    struct CopyInput {
        #[allow(dead_code)]
        from: String,
        #[allow(dead_code)]
        to: String,
    }

    impl Tool for Copy {
        type Input = CopyInput;

        fn name(&self) -> &str {
            "Copy"
        }

        fn description(&self) -> &str {
            "Copies a file."
        }

        fn effect(&self) -> ToolEffect {
            ToolEffect::SideEffects
        }

        fn capabilities(&self) -> ToolCapabilities {
            ToolCapabilities::none()
                .reading(PathField::required("from"))
                .writing(PathField::required("to"))
        }

        async fn call(&self, _: CopyInput, _: ToolContext) -> Result<ToolOutput, ToolError> {
            Ok(ToolOutput::from("copied".to_owned()))
        }
    }

    #[test]
    fn every_declared_path_field_is_absolute_in_tool_input() {
        let definition = Arc::new(ToolDefinition::new(Copy).unwrap());
        let input = json!({"from": "src/a.rs", "to": "/ws/b.rs", "mode": "fast"});
        let call = PreparedCall::from_parts("c1", "Copy", definition, input);
        assert_eq!(
            tool_input(&context(None).common, &call),
            json!({"from": "/ws/src/a.rs", "to": "/ws/b.rs", "mode": "fast"})
        );
    }

    #[test]
    fn an_absent_path_field_stays_absent_in_tool_input() {
        let definition = Arc::new(ToolDefinition::new(Glob).unwrap());
        let call = PreparedCall::from_parts("c1", "Glob", definition, json!({"pattern": "*"}));
        assert_eq!(
            tool_input(&context(None).common, &call),
            json!({"pattern": "*"})
        );
    }

    #[test]
    fn post_tool_use_tool_response_is_the_structured_result_when_there_is_one() {
        let payload = post_tool_use(&context(Some(json!({"text": "hi"}))));
        assert_eq!(payload["tool_response"], json!({"text": "hi"}));
    }

    #[test]
    fn post_tool_use_tool_response_is_the_text_without_a_structured_result() {
        let payload = post_tool_use(&context(None));
        assert_eq!(payload["tool_response"], json!("hi"));
    }

    #[test]
    fn post_tool_use_failure_error_is_the_tools_own_message_unchanged() {
        let message = "disk full: Error [tool_error]: nested ]: text";
        let mut failed = context(None);
        failed.result = ToolOutcome::failed(
            agenthub_tools::ToolError::new(message),
            Duration::from_millis(3),
        );
        let payload = post_tool_use(&failed);
        assert_eq!(
            (
                &payload["hook_event_name"],
                &payload["error"],
                payload.get("tool_response")
            ),
            (&json!("PostToolUseFailure"), &json!(message), None)
        );
    }

    #[test]
    fn post_tool_use_failure_error_stays_the_tools_after_an_earlier_hook_rewrote_the_output() {
        let mut failed = context(None);
        failed.result = ToolOutcome {
            output: "a friendlier text".into(),
            ..ToolOutcome::failed(
                agenthub_tools::ToolError::new("permission bits"),
                Duration::from_millis(3),
            )
        };
        assert_eq!(post_tool_use(&failed)["error"], json!("permission bits"));
    }
}
