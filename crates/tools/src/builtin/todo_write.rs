//! `TodoWrite {todos}`: the model's task list for the session, Claude Code's
//! tool with Claude Code's input (`content`, `status`, `activeForm` per item)
//! and result text, so a model trained on Claude Code tracks its work the way
//! it learnt to, and hooks matching `TodoWrite` apply unchanged.
//!
//! Each call sends the whole list, which replaces the previous one. The tool
//! keeps no state and touches no file: the list is the input of the latest
//! successful call, so a front door reads it from the call it observes
//! ([`TodoWrite::todos_of`]: the interactive checklist, ACP `plan` updates)
//! and each session has its own. It never decides anything and never shows
//! anything itself.
//!
//! Unlike Claude Code's `{oldTodos, newTodos}`, the structured result for hooks
//! is `{newTodos}`: a stateless tool does not know the previous list.

use crate::{Tool, ToolContext, ToolEffect, ToolError, ToolOutput};
use agenthub_protocol::ToolCall;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// What the model reads after every successful call: Claude Code's text, word
/// for word.
pub const TODO_WRITE_RESULT: &str = "Todos have been modified successfully. Ensure that you \
     continue to use the todo list to track your progress. Please proceed with the current \
     tasks if applicable";

/// Where a task stands.
///
/// No doc comments on the variants (hence the `allow`): they would turn the
/// schema's plain `enum` into a `oneOf`, whose validation error lists no choices.
#[allow(missing_docs)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(inline, description = "")]
pub enum TodoStatus {
    Pending,
    InProgress,
    Completed,
}

/// One task of the list. Fields other than these three (an older Claude
/// Code's `id` and `priority`) are ignored, not refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline, description = "")]
pub struct Todo {
    /// The task, imperative: "Run the tests".
    #[schemars(length(min = 1), description = "")]
    pub content: String,
    /// Where it stands.
    #[schemars(description = "")]
    pub status: TodoStatus,
    /// The task as shown while in progress: "Running the tests".
    #[schemars(length(min = 1), description = "")]
    pub active_form: String,
}

/// TodoWrite's input: the whole list, in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(description = "")]
pub struct TodoWriteInput {
    /// Every task, in the order to show them.
    #[schemars(description = "")]
    pub todos: Vec<Todo>,
}

/// Replaces the session's task list (read-only: it changes no file, so every
/// mode allows it without asking).
pub struct TodoWrite;

impl TodoWrite {
    /// The name the model calls it by.
    pub const NAME: &'static str = "TodoWrite";

    /// The list a call of TodoWrite sets, read from its arguments; `None` for
    /// a call of another tool or arguments that are not a list. A front door
    /// shows it only once the call succeeded (a denied call set nothing).
    ///
    /// ```
    /// use agenthub_protocol::ToolCall;
    /// use agenthub_tools::builtin::{Todo, TodoStatus, TodoWrite};
    ///
    /// let arguments = r#"{"todos":[{"content":"Run the tests","status":"in_progress","activeForm":"Running the tests"}]}"#;
    /// let call = ToolCall::new("c1", "TodoWrite", arguments);
    /// assert_eq!(
    ///     TodoWrite::todos_of(&call),
    ///     Some(vec![Todo {
    ///         content: "Run the tests".to_owned(),
    ///         status: TodoStatus::InProgress,
    ///         active_form: "Running the tests".to_owned(),
    ///     }])
    /// );
    /// ```
    pub fn todos_of(call: &ToolCall) -> Option<Vec<Todo>> {
        if call.function.name != Self::NAME {
            return None;
        }
        serde_json::from_str::<TodoWriteInput>(&call.function.arguments)
            .ok()
            .map(|input| input.todos)
    }
}

impl Tool for TodoWrite {
    type Input = TodoWriteInput;

    fn name(&self) -> &str {
        Self::NAME
    }

    fn description(&self) -> &str {
        "The session's task list, sent whole each time: for work of 3+ steps, one task \
         in_progress at a time. activeForm: \"Running tests\" for \"Run tests\"."
    }

