//! Tool calls a server returns as text (SPEC §33), against a loopback
//! OpenAI-compatible server that answers as llama.cpp without `--jinja`,
//! llama-cpp-python and many Ollama templates do: under `--tool-protocol
//! auto` a call of an offered tool written as fenced JSON, bare JSON or in
//! `<tool_call>` tags runs through the pipeline and is marked
//! `parsed_from_text` on its transcript `tool_use` block; under `native` the
//! text stays the answer with a `[Warning]`; a call of a tool not offered is
//! never taken. `doctor --probe` reports servers of each kind.

use crate::support::provider_wire::{
    finish, openai_call, openai_text, run_against, run_with, turn, PROVIDER_VARIABLES,
};
use crate::support::{agenthub, Case, PROMPT};
use serde_json::{json, Value};
use wiremock::MockServer;

const ROUTE: &str = "/v1/chat/completions";
const NOTES: &str = "hello from notes\n";
const FENCED: &str = "I will read it.\n```json\n{\"name\": \"Read\", \"arguments\": {\"file_path\": \"notes.txt\"}}\n```";
const BARE: &str = r#"{"name": "Read", "arguments": {"file_path": "notes.txt"}}"#;
const TAGGED: &str =
    "<tool_call>\n{\"name\": \"Read\", \"arguments\": {\"file_path\": \"notes.txt\"}}\n</tool_call>";

/// Exit code, stdout, the `[Permission]` and `[Warning]` lines of stderr.
fn seen(output: &std::process::Output) -> (Option<i32>, String, Vec<String>) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    let lines = stderr
        .lines()
        .filter(|line| line.starts_with("[Permission]") || line.starts_with("[Warning]"))
        .map(|line| match line.strip_prefix("[Permission]") {
            Some(_) => line.split(" (").next().unwrap_or(line).to_owned(),
            None => line.to_owned(),
        })
        .collect();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        lines,
    )
}

