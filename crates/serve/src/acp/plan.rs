//! The model's task list as the editor's plan: each successful TodoWrite
//! call becomes a `plan` update holding the whole list (ACP's plan is
//! replaced whole by each update, as TodoWrite replaces its list), every
//! entry of `medium` priority (TodoWrite has none).
//!
//! A loaded session's editor gets the plan its history last set, as Claude
//! Code restores its list from the transcript on resume. It only reads calls
//! the loop already ran; it never runs or changes one.

use super::schema::SessionUpdate;
use agenthub::crates::tools::builtin::{Todo, TodoStatus, TodoWrite};
use agenthub::{Message, ToolCall};
use serde::Serialize;
use std::collections::HashMap;

/// One task of the plan, as ACP's `PlanEntry`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlanEntry {
    pub content: String,
    pub priority: &'static str,
    pub status: TodoStatus,
}

/// The `plan` update a call sets, when it is a TodoWrite call that succeeded
/// (told `ended` without an error code); `None` for any other call.
pub fn plan_of(call: &ToolCall) -> Option<SessionUpdate> {
    let todos = TodoWrite::todos_of(call)?;
    Some(SessionUpdate::Plan {
        entries: todos.iter().map(entry).collect(),
    })
}

/// The plan of `history`'s last TodoWrite call that succeeded (its tool
/// message is not an error); `None` when no call set one.
pub fn latest_plan(history: &[Message]) -> Option<SessionUpdate> {
    let mut asked: HashMap<&str, &ToolCall> = HashMap::new();
    let mut latest = None;
    for message in history {
        match message {
            Message::Assistant { tool_calls, .. } => {
                asked.extend(tool_calls.iter().map(|call| (call.id.as_str(), call)));
            }
            Message::Tool {
                tool_call_id,
                is_error: false,
                ..
            } => {
                if let Some(plan) = asked.get(tool_call_id.as_str()).and_then(|c| plan_of(c)) {
                    latest = Some(plan);
                }
            }
            _ => {}
        }
    }
    latest
}

fn entry(todo: &Todo) -> PlanEntry {
    PlanEntry {
        content: todo.content.clone(),
        priority: "medium",
        status: todo.status,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn todo_write(id: &str, status: &str) -> ToolCall {
        let arguments =
            json!({"todos": [{"content": "Fix", "status": status, "activeForm": "Fixing"}]});
        ToolCall::new(id, "TodoWrite", arguments.to_string())
    }

    fn calls(call: ToolCall) -> Message {
        Message::Assistant {
            content: None,
            tool_calls: vec![call],
        }
    }

    #[test]
    fn a_loaded_history_gives_the_plan_of_its_last_successful_todo_write_call() {
        let history = [
            calls(todo_write("c1", "in_progress")),
            Message::tool("c1", "done"),
            calls(todo_write("c2", "completed")),
            Message::tool_error("c2", "denied"),
        ];
        assert_eq!(
            (latest_plan(&history), latest_plan(&history[..1])),
            (plan_of(&todo_write("c1", "in_progress")), None)
        );
    }

    #[test]
    fn a_todo_write_call_is_a_plan_of_medium_entries_and_another_call_none() {
        let arguments = r#"{"todos":[
            {"content":"Read","status":"completed","activeForm":"Reading"},
            {"content":"Fix","status":"in_progress","activeForm":"Fixing"}]}"#;
        let todo_write = ToolCall::new("c1", "TodoWrite", arguments);
        let other = ToolCall::new("c2", "Read", r#"{"file_path":"a"}"#);
        let shown = plan_of(&todo_write).map(|update| serde_json::to_value(update).unwrap());
        assert_eq!(
            (shown, plan_of(&other)),
            (
                Some(json!({"sessionUpdate": "plan", "entries": [
                    {"content": "Read", "priority": "medium", "status": "completed"},
                    {"content": "Fix", "priority": "medium", "status": "in_progress"},
                ]})),
                None
            )
        );
    }
}
