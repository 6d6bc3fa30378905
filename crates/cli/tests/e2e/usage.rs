//! What a headless caller learns from `--output-format json` (contract §12,
//! "Usage" and "Headless asks"): the tokens a provider reported, summed over
//! the run's requests, and the calls permission refused, with how to allow an
//! ask nobody could answer — also said on stderr.

use crate::support;
use crate::support::provider_wire;

use provider_wire::{finish, openai_chunk, run_against, sse, turn};
use serde_json::{json, Value};
use support::{agenthub, call, tool_record, Case, PROMPT};
use wiremock::MockServer;

/// `printed` with its `duration_ms` and `duration_api_ms` checked to be
/// numbers, then removed, and its `session_id` checked to be a UUID, then removed.
fn without_varying_fields(mut printed: Value) -> Value {
    let object = printed.as_object_mut().unwrap();
    for key in ["duration_ms", "duration_api_ms"] {
        let duration = object.remove(key).unwrap_or_default();
        assert!(duration.is_u64(), "{key} is a number: {duration}");
    }
    let session = object.remove("session_id").unwrap_or_default();
    assert_eq!(session.as_str().unwrap_or_default().len(), 36);
    printed
}

fn records_of(case: &Case, kind: &str) -> Vec<Value> {
    case.records()
        .into_iter()
        .filter(|record| record["type"] == kind)
        .collect()
}

/// A run of `case` against a local OpenAI-compatible provider that reports
/// the usage of two requests: 120 + 15 tokens, then 160 (128 of them from
/// the cache) + 7.
async fn two_request_run(case: &Case) -> std::process::Output {
    let server = MockServer::start().await;
    let route = "/v1/chat/completions";
    let call = json!({"tool_calls": [{"index": 0, "id": "call_glob", "type": "function",
                      "function": {"name": "Glob", "arguments": "{\"pattern\":\"*.md\"}"}}]});
    turn(
        &server,
        route,
        PROMPT,
        2,
        sse(&[
            openai_chunk(call, None),
            openai_chunk(json!({}), Some("tool_calls")),
            r#"data: {"choices":[],"usage":{"prompt_tokens":120,"completion_tokens":15,"total_tokens":135}}"#.to_owned(),
            "data: [DONE]".to_owned(),
        ]),
    )
    .await;
    turn(
        &server,
        route,
        r#""tool_call_id":"call_glob""#,
        1,
        sse(&[
            openai_chunk(json!({"content": "echoed"}), None),
            openai_chunk(json!({}), Some("stop")),
            r#"data: {"choices":[],"usage":{"prompt_tokens":160,"completion_tokens":7,"total_tokens":167,"prompt_tokens_details":{"cached_tokens":128}}}"#.to_owned(),
            "data: [DONE]".to_owned(),
        ]),
    )
    .await;
    finish(run_against(
        case,
        &server,
        "local-model",
        &["--output-format", "json"],
    ))
    .await
}

