//! The model's task list (its latest TodoWrite call) drawn as a checklist
//! under the call's line, in place of the call's `ok`: `☐` pending, `◐` in
//! progress (shown by its `activeForm`, bold), `☑` completed (dimmed).
//!
//! It only draws; the list itself is the call's input, read by the tools
//! crate. Every task's text came from the model and is escaped.

use super::style::Palette;
use crate::terminal::neutralise;
use agenthub::crates::tools::builtin::{Todo, TodoStatus};

/// The checklist's lines, each indented under the call and ending in a newline.
pub(super) fn checklist(todos: &[Todo], palette: Palette) -> String {
    if todos.is_empty() {
        return format!("  {}\n", palette.dim("(no tasks)"));
    }
    todos
        .iter()
        .map(|todo| format!("  {}\n", task_line(todo, palette)))
        .collect()
}

fn task_line(todo: &Todo, palette: Palette) -> String {
    match todo.status {
        TodoStatus::Pending => format!("☐ {}", neutralise(&todo.content)),
        TodoStatus::InProgress => palette.bold(&format!("◐ {}", neutralise(&todo.active_form))),
        TodoStatus::Completed => palette.dim(&format!("☑ {}", neutralise(&todo.content))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn todo(content: &str, status: TodoStatus, active_form: &str) -> Todo {
        Todo {
            content: content.to_owned(),
            status,
            active_form: active_form.to_owned(),
        }
    }

    #[test]
    fn each_task_is_a_line_with_its_status_glyph_and_the_running_one_says_what_it_does() {
        let todos = [
            todo("Read the file", TodoStatus::Completed, "Reading the file"),
            todo("Fix the bug", TodoStatus::InProgress, "Fixing the bug"),
            todo("Run the tests", TodoStatus::Pending, "Running the tests"),
        ];
        assert_eq!(
            checklist(&todos, Palette::new(false)),
            "  ☑ Read the file\n  ◐ Fixing the bug\n  ☐ Run the tests\n"
        );
    }

    #[test]
    fn the_running_task_is_bold_and_a_completed_one_dim() {
        let todos = [
            todo("Read", TodoStatus::Completed, "Reading"),
            todo("Fix", TodoStatus::InProgress, "Fixing"),
        ];
        assert_eq!(
            checklist(&todos, Palette::new(true)),
            "  \x1b[2m☑ Read\x1b[0m\n  \x1b[1m◐ Fixing\x1b[0m\n"
        );
    }

    #[test]
    fn control_characters_in_a_task_are_escaped_and_an_empty_list_says_so() {
        let escaped = checklist(
            &[todo("a\x1b[2Jb", TodoStatus::Pending, "x")],
            Palette::new(false),
        );
        assert_eq!(
            [escaped, checklist(&[], Palette::new(false))],
            ["  ☐ a\\x1b[2Jb\n", "  (no tasks)\n"]
        );
    }
}
