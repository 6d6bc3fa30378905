//! The terminal approver's pieces, without a terminal: the question, the
//! diff, and how answers are read.

use super::*;
use agenthub::crates::tools::builtin::{Bash, Echo, Edit, Write as WriteTool};
use agenthub::PermissionEffect;
use agenthub::Source;
use agenthub::Tool;
use serde_json::json;

fn definition(tool: impl Tool) -> ToolDefinition {
    ToolDefinition::new(tool).unwrap()
}

/// The diff shown for the change `tool`'s preview computes.
fn previewed_diff(tool: impl Tool, input: &Value, workspace: &Workspace) -> String {
    let change = definition(tool).preview(input, workspace).unwrap().unwrap();
    diff(&change, workspace)
}

fn decision() -> Decision {
    Decision::new(
        PermissionEffect::Ask,
        Source::Default,
        "Write asks by default",
    )
}

#[test]
fn a_bash_question_shows_the_exact_command() {
    let workspace = Workspace::new("/w/proj");
    let input = json!({"command": "git push origin main"});
    let decision = Decision::new(
        PermissionEffect::Ask,
        Source::Default,
        "Bash asks by default",
    );
    assert_eq!(
        question(&definition(Bash), &input, &decision, &workspace),
        "\n[Permission] Bash needs approval (default): Bash asks by default\n  command: git push origin main\n"
    );
}

#[test]
fn an_unsandboxed_bash_question_says_the_command_runs_unsandboxed() {
    let workspace = Workspace::new("/w/proj");
    let input = json!({"command": "curl example.org", "dangerouslyDisableSandbox": true});
    let decision = Decision::new(PermissionEffect::Ask, Source::Sandbox, "leaves the sandbox");
    assert_eq!(
        question(&definition(Bash), &input, &decision, &workspace),
        "\n[Permission] Bash needs approval (sandbox): leaves the sandbox\n  command: curl example.org\n  \
         sandbox: OFF (dangerouslyDisableSandbox): the command runs unsandboxed\n"
    );
}

#[test]
fn a_command_with_control_characters_is_flagged_under_its_line() {
    let workspace = Workspace::new("/w/proj");
    let input = json!({"command": "touch x # \r\u{1b}[2K"});
    let decision = Decision::new(PermissionEffect::Ask, Source::Default, "asks");
    assert_eq!(
        question(&definition(Bash), &input, &decision, &workspace),
        "\n[Permission] Bash needs approval (default): asks\n  command: touch x # \r\u{1b}[2K\n  \
         (the command holds control characters, shown escaped as \\xNN)\n"
    );
}

#[test]
fn a_write_question_shows_the_path_and_a_diff() {
    let dir = tempfile::TempDir::new().unwrap();
    std::fs::write(dir.path().join("a.txt"), "one\ntwo\n").unwrap();
    let workspace = Workspace::new(dir.path());
    let input = json!({"file_path": "a.txt", "content": "one\nthree\n"});
    assert_eq!(
        question(&definition(WriteTool), &input, &decision(), &workspace),
        format!(
            "\n[Permission] Write needs approval (default): Write asks by default\n  path: {}\n  --- a.txt\n  +++ a.txt\n  @@ -1,2 +1,2 @@\n   one\n  -two\n  +three\n",
            dir.path().join("a.txt").display()
        )
    );
}

#[test]
fn an_edit_diff_applies_the_replacement() {
    let dir = tempfile::TempDir::new().unwrap();
    std::fs::write(dir.path().join("a.rs"), "let x = 1;\n").unwrap();
    let workspace = Workspace::new(dir.path());
    let input = json!({"file_path": "a.rs", "old_string": "1", "new_string": "2"});
    assert_eq!(
        previewed_diff(Edit, &input, &workspace),
        "  --- a.rs\n  +++ a.rs\n  @@ -1 +1 @@\n  -let x = 1;\n  +let x = 2;\n"
    );
}

#[test]
fn a_long_diff_is_shortened() {
    let dir = tempfile::TempDir::new().unwrap();
    let workspace = Workspace::new(dir.path());
    let content: String = (0..100).map(|n| format!("line {n}\n")).collect();
    let input = json!({"file_path": "new.txt", "content": content});
    let diff = previewed_diff(WriteTool, &input, &workspace);
    assert_eq!(diff.lines().count(), MAX_DIFF_LINES + 1);
    assert_eq!(diff.lines().last(), Some("  ... 63 more diff lines"));
}

#[test]
fn an_edit_question_whose_old_string_is_missing_shows_the_refusal_the_tool_gives() {
    let dir = tempfile::TempDir::new().unwrap();
    std::fs::write(dir.path().join("a.rs"), "let x = 1;\n").unwrap();
    let workspace = Workspace::new(dir.path());
    let input = json!({"file_path": "a.rs", "old_string": "y", "new_string": "z"});
    let path = dir.path().join("a.rs");
    assert_eq!(
        question(&definition(Edit), &input, &decision(), &workspace),
        format!(
            "\n[Permission] Edit needs approval (default): Write asks by default\n  path: {path}\n  Edit would refuse this call: old_string was not found in {path}; it must match the file exactly, including whitespace and indentation (use Read to see the current text)\n",
            path = path.display()
        )
    );
}

#[test]
fn a_question_about_a_tool_that_declares_nothing_shows_its_input() {
    let workspace = Workspace::new("/w/proj");
    let input = json!({"text": "hi"});
    assert_eq!(
        question(&definition(Echo), &input, &decision(), &workspace),
        "\n[Permission] Echo needs approval (default): Write asks by default\n  input: {\"text\":\"hi\"}\n"
    );
}