#[tokio::test]
async fn json_output_sums_the_usage_a_local_provider_reports_over_two_requests() {
    let case = Case::new();
    let output = two_request_run(&case).await;
    let printed: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        (output.status.code(), without_varying_fields(printed)),
        (
            Some(0),
            json!({"type": "result", "subtype": "success", "is_error": false,
                   "status": "completed", "result": "echoed", "error": null, "turns": 2,
                   "transcript_path": case.transcript_path().display().to_string(),
                   "usage": {"input_tokens": 280, "output_tokens": 22, "cache_read_tokens": 128,
                             "cache_creation_tokens": 0, "cache_read_input_tokens": 128,
                             "cache_creation_input_tokens": 0},
                   "num_turns": 2, "permission_denials": [], "total_cost_usd": null})
        )
    );
    // Each assistant line carries its request's usage in Anthropic's shape
    // (contract §21): input without the cache reads, which are counted apart.
    assert_eq!(
        records_of(&case, "assistant")
            .iter()
            .map(|line| line["message"]["usage"].clone())
            .collect::<Vec<_>>(),
        vec![
            json!({"input_tokens": 120, "output_tokens": 15,
                   "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0}),
            json!({"input_tokens": 32, "output_tokens": 7,
                   "cache_read_input_tokens": 128, "cache_creation_input_tokens": 0}),
        ]
    );
}

#[test]
fn a_headless_bash_ask_is_denied_with_how_to_allow_it_on_stderr_and_in_permission_denials() {
    let case = Case::new();
    case.script(json!([
        {"content": "testing", "tool_calls": [
            call("call_1", "Bash", json!({"command": "npm test"})),
            call("call_2", "Echo", json!({"text": "hi"}))]},
        {"content": "could not test"}
    ]));
    let output = agenthub()
        .env("HOME", case.workspace().join(".."))
        .args(["run", "--output-format", "json", "--script"])
        .arg(case.script_path())
        .arg("--workspace")
        .arg(case.workspace())
        .arg("--transcript")
        .arg(case.transcript_path())
        .arg(PROMPT)
        .output()
        .unwrap();
    let printed: Value = serde_json::from_slice(&output.stdout).unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let hint =
        "Bash needs approval and no one can answer here: re-run with --allow 'Bash(npm test:*)'";
    let bash_lines: Vec<&str> = stderr
        .lines()
        .filter(|line| line.starts_with("[Permission] Bash"))
        .collect();
    assert_eq!(
        (
            output.status.code(),
            without_varying_fields(printed),
            bash_lines
        ),
        (
            Some(0),
            json!({"type": "result", "subtype": "success", "is_error": false,
                   "status": "completed", "result": "could not test", "error": null, "turns": 2,
                   "transcript_path": case.transcript_path().display().to_string(),
                   "usage": {"input_tokens": 0, "output_tokens": 0, "cache_read_tokens": 0,
                             "cache_creation_tokens": 0, "cache_read_input_tokens": 0,
                             "cache_creation_input_tokens": 0},
                   "num_turns": 2, "total_cost_usd": null,
                   "permission_denials": [{"tool_name": "Bash", "tool_use_id": "call_1",
                                           "tool_input": {"command": "npm test"},
                                           "reason": hint}]}),
            vec![
                "[Permission] Bash: ask (default) - `npm test` matches no allow rule; Bash asks by default",
                "[Permission] Bash: deny (approval) - approval required",
                &format!("[Permission] {hint}"),
            ]
        )
    );
    assert_eq!(
        case.messages()[2],
        tool_record(
            "call_1",
            "Error [permission_denied]: the tool was not run: permission denied: approval required"
        )
    );
}

/// ccusage's launcher (pinned in tests/npm); the test fails (never skips)
/// when it is missing.
fn ccusage() -> std::path::PathBuf {
    let launcher = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/npm/node_modules/.bin/ccusage");
    assert!(
        launcher.exists(),
        "{} is missing: run the tests with `scripts/test`, which installs it \
         (or `npm ci --prefix tests/npm` from the repository root)",
        launcher.display()
    );
    launcher
}

#[tokio::test]
async fn ccusage_reads_an_agenthub_transcript_and_reports_the_runs_own_token_totals() {
    ccusage_reports_the_runs_totals(&[]).await;
}

#[tokio::test]
async fn ccusage_reads_past_checkpoint_and_rewind_records() {
    ccusage_reports_the_runs_totals(&[
        json!({"type": "checkpoint", "id": "0123abcd", "prompt_index": 1}),
        json!({"type": "rewind", "prompt_index": 1, "scope": "both", "time": "2026-12-02T05:00:00Z"}),
    ])
    .await;
}

/// Runs two requests, adds `records` (with the session's id) to the
/// transcript, and checks that ccusage reports exactly the run's usage.
async fn ccusage_reports_the_runs_totals(records: &[Value]) {
    let case = Case::new();
    let output = two_request_run(&case).await;
    let printed: Value = serde_json::from_slice(&output.stdout).unwrap();
    let usage = &printed["usage"];
    // Laid out as Claude Code lays out its projects folder.
    let config = tempfile::tempdir().unwrap();
    let project = config.path().join("projects/-ws");
    std::fs::create_dir_all(&project).unwrap();
    let id = printed["session_id"].as_str().unwrap();
    let mut transcript = std::fs::read_to_string(case.transcript_path()).unwrap();
    for record in records {
        let mut record = record.clone();
        record["sessionId"] = json!(id);
        transcript.push_str(&format!("{record}\n"));
    }
    std::fs::write(project.join(format!("{id}.jsonl")), transcript).unwrap();
    let report = std::process::Command::new(ccusage())
        .args(["session", "--json", "--offline"])
        .env("CLAUDE_CONFIG_DIR", config.path())
        .output()
        .unwrap();
    assert!(report.status.success(), "{report:?}");
    let report: Value = serde_json::from_slice(&report.stdout).unwrap();
    let totals = &report["totals"];
    let input =
        totals["inputTokens"].as_u64().unwrap() + totals["cacheReadTokens"].as_u64().unwrap();
    assert_eq!(
        (
            input,
            &totals["outputTokens"],
            &totals["cacheReadTokens"],
            &report["session"][0]["period"]
        ),
        (
            usage["input_tokens"].as_u64().unwrap(),
            &usage["output_tokens"],
            &usage["cache_read_tokens"],
            &json!(id)
        )
    );
}