    /// Planning, as an editor shows it (ACP `think`).
    fn kind(&self) -> crate::ToolKind {
        crate::ToolKind::Think
    }

    fn effect(&self) -> ToolEffect {
        ToolEffect::ReadOnly
    }

    /// Structured output for hooks: `{"newTodos"}`.
    async fn call(
        &self,
        input: TodoWriteInput,
        _context: ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let structured = json!({"newTodos": input.todos});
        Ok(ToolOutput::with_structured(TODO_WRITE_RESULT, structured))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ToolRegistry, Workspace};
    use agenthub_protocol::ToolCall;
    use tokio_util::sync::CancellationToken;

    fn todo(content: &str, status: TodoStatus, active_form: &str) -> Todo {
        Todo {
            content: content.to_owned(),
            status,
            active_form: active_form.to_owned(),
        }
    }

    #[tokio::test]
    async fn a_call_answers_claude_codes_text_and_gives_hooks_the_new_list() {
        let context = ToolContext {
            workspace: Workspace::new("/tmp"),
            cancel: CancellationToken::new(),
        };
        let input = TodoWriteInput {
            todos: vec![todo("Run tests", TodoStatus::Pending, "Running tests")],
        };
        assert_eq!(
            TodoWrite.call(input, context).await,
            Ok(ToolOutput::with_structured(
                "Todos have been modified successfully. Ensure that you continue to use the todo \
                 list to track your progress. Please proceed with the current tasks if applicable",
                json!({"newTodos": [
                    {"content": "Run tests", "status": "pending", "activeForm": "Running tests"}
                ]})
            ))
        );
    }

    #[test]
    fn the_model_is_offered_claude_codes_input_shape() {
        let mut registry = ToolRegistry::new();
        let definition = registry.register(TodoWrite).unwrap();
        assert_eq!(
            definition.input_schema().clone(),
            json!({
                "type": "object",
                "properties": {"todos": {"type": "array", "items": {
                    "type": "object",
                    "properties": {
                        "content": {"type": "string", "minLength": 1},
                        "status": {"type": "string", "enum": ["pending", "in_progress", "completed"]},
                        "activeForm": {"type": "string", "minLength": 1}
                    },
                    "required": ["content", "status", "activeForm"]
                }}},
                "required": ["todos"]
            })
        );
    }

    #[test]
    fn a_call_of_todo_write_gives_its_list_and_any_other_call_none() {
        let arguments = r#"{"todos":[
            {"content":"Read","status":"completed","activeForm":"Reading","id":"1","priority":"high"},
            {"content":"Fix","status":"pending","activeForm":"Fixing"}]}"#;
        assert_eq!(
            [
                TodoWrite::todos_of(&ToolCall::new("c1", "TodoWrite", arguments)),
                TodoWrite::todos_of(&ToolCall::new("c2", "Echo", arguments)),
                TodoWrite::todos_of(&ToolCall::new("c3", "TodoWrite", r#"{"todos":"no"}"#)),
            ],
            [
                Some(vec![
                    todo("Read", TodoStatus::Completed, "Reading"),
                    todo("Fix", TodoStatus::Pending, "Fixing"),
                ]),
                None,
                None,
            ]
        );
    }

    #[test]
    fn a_list_with_an_unknown_status_or_an_empty_active_form_is_refused_where_it_is_wrong() {
        let registry = ToolRegistry::with_builtins().unwrap();
        let arguments = r#"{"todos":[
            {"content":"Read","status":"done","activeForm":"Reading"},
            {"content":"Fix","status":"pending","activeForm":""}]}"#;
        let call = ToolCall::new("c1", "TodoWrite", arguments);
        let problems = match registry.prepare(&call) {
            Err(crate::Rejection::SchemaMismatch { problems, .. }) => problems,
            other => panic!("not a schema mismatch: {other:?}"),
        };
        let paths: Vec<&str> = problems
            .iter()
            .map(|problem| problem.path.as_str())
            .collect();
        assert_eq!(paths, ["/todos/0/status", "/todos/1/activeForm"]);
    }
}
