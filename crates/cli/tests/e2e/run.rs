//! End-to-end tests of the real `agenthub run` binary: scripted model, a fresh
//! temporary workspace per test, one behaviour per test. Each asserts the
//! transcript's message records as whole values and the files on disk.

use crate::support;

use serde_json::{json, Value};
use support::{assistant_calls_record, assistant_record, call, tool_record, user_record, Case};

/// A script of one tool call followed by a final answer that quotes its result.
pub(super) fn one_call_script(case: &Case, name: &str, arguments: Value) {
    case.script(json!([
        {"content": "working", "tool_calls": [call("call_1", name, arguments)]},
        {"content": "Result: {{last_tool_result}}"}
    ]));
}

/// Runs `case`, expects exit 0, and returns the message records.
fn completed_messages(case: &Case) -> Vec<Value> {
    case.run().assert().code(0);
    case.messages()
}

/// The four messages of a one-call run whose tool returned `result`.
fn one_call_transcript(name: &str, arguments: Value, result: &str) -> Vec<Value> {
    vec![
        user_record(),
        assistant_calls_record("working", &[("call_1", name, arguments)]),
        tool_record("call_1", result),
        assistant_record(&format!("Result: {result}")),
    ]
}

#[test]
fn read_returns_numbered_lines_and_the_answer_quotes_them() {
    let case = Case::new();
    case.write("notes.txt", "alpha\nbeta\n");
    let arguments = json!({"file_path": "notes.txt"});
    one_call_script(&case, "Read", arguments.clone());
    let result = "     1\talpha\n     2\tbeta\n";
    case.run()
        .assert()
        .code(0)
        .stdout(format!("Result: {result}\n"));
    assert_eq!(
        case.messages(),
        one_call_transcript("Read", arguments, result)
    );
    assert_eq!(case.read("notes.txt"), "alpha\nbeta\n");
}

#[test]
fn write_creates_the_file_with_its_parent_folders() {
    let case = Case::new();
    let arguments = json!({"file_path": "out/new.txt", "content": "fresh\n"});
    one_call_script(&case, "Write", arguments.clone());
    let result = format!("Wrote 6 bytes to {}", case.path("out/new.txt"));
    assert_eq!(
        completed_messages(&case),
        one_call_transcript("Write", arguments, &result)
    );
    assert_eq!(case.read("out/new.txt"), "fresh\n");
}

#[test]
fn edit_replaces_the_single_match() {
    let case = Case::new();
    case.write("main.rs", "let x = 1;\nlet y = 2;\n");
    let arguments = json!({"file_path": "main.rs", "old_string": "x = 1", "new_string": "x = 42"});
    one_call_script(&case, "Edit", arguments.clone());
    let result = format!("Replaced 1 occurrence in {}", case.path("main.rs"));
    assert_eq!(
        completed_messages(&case),
        one_call_transcript("Edit", arguments, &result)
    );
    assert_eq!(case.read("main.rs"), "let x = 42;\nlet y = 2;\n");
}

#[test]
fn bash_reports_a_non_zero_exit_code_as_a_failure_with_stdout_and_stderr() {
    let case = Case::new();
    let arguments = json!({"command": "echo made > made.txt; echo done; echo warn >&2; exit 4"});
    one_call_script(&case, "Bash", arguments.clone());
    let result = "Error [tool_error]: Exit code 4\ndone\n[stderr]\nwarn";
    assert_eq!(
        completed_messages(&case),
        one_call_transcript("Bash", arguments, result)
    );
    assert_eq!(case.read("made.txt"), "made\n");
}

#[test]
fn bash_timeout_is_a_tool_error() {
    let case = Case::new();
    let arguments = json!({"command": "sleep 5", "timeout": 200});
    one_call_script(&case, "Bash", arguments.clone());
    let result = "Error [tool_error]: the command timed out after 200 ms; it was killed with every process it started";
    assert_eq!(
        completed_messages(&case),
        one_call_transcript("Bash", arguments, result)
    );
}

#[test]
fn glob_lists_matching_files_newest_first_skipping_gitignored_ones() {
    let case = Case::new();
    case.write(".gitignore", "target/\n");
    case.write("target/gen.rs", "");
    case.write("old.rs", "");
    case.write("src/new.rs", "");
    case.write("readme.md", "");
    let aged = |rel: &str, secs: u64| {
        let file = std::fs::File::options()
            .write(true)
            .open(case.workspace().join(rel))
            .unwrap();
        let time = std::time::SystemTime::now() - std::time::Duration::from_secs(secs);
        file.set_modified(time).unwrap();
    };
    aged("old.rs", 600);
    aged("src/new.rs", 60);
    let arguments = json!({"pattern": "**/*.rs"});
    one_call_script(&case, "Glob", arguments.clone());
    let result = format!("{}\n{}", case.path("src/new.rs"), case.path("old.rs"));
    assert_eq!(
        completed_messages(&case),
        one_call_transcript("Glob", arguments, &result)
    );
}

