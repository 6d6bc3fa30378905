//! The model's task list as the editor's plan: each successful TodoWrite
//! call becomes a `plan` update holding the whole list (ACP's plan is
//! replaced whole by each update, as TodoWrite replaces its list), every
//! entry of `medium` priority (TodoWrite has none).
//!
//! It only reads a call the loop already ran; it never runs or changes one.

use super::schema::SessionUpdate;
use agenthub::crates::tools::builtin::{Todo, TodoStatus, TodoWrite};
use agenthub::ToolCall;
use serde::Serialize;

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
