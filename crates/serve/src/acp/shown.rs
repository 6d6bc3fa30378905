//! How the editor is shown the conversation: a tool call's title and kind
//! from what the tool declares (its shell command, its paths — never its
//! name), a result's status from its error code, and a saved history as the
//! `session/update`s a live turn would have sent (`session/load`).

use super::schema::{
    SessionUpdate, TextBlock, ToolCallContent, ToolCallFields, ToolCallStatus, ToolKind,
};
use agenthub::Message;
use agenthub::ToolDefinition;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;

/// The tools a session may call, by name.
pub type ToolsByName = HashMap<String, Arc<ToolDefinition>>;

/// The `tool_call` update that announces a call the model made.
pub fn announced(tools: &ToolsByName, id: &str, name: &str, arguments: &str) -> SessionUpdate {
    let input = serde_json::from_str(arguments).unwrap_or(Value::String(arguments.to_owned()));
    let definition = tools.get(name);
    SessionUpdate::ToolCall(ToolCallFields {
        tool_call_id: id.to_owned(),
        title: Some(title(definition, name, &input)),
        kind: Some(definition.map_or(ToolKind::Other, |tool| kind(tool, &input))),
        status: Some(ToolCallStatus::Pending),
        content: None,
        raw_input: Some(input),
    })
}

/// The update that says a call now runs.
pub fn running(id: &str) -> SessionUpdate {
    SessionUpdate::ToolCallUpdate(ToolCallFields {
        tool_call_id: id.to_owned(),
        status: Some(ToolCallStatus::InProgress),
        ..ToolCallFields::default()
    })
}

/// The update that ends a call with its result: `failed` when the result is
/// an error (the tool failed, or was denied, blocked or cancelled).
pub fn finished(id: &str, content: &str, is_error: bool) -> SessionUpdate {
    let status = match is_error {
        true => ToolCallStatus::Failed,
        false => ToolCallStatus::Completed,
    };
    SessionUpdate::ToolCallUpdate(ToolCallFields {
        tool_call_id: id.to_owned(),
        status: Some(status),
        content: Some(vec![ToolCallContent::text(content)]),
        ..ToolCallFields::default()
    })
}

/// `Bash: npm test`, `Read: src/main.rs`; the bare name for a tool that
/// declares neither.
pub fn title(definition: Option<&Arc<ToolDefinition>>, name: &str, input: &Value) -> String {
    let Some(tool) = definition else {
        return name.to_owned();
    };
    let capabilities = tool.capabilities();
    let shown = match capabilities.command(input) {
        Some(Ok(command)) => Some(command),
        _ => capabilities
            .path_fields()
            .find_map(|(field, _)| field.value(input).ok()),
    };
    match shown {
        Some(shown) => format!("{name}: {shown}"),
        None => name.to_owned(),
    }
}

/// What kind of action the editor shows: a shell command executes, a tool
/// that writes paths edits, a read-only tool reads.
fn kind(tool: &ToolDefinition, input: &Value) -> ToolKind {
    let capabilities = tool.capabilities();
    if capabilities.command(input).is_some() {
        ToolKind::Execute
    } else if capabilities.writes_paths() {
        ToolKind::Edit
    } else if tool.is_read_only() {
        ToolKind::Read
    } else {
        ToolKind::Other
    }
}

/// A saved history as the updates a live session sent: prompts, answers,
/// each call announced and finished. System text is not shown.
pub fn replayed(tools: &ToolsByName, history: &[Message]) -> Vec<SessionUpdate> {
    let mut updates = Vec::new();
    for message in history {
        match message {
            Message::System { .. } => {}
            Message::User { content } => updates.push(SessionUpdate::UserMessageChunk {
                content: TextBlock::new(agenthub::typed_prompt(content)),
            }),
            Message::Assistant {
                content,
                tool_calls,
            } => {
                if let Some(text) = content.as_deref().filter(|text| !text.is_empty()) {
                    updates.push(SessionUpdate::agent_text(text));
                }
                for call in tool_calls {
                    updates.push(announced(
                        tools,
                        &call.id,
                        &call.function.name,
                        &call.function.arguments,
                    ));
                }
            }
            Message::Tool {
                tool_call_id,
                content,
                is_error,
            } => updates.push(finished(tool_call_id, content, *is_error)),
        }
    }
    updates
}
