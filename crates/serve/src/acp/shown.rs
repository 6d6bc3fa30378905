//! How the editor is shown the conversation: a tool call's title from what
//! the tool declares (its shell command, its paths — never its name), its
//! kind, locations and content (`shown_call.rs`), a result's status from its
//! error code, and a saved history as the `session/update`s a live turn
//! would have sent (`session/load`).

use super::schema::{SessionUpdate, TextBlock, ToolCallContent, ToolCallFields, ToolCallStatus};
pub use super::shown_call::{Changes, ToolsByName};
use agenthub::Message;
use agenthub::ToolDefinition;
use serde_json::Value;
use std::sync::Arc;

/// The `tool_call` update that announces a call the model made.
pub fn announced(
    tools: &ToolsByName,
    id: &str,
    name: &str,
    arguments: &str,
    changes: Changes,
) -> SessionUpdate {
    SessionUpdate::ToolCall(call_fields(tools, id, name, input(arguments), changes))
}

/// A call's arguments as the JSON they hold; arguments that are not JSON
/// as a string.
pub fn input(arguments: &str) -> Value {
    serde_json::from_str(arguments).unwrap_or(Value::String(arguments.to_owned()))
}

/// The fields of a call as announced: title, kind, status `pending`, the
/// files it touches and what it would change or run, its input.
pub fn call_fields(
    tools: &ToolsByName,
    id: &str,
    name: &str,
    input: Value,
    changes: Changes,
) -> ToolCallFields {
    let shown = tools.shown(name, &input, changes);
    ToolCallFields {
        tool_call_id: id.to_owned(),
        title: Some(title(tools.get(name), name, &input)),
        kind: Some(shown.kind),
        status: Some(ToolCallStatus::Pending),
        content: (!shown.content.is_empty()).then_some(shown.content),
        locations: (!shown.locations.is_empty()).then_some(shown.locations),
        raw_input: Some(input),
    }
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
/// an error (the tool failed, or was denied, blocked or cancelled). A call
/// that completed keeps the diffs it was announced with, before its result;
/// one that failed made no change, and shows only why.
pub fn finished(
    id: &str,
    content: &str,
    is_error: bool,
    announced: Vec<ToolCallContent>,
) -> SessionUpdate {
    let (status, kept) = match is_error {
        true => (ToolCallStatus::Failed, Vec::new()),
        false => (ToolCallStatus::Completed, diffs(announced)),
    };
    let result = ToolCallContent::text(content);
    SessionUpdate::ToolCallUpdate(ToolCallFields {
        tool_call_id: id.to_owned(),
        status: Some(status),
        content: Some(kept.into_iter().chain([result]).collect()),
        ..ToolCallFields::default()
    })
}

fn diffs(content: Vec<ToolCallContent>) -> Vec<ToolCallContent> {
    content
        .into_iter()
        .filter(|shown| matches!(shown, ToolCallContent::Diff { .. }))
        .collect()
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

/// A saved history as the updates a live session sent: prompts, answers,
/// each call announced (without a diff: the files have changed since) and
/// finished. System text is not shown.
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
                        Changes::Omitted,
                    ));
                }
            }
            Message::Tool {
                tool_call_id,
                content,
                is_error,
            } => updates.push(finished(tool_call_id, content, *is_error, Vec::new())),
        }
    }
    updates
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn diff() -> ToolCallContent {
        ToolCallContent::Diff {
            path: PathBuf::from("/w/a.txt"),
            old_text: None,
            new_text: "a\n".to_owned(),
        }
    }

    #[test]
    fn a_completed_call_keeps_its_diff_before_its_result_and_drops_its_command() {
        let announced = vec![diff(), ToolCallContent::text("```sh\nls\n```")];
        assert_eq!(
            finished("call_1", "Wrote 2 bytes", false, announced),
            SessionUpdate::ToolCallUpdate(ToolCallFields {
                tool_call_id: "call_1".to_owned(),
                status: Some(ToolCallStatus::Completed),
                content: Some(vec![diff(), ToolCallContent::text("Wrote 2 bytes")]),
                ..ToolCallFields::default()
            })
        );
    }

    #[test]
    fn a_failed_call_shows_only_why_it_made_no_change() {
        assert_eq!(
            finished(
                "call_1",
                "Error [permission_denied]: no",
                true,
                vec![diff()]
            ),
            SessionUpdate::ToolCallUpdate(ToolCallFields {
                tool_call_id: "call_1".to_owned(),
                status: Some(ToolCallStatus::Failed),
                content: Some(vec![ToolCallContent::text("Error [permission_denied]: no")]),
                ..ToolCallFields::default()
            })
        );
    }
}
