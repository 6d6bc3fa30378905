//! Shared helpers of the end-to-end tests: a temporary case (a workspace folder
//! with a script and a transcript beside it, never inside it), the one command
//! line every run test starts from, and builders for the transcript records
//! the tests compare as whole values.

use assert_cmd::Command;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

pub mod chat_place;
pub mod fleet;
pub mod history;
pub mod home;
pub use agenthub_traces::test_collector as otlp;
pub mod provider_wire;
pub mod terminal;
pub use history::history_records;

/// The prompt every run test passes.
pub const PROMPT: &str = "do the task";

/// One end-to-end case: `<tmp>/ws` is the workspace, `<tmp>/script.json` the
/// script and `<tmp>/t.jsonl` the transcript.
pub struct Case {
    dir: tempfile::TempDir,
    workspace: PathBuf,
}

impl Case {
    pub fn new() -> Case {
        let dir = tempfile::tempdir().expect("temp dir");
        let workspace = dir.path().join("ws");
        std::fs::create_dir(&workspace).expect("workspace dir");
        let workspace = workspace.canonicalize().expect("canonical workspace");
        Case { dir, workspace }
    }

    /// The workspace as the run sees it (canonical).
    pub fn workspace(&self) -> &Path {
        &self.workspace
    }

    /// `rel` inside the workspace, as a string (what tool results print).
    pub fn path(&self, rel: &str) -> String {
        self.workspace.join(rel).display().to_string()
    }

    pub fn script_path(&self) -> PathBuf {
        self.dir.path().join("script.json")
    }

    pub fn transcript_path(&self) -> PathBuf {
        self.dir.path().join("t.jsonl")
    }

    /// Writes `rel` in the workspace, creating its folders.
    pub fn write(&self, rel: &str, content: &str) {
        let path = self.workspace.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("parent dir");
        }
        std::fs::write(path, content).expect("write workspace file");
    }

    /// Reads `rel` from the workspace.
    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.workspace.join(rel)).expect("read workspace file")
    }

    /// Writes the script file: `{"turns": turns}`.
    pub fn script(&self, turns: Value) {
        self.script_text(&json!({ "turns": turns }).to_string());
    }

    /// Writes the script file verbatim (for malformed scripts).
    pub fn script_text(&self, text: &str) {
        std::fs::write(self.script_path(), text).expect("write script");
    }

    /// `agenthub run` on this case's script, workspace and transcript: the one
    /// place to add flags (e.g. a permission mode) that every run test needs.
    pub fn run(&self) -> Command {
        base_run_command(
            &self.script_path(),
            &self.workspace,
            &self.transcript_path(),
        )
    }

    /// Every transcript record, in order.
    pub fn records(&self) -> Vec<Value> {
        let text = std::fs::read_to_string(self.transcript_path()).expect("read transcript");
        text.lines()
            .map(|line| serde_json::from_str(line).expect("transcript line is JSON"))
            .collect()
    }

    /// The transcript's `message` records, whole, after the system prompt
    /// (which must be the first; see [`Case::system_prompt`]).
    pub fn messages(&self) -> Vec<Value> {
        let mut messages = self.records_of("message");
        assert_eq!(
            messages
                .first()
                .map(|record| record["message"]["role"].clone()),
            Some(json!("system")),
            "the first message record is the system prompt"
        );
        messages.remove(0);
        messages
    }

    /// The system prompt: the content of the first message record.
    pub fn system_prompt(&self) -> String {
        let messages = self.records_of("message");
        let first = &messages.first().expect("a message record")["message"];
        assert_eq!(
            first["role"], "system",
            "the first message is the system prompt"
        );
        first["content"].as_str().expect("text content").to_owned()
    }

    /// The first prompt's content as the model was sent it: the
    /// `<system-reminder>` block with the workspace context (contract §33),
    /// then the prompt.
    pub fn first_user_content(&self) -> String {
        history::first_user_content(&self.records()).expect("a user line")
    }

    /// The transcript's last record, which must be the outcome, without the
    /// `sessionId` every record carries (checked to be the session's).
    pub fn outcome(&self) -> Value {
        let records = self.records();
        let mut outcome = records.last().expect("transcript is not empty").clone();
        assert_eq!(
            outcome.as_object_mut().and_then(|o| o.remove("sessionId")),
            Some(records[0]["session_id"].clone()),
            "the outcome names its session"
        );
        outcome
    }

    fn records_of(&self, kind: &str) -> Vec<Value> {
        let records = self.records();
        let records = match kind {
            "message" => history_records(&records),
            _ => records,
        };
        records
            .into_iter()
            .filter(|record| record["type"] == kind)
            .collect()
    }
}

/// `agenthub run --script S --workspace W --transcript T PROMPT`.
pub fn base_run_command(script: &Path, workspace: &Path, transcript: &Path) -> Command {
    let mut command = run_without_prompt(script, workspace, transcript);
    command.arg(PROMPT);
    command
}

/// `agenthub run --script S --workspace W --transcript T`, no prompt given.
pub fn run_without_prompt(script: &Path, workspace: &Path, transcript: &Path) -> Command {
    let mut command = agenthub();
    command
        .arg("run")
        .arg("--permission-mode=bypassPermissions")
        .arg("--script")
        .arg(script)
        .arg("--workspace")
        .arg(workspace)
        .arg("--transcript")
        .arg(transcript);
    command
}

/// The `agenthub` binary built by this package.
pub fn agenthub() -> Command {
    Command::cargo_bin("agenthub").expect("the agenthub binary is built")
}

/// A scripted tool call: `{"id", "name", "arguments"}`.
pub fn call(id: &str, name: &str, arguments: Value) -> Value {
    json!({"id": id, "name": name, "arguments": arguments})
}

/// The transcript record of the user prompt.
pub fn user_record() -> Value {
    message_record(json!({"role": "user", "content": PROMPT}))
}

/// The transcript record of an assistant message with tool calls, given as
/// `(id, name, arguments)`; object arguments are serialized the way the
/// scripted model does, a string is kept verbatim.
pub fn assistant_calls_record(content: &str, calls: &[(&str, &str, Value)]) -> Value {
    let tool_calls: Vec<Value> = calls
        .iter()
        .map(|(id, name, arguments)| {
            let raw = match arguments {
                Value::String(raw) => raw.clone(),
                other => other.to_string(),
            };
            json!({"id": id, "type": "function", "function": {"name": name, "arguments": raw}})
        })
        .collect();
    message_record(json!({"role": "assistant", "content": content, "tool_calls": tool_calls}))
}

/// The transcript record of a final assistant message.
pub fn assistant_record(content: &str) -> Value {
    message_record(json!({"role": "assistant", "content": content}))
}

/// The transcript record of a tool result.
pub fn tool_record(id: &str, content: &str) -> Value {
    message_record(json!({"role": "tool", "tool_call_id": id, "content": content}))
}

fn message_record(message: Value) -> Value {
    json!({"type": "message", "message": message})
}