#[test]
fn grep_in_content_mode_shows_matching_lines_with_numbers() {
    let case = Case::new();
    case.write("a.rs", "fn main() {}\n// TODO: tests\n");
    case.write("b.rs", "// todo later\n");
    case.write("c.txt", "TODO: not a rust file\n");
    let arguments =
        json!({"pattern": "todo", "-i": true, "glob": "*.rs", "output_mode": "content"});
    one_call_script(&case, "Grep", arguments.clone());
    let result = format!(
        "{}:2:// TODO: tests\n{}:1:// todo later",
        case.path("a.rs"),
        case.path("b.rs")
    );
    assert_eq!(
        completed_messages(&case),
        one_call_transcript("Grep", arguments, &result)
    );
}

#[test]
fn an_unknown_tool_is_answered_with_unknown_tool_and_the_run_goes_on() {
    let case = Case::new();
    let arguments = json!({"path": "x"});
    one_call_script(&case, "Delete", arguments.clone());
    let result = "Error [unknown_tool]: the tool was not run: no tool is named \"Delete\"; available tools: Read, Write, Edit, Bash, Glob, Grep, TodoWrite, WebFetch, Echo, Task";
    assert_eq!(
        completed_messages(&case),
        one_call_transcript("Delete", arguments, result)
    );
}

#[test]
fn arguments_that_are_not_json_are_answered_with_invalid_arguments() {
    let case = Case::new();
    let arguments = json!("{\"file_path\": ");
    one_call_script(&case, "Write", arguments.clone());
    let result = "Error [invalid_arguments]: the tool was not run: the arguments are not valid JSON (EOF while parsing a value at line 1 column 14); expected a JSON object";
    assert_eq!(
        completed_messages(&case),
        one_call_transcript("Write", arguments, result)
    );
    assert_eq!(std::fs::read_dir(case.workspace()).unwrap().count(), 0);
}

#[test]
fn arguments_that_break_the_schema_name_the_json_path_and_the_expectation() {
    let case = Case::new();
    let arguments = json!({"file_path": 5, "content": "x"});
    one_call_script(&case, "Write", arguments.clone());
    let result = "Error [invalid_arguments]: the tool was not run: the arguments of Write do not match its schema: at /file_path: 5 is not of type \"string\"";
    assert_eq!(
        completed_messages(&case),
        one_call_transcript("Write", arguments, result)
    );
    assert_eq!(std::fs::read_dir(case.workspace()).unwrap().count(), 0);
}

#[test]
fn two_calls_in_one_message_run_in_order_and_are_answered_in_call_order() {
    let case = Case::new();
    let write = json!({"file_path": "a.txt", "content": "first"});
    let read = json!({"file_path": "a.txt"});
    case.script(json!([
        {"content": "both", "tool_calls": [call("w", "Write", write.clone()), call("r", "Read", read.clone())]},
        {"content": "done"}
    ]));
    let written = format!("Wrote 5 bytes to {}", case.path("a.txt"));
    assert_eq!(
        completed_messages(&case),
        vec![
            user_record(),
            assistant_calls_record("both", &[("w", "Write", write), ("r", "Read", read)]),
            tool_record("w", &written),
            tool_record("r", "     1\tfirst\n"),
            assistant_record("done"),
        ]
    );
    assert_eq!(case.read("a.txt"), "first");
}

#[test]
fn max_turns_ends_the_run_with_exit_1_and_status_max_turns() {
    let case = Case::new();
    let arguments = json!({"text": "again"});
    case.script(json!([
        {"content": "looping", "tool_calls": [call("call_1", "Echo", arguments.clone())]},
        {"content": "never reached"}
    ]));
    case.run().arg("--max-turns").arg("1").assert().code(1);
    assert_eq!(
        case.messages(),
        vec![
            user_record(),
            assistant_calls_record("looping", &[("call_1", "Echo", arguments)]),
            tool_record("call_1", "again"),
        ]
    );
    assert_eq!(
        case.outcome(),
        json!({"type": "outcome", "status": "max_turns", "result": "looping",
               "error": "the run reached max_turns (1) without a final answer", "turns": 1})
    );
}

#[test]
fn a_script_that_runs_out_of_turns_fails_the_run_with_exit_1() {
    let case = Case::new();
    let arguments = json!({"text": "hi"});
    case.script(json!([
        {"content": "echoing", "tool_calls": [call("call_1", "Echo", arguments.clone())]}
    ]));
    case.run().assert().code(1);
    assert_eq!(
        case.messages(),
        vec![
            user_record(),
            assistant_calls_record("echoing", &[("call_1", "Echo", arguments)]),
            tool_record("call_1", "hi"),
        ]
    );
    let error = format!(
        "model request failed: the script {} has no turn left for model request 2 (it has 1 turns)",
        case.script_path().display()
    );
    assert_eq!(
        case.outcome(),
        json!({"type": "outcome", "status": "failed", "result": null, "error": error, "turns": 2})
    );
}
