//! What a call of each built-in tool shows the editor, in a real workspace.

use super::*;
use serde_json::json;
use std::path::{Path, PathBuf};

struct Case {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Case {
    fn new() -> Case {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        Case { _dir: dir, root }
    }

    fn tools(&self) -> ToolsByName {
        self.tools_in(Workspace::new(&self.root))
    }

    fn tools_in(&self, workspace: Workspace) -> ToolsByName {
        ToolsByName::new(&ToolRegistry::with_builtins().unwrap(), &workspace)
    }

    fn write(&self, name: &str, text: &str) {
        std::fs::write(self.root.join(name), text).unwrap();
    }
}

fn location(path: PathBuf, line: Option<u32>) -> ToolCallLocation {
    ToolCallLocation { path, line }
}

#[test]
fn a_read_shows_its_absolute_path_at_its_offset_line() {
    let case = Case::new();
    let shown = case.tools().shown(
        "Read",
        &json!({"file_path": "src/../notes.txt", "offset": 40}),
        Changes::Previewed,
    );
    assert_eq!(
        shown,
        ShownCall {
            kind: ToolKind::Read,
            locations: vec![location(case.root.join("notes.txt"), Some(40))],
            content: vec![],
        }
    );
}

#[test]
fn a_write_of_a_new_file_shows_a_diff_from_nothing() {
    let case = Case::new();
    let shown = case.tools().shown(
        "Write",
        &json!({"file_path": "new.txt", "content": "fresh\n"}),
        Changes::Previewed,
    );
    let path = case.root.join("new.txt");
    assert_eq!(
        shown,
        ShownCall {
            kind: ToolKind::Edit,
            locations: vec![location(path.clone(), None)],
            content: vec![ToolCallContent::Diff {
                path,
                old_text: None,
                new_text: "fresh\n".to_owned()
            }],
        }
    );
}

#[test]
fn an_edit_shows_the_whole_file_before_and_after_the_edit() {
    let case = Case::new();
    case.write("a.rs", "fn a() {}\nfn b() {}\n");
    let shown = case.tools().shown(
        "Edit",
        &json!({"file_path": case.root.join("a.rs"), "old_string": "fn b", "new_string": "fn c"}),
        Changes::Previewed,
    );
    assert_eq!(
        shown.content,
        vec![ToolCallContent::Diff {
            path: case.root.join("a.rs"),
            old_text: Some("fn a() {}\nfn b() {}\n".to_owned()),
            new_text: "fn a() {}\nfn c() {}\n".to_owned()
        }]
    );
}

#[test]
fn an_edit_the_tool_would_refuse_shows_no_diff() {
    let case = Case::new();
    case.write("a.rs", "fn a() {}\n");
    let shown = case.tools().shown(
        "Edit",
        &json!({"file_path": "a.rs", "old_string": "missing", "new_string": "x"}),
        Changes::Previewed,
    );
    assert_eq!((shown.kind, shown.content), (ToolKind::Edit, Vec::new()));
}

#[test]
fn a_write_over_a_file_the_read_rules_hide_shows_no_diff_rather_than_a_new_file() {
    let case = Case::new();
    case.write(".env", "SECRET=1\n");
    let hidden: agenthub::crates::tools::ReadGuard =
        Arc::new(|path: &Path| !path.ends_with(".env"));
    let tools = case.tools_in(Workspace::new(&case.root).with_read_guard(hidden));
    let shown = tools.shown(
        "Write",
        &json!({"file_path": ".env", "content": "SECRET=2\n"}),
        Changes::Previewed,
    );
    assert_eq!(shown.content, Vec::new());
}

#[test]
fn a_change_too_long_for_an_editor_shows_no_diff_but_its_file() {
    let case = Case::new();
    let content = "x".repeat(MAX_DIFF_BYTES + 1);
    let shown = case.tools().shown(
        "Write",
        &json!({"file_path": "big.txt", "content": content}),
        Changes::Previewed,
    );
    assert_eq!(
        (shown.locations, shown.content),
        (vec![location(case.root.join("big.txt"), None)], Vec::new())
    );
}

#[test]
fn a_replayed_call_shows_no_diff() {
    let case = Case::new();
    let shown = case.tools().shown(
        "Write",
        &json!({"file_path": "new.txt", "content": "fresh\n"}),
        Changes::Omitted,
    );
    assert_eq!(shown.content, Vec::new());
}

#[test]
fn a_shell_command_shows_as_a_code_block_and_touches_no_known_file() {
    let case = Case::new();
    let shown = case.tools().shown(
        "Bash",
        &json!({"command": "cargo test"}),
        Changes::Previewed,
    );
    assert_eq!(
        shown,
        ShownCall {
            kind: ToolKind::Execute,
            locations: vec![],
            content: vec![ToolCallContent::text("```sh\ncargo test\n```")],
        }
    );
}

#[test]
fn a_search_shows_the_folder_it_searches_the_workspace_by_default() {
    let case = Case::new();
    let tools = case.tools();
    assert_eq!(
        (
            tools.shown("Grep", &json!({"pattern": "fn"}), Changes::Previewed),
            tools
                .shown(
                    "Glob",
                    &json!({"pattern": "*.rs", "path": "src"}),
                    Changes::Previewed
                )
                .locations,
        ),
        (
            ShownCall {
                kind: ToolKind::Search,
                locations: vec![location(case.root.clone(), None)],
                content: vec![],
            },
            vec![location(case.root.join("src"), None)],
        )
    );
}

#[test]
fn a_tool_the_session_does_not_have_is_other() {
    let case = Case::new();
    assert_eq!(
        case.tools()
            .shown("mcp__gone__tool", &json!({}), Changes::Previewed),
        ShownCall {
            kind: ToolKind::Other,
            locations: vec![],
            content: vec![],
        }
    );
}

#[test]
fn a_command_block_is_fenced_longer_than_any_backticks_in_the_command() {
    assert_eq!(
        (command_block("echo `date`"), command_block("printf '````'")),
        (
            "```sh\necho `date`\n```".to_owned(),
            "`````sh\nprintf '````'\n`````".to_owned()
        )
    );
}
