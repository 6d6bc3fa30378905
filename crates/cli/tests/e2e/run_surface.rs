//! `agenthub run`'s command line through the real binary: a malformed or
//! missing script and a bad workspace exit 2 naming what is wrong, an unknown
//! flag is refused, the JSON object and stream-json output, the shipped
//! examples, and a reader that closes stdout early. The tool calls of a run
//! are `run.rs`.

use crate::support;

use crate::run::one_call_script;
use serde_json::{json, Value};
use support::{agenthub, assistant_record, call, tool_record, user_record, Case};

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
fn json_output_is_claude_codes_result_message_with_agenthubs_keys_beside_it() {
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
    let duration_api_ms = printed["duration_api_ms"].clone();
    assert!(
        duration_ms.is_u64() && duration_api_ms.is_u64(),
        "the durations are numbers: {printed}"
    );
    assert_eq!(
        printed,
        json!({"type": "result", "subtype": "success", "is_error": false,
               "status": "completed", "result": "all done", "error": null, "turns": 1,
               "session_id": session_id,
               "transcript_path": case.transcript_path().display().to_string(),
               "usage": {"input_tokens": 0, "output_tokens": 0, "cache_read_tokens": 0,
                         "cache_creation_tokens": 0, "cache_read_input_tokens": 0,
                         "cache_creation_input_tokens": 0},
               "num_turns": 1, "duration_ms": duration_ms, "duration_api_ms": duration_api_ms,
               "permission_denials": [], "total_cost_usd": null})
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
