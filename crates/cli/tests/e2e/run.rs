//! End-to-end tests of the real `agenthub run` binary: scripted model, a fresh
//! temporary workspace per test, one behaviour per test. Each asserts the
//! transcript's message records as whole values and the files on disk.

use crate::support;

use serde_json::{json, Value};
use support::{
    agenthub, assistant_calls_record, assistant_record, call, tool_record, user_record, Case,
};

/// A script of one tool call followed by a final answer that quotes its result.
fn one_call_script(case: &Case, name: &str, arguments: Value) {
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
    let result = "Error [unknown_tool]: the tool was not run: no tool is named \"Delete\"; available tools: Read, Write, Edit, Bash, Glob, Grep, Echo, Task";
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

#[test]
fn a_malformed_script_exits_2_naming_the_file_and_the_json_path() {
    let case = Case::new();
    case.script_text(r#"{"turns": [{"tool_calls": [{"id": "c1", "arguments": {}}]}]}"#);
    case.run().assert().code(2).stdout("").stderr(format!(
        "agenthub: malformed script {} at $.turns[0].tool_calls[0]: missing field `name` at line 1 column 56\n",
        case.script_path().display()
    ));
    assert!(!case.transcript_path().exists());
}

#[test]
fn a_script_repeating_a_call_id_within_one_turn_exits_2_before_any_tool_runs() {
    let case = Case::new();
    case.script(json!([
        {"content": "writing", "tool_calls": [
            call("c1", "Write", json!({"file_path": "a.txt", "content": "a"})),
            call("c1", "Write", json!({"file_path": "b.txt", "content": "b"}))]},
        {"content": "done"}
    ]));
    case.run().assert().code(2).stdout("").stderr(format!(
        "agenthub: malformed script {} at $.turns[0].tool_calls[1].id: the id \"c1\" is already used by an earlier call of this turn; each call of a turn needs its own id\n",
        case.script_path().display()
    ));
    assert_eq!(
        (
            case.workspace().join("a.txt").exists(),
            case.transcript_path().exists()
        ),
        (false, false)
    );
}

#[test]
fn a_missing_script_exits_2_naming_the_file() {
    let case = Case::new();
    case.run().assert().code(2).stdout("").stderr(format!(
        "agenthub: cannot read script {}: No such file or directory (os error 2)\n",
        case.script_path().display()
    ));
    assert!(!case.transcript_path().exists());
}

#[test]
fn a_workspace_that_does_not_exist_is_created_and_stderr_says_so() {
    let case = Case::new();
    case.script(json!([{"content": "hi"}]));
    let missing = case.workspace().join("new/nested");
    support::base_run_command(&case.script_path(), &missing, &case.transcript_path())
        .assert()
        .code(0)
        .stdout("hi\n")
        .stderr(format!(
            "agenthub: created the workspace folder {}\n",
            missing.display()
        ));
    assert!(missing.is_dir());
}

#[test]
fn a_workspace_that_is_a_file_exits_2_naming_it() {
    let case = Case::new();
    case.script(json!([{"content": "hi"}]));
    let file = case.workspace().join("file.txt");
    std::fs::write(&file, "").unwrap();
    support::base_run_command(&case.script_path(), &file, &case.transcript_path())
        .assert()
        .code(2)
        .stdout("")
        .stderr(format!(
            "agenthub: workspace {} is not a directory\n",
            file.display()
        ));
    assert!(!case.transcript_path().exists());
}

#[test]
fn an_unknown_flag_exits_2_naming_it() {
    let output = agenthub().args(["run", "--bogus"]).assert().code(2);
    let stderr = String::from_utf8_lossy(&output.get_output().stderr).into_owned();
    assert_eq!(
        stderr.lines().next(),
        Some("error: unexpected argument '--bogus' found")
    );
}

#[test]
fn json_output_is_one_object_with_status_result_error_turns_session_transcript_usage_and_denials() {
    let case = Case::new();
    case.script(json!([{"content": "all done"}]));
    let output = case
        .run()
        .arg("--output-format")
        .arg("json")
        .assert()
        .code(0);
    let printed: Value = serde_json::from_slice(&output.get_output().stdout).unwrap();
    let session_id = printed["session_id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert_eq!(session_id.len(), 36, "session_id is a UUID: {printed}");
    let duration_ms = printed["duration_ms"].clone();
    assert!(duration_ms.is_u64(), "duration_ms is a number: {printed}");
    assert_eq!(
        printed,
        json!({"status": "completed", "result": "all done", "error": null, "turns": 1,
               "session_id": session_id,
               "transcript_path": case.transcript_path().display().to_string(),
               "usage": {"input_tokens": 0, "output_tokens": 0, "cache_read_tokens": 0,
                         "cache_creation_tokens": 0},
               "num_turns": 1, "duration_ms": duration_ms, "permission_denials": [],
               "total_cost_usd": null})
    );
    assert_eq!(
        case.messages(),
        vec![user_record(), assistant_record("all done")]
    );
}

#[test]
fn every_shipped_example_completes_in_a_fresh_workspace() {
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut scripts: Vec<_> = std::fs::read_dir(&examples)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    scripts.sort();
    assert!(
        scripts.len() >= 3,
        "expected at least 3 examples in {examples:?}"
    );
    for script in scripts {
        let case = Case::new();
        support::base_run_command(&script, case.workspace(), &case.transcript_path())
            .assert()
            .code(0);
        let outcome = case.outcome();
        assert_eq!(
            (outcome["status"].clone(), outcome["error"].clone()),
            (json!("completed"), Value::Null),
            "example {script:?}"
        );
    }
}

#[test]
fn a_scripted_run_without_a_prompt_uses_the_prompt_the_script_carries() {
    let case = Case::new();
    case.script_text(r#"{"prompt": "say hi", "turns": [{"content": "hi"}]}"#);
    agenthub()
        .arg("run")
        .arg("--script")
        .arg(case.script_path())
        .arg("--workspace")
        .arg(case.workspace())
        .arg("--transcript")
        .arg(case.transcript_path())
        .assert()
        .code(0)
        .stdout("hi\n");
    assert_eq!(
        case.messages(),
        vec![
            json!({"type": "message", "message": {"role": "user", "content": "say hi"}}),
            assistant_record("hi")
        ]
    );
}

/// Runs `case` with `--output-format FORMAT` and a stdout whose reader is
/// gone before the run starts (`agenthub run ... | head -0`); returns the exit
/// code and stderr.
fn run_with_closed_stdout(case: &Case, format: &str) -> (Option<i32>, String) {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("agenthub"))
        .args(["run", "--output-format", format, "--script"])
        .arg(case.script_path())
        .arg("--workspace")
        .arg(case.workspace())
        .arg("--transcript")
        .arg(case.transcript_path())
        .arg(support::PROMPT)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("agenthub starts");
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("agenthub ends");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_reader_that_closed_stdout_does_not_make_the_run_panic() {
    // The answer cannot be printed, which must neither panic nor change the
    // exit code of the run.
    let case = Case::new();
    case.script(json!([{"content": "all done"}]));
    assert_eq!(
        run_with_closed_stdout(&case, "json"),
        (Some(0), String::new())
    );
}

#[test]
fn stream_json_whose_reader_went_away_still_runs_the_tools() {
    // The display is gone, but the transcript file, the real audit, is
    // intact, so calls still run.
    let case = Case::new();
    one_call_script(&case, "Echo", json!({"text": "hi"}));
    let (code, _) = run_with_closed_stdout(&case, "stream-json");
    assert_eq!(
        (code, case.messages()[2].clone()),
        (Some(0), tool_record("call_1", "hi"))
    );
}

#[test]
fn stream_json_prints_the_transcripts_own_lines_ids_included() {
    let case = Case::new();
    one_call_script(&case, "Echo", json!({"text": "hi"}));
    let output = case
        .run()
        .arg("--output-format")
        .arg("stream-json")
        .output()
        .unwrap();
    let printed: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let types: Vec<&str> = printed
        .iter()
        .map(|line| line["type"].as_str().unwrap())
        .collect();
    assert_eq!(
        (output.status.code(), &printed, types),
        (
            Some(0),
            &case.records(),
            vec![
                "session",
                "system",
                "user",
                "assistant",
                "permission",
                "user",
                "assistant",
                "outcome"
            ]
        )
    );
}
