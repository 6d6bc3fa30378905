//! The transcript as programs written for Claude Code read it (contract §21):
//! conversation lines in Claude Code's shape, chained by `parentUuid`, and a
//! Stop hook that takes the last assistant text out of `transcript_path` the
//! way public hooks (anthropics' ralph-wiggum) do, with grep and jq.

use crate::support::{answer, model};
use agenthub_core::{Agent, TranscriptWriter};
use agenthub_hooks::{CommandHooks, HookRegistry};
use agenthub_protocol::RunStatus;
use agenthub_tools::{ToolRegistry, Workspace};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

const PROMPT: &str = "do the task";

/// A workspace (canonical, with `.agenthub/`) and the transcript path beside it.
struct Case {
    _dir: tempfile::TempDir,
    workspace: PathBuf,
    transcript: PathBuf,
}

impl Case {
    fn new() -> Case {
        let dir = tempfile::tempdir().unwrap();
        let workspace = dir.path().join("ws");
        std::fs::create_dir_all(workspace.join(".agenthub")).unwrap();
        let workspace = workspace.canonicalize().unwrap();
        let transcript = dir.path().join("t.jsonl");
        Case {
            _dir: dir,
            workspace,
            transcript,
        }
    }

    /// The command hooks of `hooks` (the settings file's `hooks` object).
    fn command_hooks(&self, hooks: Value) -> HookRegistry {
        let source = self.workspace.join(".agenthub/settings.json");
        let configs = agenthub_settings::parse_hooks_value(&source, hooks).unwrap();
        CommandHooks::new(configs).into_registry().unwrap()
    }

    /// Runs the echo script (Echo `text`, then `Result: <its result>`) with
    /// `hooks`, the transcript written as the run goes.
    async fn echo_run(&self, text: &str, hooks: HookRegistry) -> agenthub_core::RunReport {
        let turns = vec![
            json!({"content": "working", "tool_calls": [
                {"id": "call_1", "name": "Echo", "arguments": {"text": text}}]}),
            answer("Result: {{last_tool_result}}"),
        ];
        let mut tools = ToolRegistry::new();
        tools.register(agenthub_tools::builtin::Echo).unwrap();
        Agent::builder(model(turns), tools)
            .hooks(hooks)
            .workspace(Workspace::new(&self.workspace))
            .model_name("scripted")
            .system_prompt("Answer briefly.")
            .transcript_path(self.transcript.clone())
            .observer(Arc::new(
                TranscriptWriter::create(&self.transcript).unwrap(),
            ))
            .build()
            .run(PROMPT, CancellationToken::new())
            .await
    }

    fn records(&self) -> Vec<Value> {
        std::fs::read_to_string(&self.transcript)
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    }

    fn path(&self, rel: &str) -> String {
        self.workspace.join(rel).display().to_string()
    }
}

/// Writes `script` (a `#!/bin/sh` script, executable) at `path`.
fn script(path: &Path, body: &str) {
    std::fs::write(path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::process::Command::new("chmod")
        .arg("+x")
        .arg(path)
        .status()
        .unwrap();
}

/// ralph-wiggum's way: the last line with `"role":"assistant"`, its text
/// blocks joined; exit 5 when there is none (its loop would never start).
const LAST_ASSISTANT_TEXT: &str = r#"set -eu
transcript=$(jq -r '.transcript_path')
last=$(grep '"role":"assistant"' "$transcript" | tail -1) || exit 5
text=$(printf '%s' "$last" | jq -r '.message.content | map(select(.type == "text")) | map(.text) | join("\n")') || exit 5
printf '%s' "$text" > "$CLAUDE_PROJECT_DIR/last-text""#;

#[tokio::test]
async fn a_ralph_wiggum_style_stop_hook_gets_the_last_assistant_text_with_jq() {
    let case = Case::new();
    script(
        &case.workspace.join(".agenthub/last-text.sh"),
        LAST_ASSISTANT_TEXT,
    );
    let hooks = case.command_hooks(json!({"Stop": [{"hooks": [
        {"type": "command", "command": "./.agenthub/last-text.sh"}]}]}));
    let report = case.echo_run("hello", hooks).await;
    assert_eq!(
        (
            report.status,
            report.result,
            std::fs::read_to_string(case.workspace.join("last-text")).unwrap()
        ),
        (
            RunStatus::Completed,
            Some("Result: hello".to_owned()),
            "Result: hello".to_owned()
        )
    );
}

/// `line` without the fields that differ on every run, after checking them.
fn stable(mut line: Value, session: &Value) -> Value {
    let fields = line.as_object_mut().unwrap();
    for field in ["uuid", "timestamp", "version"] {
        let value = fields.remove(field).unwrap_or_default();
        assert!(
            value.as_str().is_some_and(|text| !text.is_empty()),
            "{field}"
        );
    }
    assert_eq!(fields.remove("sessionId").as_ref(), Some(session));
    fields.remove("parentUuid");
    fields.remove("cwd");
    if let Some(message) = fields.get_mut("message").and_then(Value::as_object_mut) {
        message.remove("id");
    }
    line
}

#[tokio::test]
async fn conversation_lines_have_claude_codes_shape_and_each_names_its_parent() {
    let case = Case::new();
    case.echo_run("hello", HookRegistry::new()).await;
    let records = case.records();
    let session = records[0]["session_id"].clone();
    let lines: Vec<Value> = records
        .iter()
        .filter(|line| ["user", "assistant", "system"].contains(&line["type"].as_str().unwrap()))
        .cloned()
        .collect();
    let parents: Vec<Value> = lines
        .iter()
        .map(|line| line["parentUuid"].clone())
        .collect();
    let mut expected_parents = vec![Value::Null];
    expected_parents.extend(
        lines[..lines.len() - 1]
            .iter()
            .map(|line| line["uuid"].clone()),
    );
    let usage = json!({"input_tokens": 0, "output_tokens": 0,
                       "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0});
    assert_eq!(
        (
            parents,
            lines[1..]
                .iter()
                .map(|line| stable(line.clone(), &session))
                .collect::<Vec<_>>(),
            lines.iter().all(|line| line["cwd"] == json!(case.path(""))
                || line["cwd"] == json!(case.path("").trim_end_matches('/'))),
        ),
        (
            expected_parents,
            vec![
                json!({"type": "user", "isSidechain": false,
                       "message": {"role": "user", "content": PROMPT}}),
                json!({"type": "assistant", "isSidechain": false,
                       "message": {"type": "message", "role": "assistant", "model": "scripted",
                         "content": [{"type": "text", "text": "working"},
                                     {"type": "tool_use", "id": "call_1", "name": "Echo",
                                      "input": {"text": "hello"}}],
                         "stop_reason": "tool_use", "usage": usage}}),
                json!({"type": "user", "isSidechain": false,
                       "message": {"role": "user", "content": [{"type": "tool_result",
                         "tool_use_id": "call_1", "content": "hello", "is_error": false}]}}),
                json!({"type": "assistant", "isSidechain": false,
                       "message": {"type": "message", "role": "assistant", "model": "scripted",
                         "content": [{"type": "text", "text": "Result: hello"}],
                         "stop_reason": "end_turn", "usage": usage}}),
            ],
            true
        )
    );
}