/// The `tool_use` blocks of the transcript's assistant lines.
fn tool_uses(case: &Case) -> Vec<Value> {
    case.records()
        .into_iter()
        .filter(|record| record["type"] == "assistant")
        .flat_map(|record| {
            record["message"]["content"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .filter(|block| block["type"] == "tool_use")
        .collect()
}

/// A session whose first reply is `first` (text), answered by "Done." once
/// the result of `text_call_1` comes back.
async fn session(first: &str, protocol: &str) -> (Case, std::process::Output) {
    let case = Case::new();
    case.write("notes.txt", NOTES);
    let server = MockServer::start().await;
    turn(&server, ROUTE, PROMPT, 2, openai_text(&[first])).await;
    turn(
        &server,
        ROUTE,
        r#""tool_call_id":"text_call_1""#,
        1,
        openai_text(&["Done."]),
    )
    .await;
    let output = finish(run_against(
        &case,
        &server,
        "local-model",
        &["--tool-protocol", protocol],
    ))
    .await;
    (case, output)
}

fn read_taken_from_text() -> Vec<Value> {
    vec![
        json!({"type": "tool_use", "id": "text_call_1", "name": "Read",
                "input": {"file_path": "notes.txt"}, "parsed_from_text": true}),
    ]
}

#[tokio::test]
async fn auto_runs_a_call_written_in_a_json_fence() {
    let (case, output) = session(FENCED, "auto").await;
    assert_eq!(
        (seen(&output), tool_uses(&case)),
        (
            (
                Some(0),
                "I will read it.\nDone.\n".to_owned(),
                vec!["[Permission] Read: allow".to_owned()]
            ),
            read_taken_from_text()
        )
    );
}

#[tokio::test]
async fn auto_runs_a_call_written_as_bare_json() {
    let (case, output) = session(BARE, "auto").await;
    assert_eq!(
        (seen(&output), tool_uses(&case)),
        (
            (
                Some(0),
                "Done.\n".to_owned(),
                vec!["[Permission] Read: allow".to_owned()]
            ),
            read_taken_from_text()
        )
    );
}

#[tokio::test]
async fn auto_runs_a_call_in_tool_call_tags() {
    let (case, output) = session(TAGGED, "auto").await;
    assert_eq!(
        (seen(&output), tool_uses(&case)),
        (
            (
                Some(0),
                "Done.\n".to_owned(),
                vec!["[Permission] Read: allow".to_owned()]
            ),
            read_taken_from_text()
        )
    );
}

#[tokio::test]
async fn auto_leaves_a_text_call_of_a_tool_not_offered_as_the_answer() {
    let answer = r#"{"name": "total", "arguments": {"a": 1}}"#;
    let (case, output) = session(answer, "auto").await;
    assert_eq!(
        (seen(&output), tool_uses(&case)),
        ((Some(0), format!("{answer}\n"), vec![]), vec![])
    );
}

#[tokio::test]
async fn auto_takes_structured_calls_as_they_are() {
    let case = Case::new();
    case.write("notes.txt", NOTES);
    let server = MockServer::start().await;
    turn(
        &server,
        ROUTE,
        PROMPT,
        2,
        openai_call("call_read", "Read", r#"{"file_path":"notes.txt"}"#, None),
    )
    .await;
    turn(
        &server,
        ROUTE,
        r#""tool_call_id":"call_read""#,
        1,
        openai_text(&["Done."]),
    )
    .await;
    let output = finish(run_against(
        &case,
        &server,
        "m",
        &["--tool-protocol", "auto"],
    ))
    .await;
    assert_eq!(
        (seen(&output), tool_uses(&case)),
        (
            (
                Some(0),
                "Done.\n".to_owned(),
                vec!["[Permission] Read: allow".to_owned()]
            ),
            vec![
                json!({"type": "tool_use", "id": "call_read", "name": "Read",
                        "input": {"file_path": "notes.txt"}})
            ]
        )
    );
}

#[tokio::test]
async fn native_answers_with_a_call_written_as_text_and_warns_how_to_run_it() {
    let (case, output) = session(FENCED, "native").await;
    assert_eq!(
        (seen(&output), tool_uses(&case)),
        (
            (
                Some(0),
                format!("{FENCED}\n"),
                vec![
                    "[Warning] the server returned a call of \"Read\" as text, not as a tool \
                     call, so it was taken as the answer; to run such calls pass \
                     --tool-protocol auto (or react), or use a server that parses tool calls \
                     (e.g. llama.cpp with --jinja)"
                        .to_owned()
                ]
            ),
            vec![]
        )
    );
}

#[tokio::test]
async fn the_settings_key_tool_protocol_chooses_auto() {
    let case = Case::new();
    case.write("notes.txt", NOTES);
    let settings = case.workspace().join("../extra-settings.json");
    std::fs::write(&settings, r#"{"toolProtocol": "auto"}"#).unwrap();
    let settings = settings.display().to_string();
    let server = MockServer::start().await;
    turn(&server, ROUTE, PROMPT, 2, openai_text(&[BARE])).await;
    turn(
        &server,
        ROUTE,
        r#""tool_call_id":"text_call_1""#,
        1,
        openai_text(&["Done."]),
    )
    .await;
    let base_url = format!("{}/v1", server.uri());
    let flags = [
        "--model",
        "m",
        "--base-url",
        &base_url,
        "--settings",
        &settings,
    ];
    let output = finish(run_with(&case, &flags)).await;
    assert_eq!(
        (seen(&output).0, tool_uses(&case)),
        (Some(0), read_taken_from_text())
    );
}

// ------------------------------------------------------------ doctor --probe

/// `agenthub doctor --probe` against `server`, with `flags`; exit code and
/// the probe's lines, the timing lines reduced to their names.
async fn probe(server: &MockServer, flags: &[&str]) -> (Option<i32>, Vec<String>) {
    let home = tempfile::tempdir().unwrap();
    let mut command = agenthub();
    for variable in PROVIDER_VARIABLES {
        command.env_remove(variable);
    }
    command
        .env("HOME", home.path())
        .current_dir(home.path())
        .args(["doctor", "--probe", "--model", "local-model", "--base-url"])
        .arg(format!("{}/v1", server.uri()))
        .args(flags);
    let output = finish(command).await;
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let lines = stdout
        .lines()
        .filter(|line| line.contains("probe") || line.contains("tool calls"))
        .map(|line| match line {
            timed if timed.starts_with("probe   1st token") => "probe   1st token".to_owned(),
            timed if timed.starts_with("probe   speed") => "probe   speed".to_owned(),
            other => other.to_owned(),
        })
        .collect();
    (output.status.code(), lines)
}

fn probe_lines(server: &MockServer, calls: &str, max_tokens: &str) -> Vec<String> {
    vec![
        format!("probe   base URL   {}/v1", server.uri()),
        "probe   model      local-model".to_owned(),
        "probe   API key    not sent".to_owned(),
        "probe   streaming  yes".to_owned(),
        format!("probe   tool calls {calls}"),
        format!("probe   max_tokens {max_tokens}"),
        "probe   usage      yes".to_owned(),
        "probe   1st token".to_owned(),
        "probe   speed".to_owned(),
    ]
}

fn with_usage(mut events: Vec<String>) -> wiremock::ResponseTemplate {
    events.push(r#"data: {"choices":[],"usage":{"prompt_tokens":90,"completion_tokens":12,"total_tokens":102}}"#.to_owned());
    events.push("data: [DONE]".to_owned());
    crate::support::provider_wire::sse(&events)
}

#[tokio::test]
async fn probe_of_a_server_with_structured_calls_passes_every_protocol() {
    let server = MockServer::start().await;
    let call = crate::support::provider_wire::openai_chunk(
        json!({"tool_calls": [{"index": 0, "id": "c", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"notes.txt\"}"}}]}),
        Some("tool_calls"),
    );
    turn(&server, ROUTE, "read_file", 1, with_usage(vec![call])).await;
    let mut expected = probe_lines(
        &server,
        "structured (in the tool-call fields)",
        "honoured (12 of 16384 tokens), finish_reason tool_calls",
    );
    expected.push("ok      tool calls work with --tool-protocol native".to_owned());
    assert_eq!(probe(&server, &[]).await, (Some(0), expected));
}

#[tokio::test]
async fn probe_of_a_server_returning_calls_as_text_fails_native_and_names_auto() {
    let server = MockServer::start().await;
    let text = crate::support::provider_wire::openai_chunk(
        json!({"content": "```json\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"notes.txt\"}}\n```"}),
        Some("stop"),
    );
    turn(&server, ROUTE, "read_file", 1, with_usage(vec![text])).await;
    let calls = "as text (a JSON call in the reply's text, not in the tool-call fields)";
    let max_tokens = "honoured (12 of 100 tokens), finish_reason stop";
    let mut native = probe_lines(&server, calls, max_tokens);
    native.push(
        "MISSING tool calls cannot work with --tool-protocol native: the server returns calls \
         as text; use --tool-protocol auto (settings \"toolProtocol\": \"auto\"), or a server \
         that parses tool calls (e.g. llama.cpp with --jinja)"
            .to_owned(),
    );
    let mut auto = probe_lines(&server, calls, max_tokens);
    auto.push("ok      tool calls work with --tool-protocol auto".to_owned());
    assert_eq!(
        (
            probe(&server, &["--max-output-tokens", "100"]).await,
            probe(
                &server,
                &["--max-output-tokens", "100", "--tool-protocol", "auto"]
            )
            .await
        ),
        ((Some(1), native), (Some(0), auto))
    );
}

#[tokio::test]
async fn probe_of_a_server_with_no_call_at_all_names_react() {
    let server = MockServer::start().await;
    let text = crate::support::provider_wire::openai_chunk(
        json!({"content": "I cannot read files."}),
        Some("stop"),
    );
    turn(&server, ROUTE, "read_file", 1, with_usage(vec![text])).await;
    let mut expected = probe_lines(
        &server,
        "not at all (the reply: \"I cannot read files.\")",
        "honoured (12 of 16384 tokens), finish_reason stop",
    );
    expected.push(
        "MISSING tool calls cannot work with --tool-protocol auto: no call came back, \
         structured or as text; use --tool-protocol react (settings \"toolProtocol\": \
         \"react\"), or a model and server with tool calling (see docs/real-models.md)"
            .to_owned(),
    );
    assert_eq!(
        probe(&server, &["--tool-protocol", "auto"]).await,
        (Some(1), expected)
    );
}

#[tokio::test]
async fn probe_of_a_server_that_does_not_stream_says_so_and_what_it_cannot_tell() {
    let server = MockServer::start().await;
    let body = json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": null,
        "tool_calls": [{"id": "c", "type": "function",
                        "function": {"name": "read_file", "arguments": "{\"path\":\"notes.txt\"}"}}]}}]});
    let response = wiremock::ResponseTemplate::new(200).set_body_json(body);
    turn(&server, ROUTE, "read_file", 1, response).await;
    let (code, lines) = probe(&server, &[]).await;
    assert_eq!(
        (code, lines[3..7].to_vec(), lines.last().cloned()),
        (
            Some(0),
            vec![
                "probe   streaming  no".to_owned(),
                "probe   tool calls structured (in the tool-call fields)".to_owned(),
                "probe   max_tokens unknown (no usage reported), finish_reason tool_calls"
                    .to_owned(),
                "probe   usage      no".to_owned(),
            ],
            Some("ok      tool calls work with --tool-protocol native".to_owned())
        )
    );
}
