//! What every built-in tool declares about its input, read back from its
//! registered definition: the declaration policy, hooks and previews use.

use crate::{PathField, ToolCapabilities, ToolKind, ToolRegistry};

fn declared(tool: &str) -> ToolCapabilities {
    let registry = ToolRegistry::with_builtins().unwrap();
    registry.get(tool).unwrap().capabilities().clone()
}

#[test]
fn read_reads_its_file_path_from_its_offset_line() {
    assert_eq!(
        declared("Read"),
        ToolCapabilities {
            reads: vec![PathField {
                field: "file_path",
                default: None
            }],
            writes: vec![],
            shell_command: None,
            unsandboxed_flag: None,
            subagent_field: None,
            skill_field: None,
            concurrent: false,
            url_field: None,
            output_cap: None,
            line_field: Some("offset"),
        }
    );
}

#[test]
fn write_and_edit_write_their_file_path() {
    let writes_file_path = ToolCapabilities {
        reads: vec![],
        writes: vec![PathField {
            field: "file_path",
            default: None,
        }],
        shell_command: None,
        unsandboxed_flag: None,
        subagent_field: None,
        skill_field: None,
        concurrent: false,
        url_field: None,
        output_cap: None,
        line_field: None,
    };
    assert_eq!(
        (declared("Write"), declared("Edit")),
        (writes_file_path.clone(), writes_file_path)
    );
}

#[test]
fn glob_and_grep_read_their_path_which_defaults_to_the_workspace_root() {
    let reads_path = ToolCapabilities {
        reads: vec![PathField {
            field: "path",
            default: Some("."),
        }],
        writes: vec![],
        shell_command: None,
        unsandboxed_flag: None,
        subagent_field: None,
        skill_field: None,
        concurrent: false,
        url_field: None,
        output_cap: None,
        line_field: None,
    };
    assert_eq!(
        (declared("Glob"), declared("Grep")),
        (reads_path.clone(), reads_path)
    );
}

#[test]
fn bash_runs_its_command_field() {
    assert_eq!(
        declared("Bash"),
        ToolCapabilities {
            reads: vec![],
            writes: vec![],
            shell_command: Some("command"),
            unsandboxed_flag: Some("dangerouslyDisableSandbox"),
            subagent_field: None,
            skill_field: None,
            concurrent: false,
            url_field: None,
            output_cap: None,
            line_field: None,
        }
    );
}

#[test]
fn echo_declares_nothing() {
    assert_eq!(declared("Echo"), ToolCapabilities::none());
}

#[test]
fn every_built_in_tool_shows_as_its_kind_of_action() {
    let registry = ToolRegistry::with_builtins().unwrap();
    let kinds: Vec<(&str, ToolKind)> = registry
        .iter()
        .map(|tool| (tool.name(), tool.kind()))
        .collect();
    assert_eq!(
        kinds,
        vec![
            ("Read", ToolKind::Read),
            ("Write", ToolKind::Edit),
            ("Edit", ToolKind::Edit),
            ("Bash", ToolKind::Execute),
            ("Glob", ToolKind::Search),
            ("Grep", ToolKind::Search),
            ("TodoWrite", ToolKind::Think),
            ("WebFetch", ToolKind::Fetch),
            ("Echo", ToolKind::Other),
        ]
    );
}
