//! The interactive session's end-to-end cases: `<tmp>/ws` (the workspace),
//! `<tmp>/home`, a script beside them, the session's transcripts read back,
//! and the terminal it runs in (`terminal.rs`).

use super::{history, terminal};
use serde_json::Value;
use std::path::{Path, PathBuf};
pub use terminal::Terminal;
/// `<tmp>/ws` (the workspace), `<tmp>/home`, and the script beside them.
pub struct Place {
    _dir: tempfile::TempDir,
    pub base: PathBuf,
}

impl Place {
    pub fn new(script: &str) -> Place {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(base.join("ws")).unwrap();
        std::fs::create_dir_all(base.join("home/.config")).unwrap();
        std::fs::write(base.join("script.json"), script).unwrap();
        Place { _dir: dir, base }
    }

    pub fn workspace(&self) -> PathBuf {
        self.base.join("ws")
    }

    pub fn chat(&self, extra_args: &[&str], env: &[(&str, &str)]) -> Terminal {
        let script = self.base.join("script.json");
        let mut args = vec!["chat", "--script", script.to_str().unwrap()];
        args.extend_from_slice(extra_args);
        Terminal::start(&self.workspace(), &self.base.join("home"), &args, env)
    }

    /// Every transcript of the workspace's sessions, as records.
    pub fn transcripts(&self) -> Vec<Vec<Value>> {
        let folder = self.base.join("home/.local/state/agenthub/transcripts");
        let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
            .map(|entries| entries.map(|entry| entry.unwrap().path()).collect())
            .unwrap_or_default();
        files.sort();
        files.iter().map(|file| records(file)).collect()
    }
}

pub fn records(file: &Path) -> Vec<Value> {
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .map(|line| history::as_history(serde_json::from_str(line).unwrap()))
        .collect()
}

/// The user prompts a transcript holds, in order.
pub fn user_prompts(records: &[Value]) -> Vec<String> {
    records
        .iter()
        .filter(|record| record["type"] == "message" && record["message"]["role"] == "user")
        .map(|record| record["message"]["content"].as_str().unwrap().to_owned())
        .collect()
}

pub const TWO_ANSWERS: &str = r#"{"turns": [
  {"content": "First answer."},
  {"content": "Second answer."}
]}"#;

pub const BASH: &str = r#"{"turns": [
  {"content": "Running it.", "tool_calls": [{"id": "c1", "name": "Bash", "arguments": {"command": "echo ran > out.txt"}}]},
  {"content": "Result: {{last_tool_result}}"},
  {"content": "Again.", "tool_calls": [{"id": "c2", "name": "Bash", "arguments": {"command": "echo ran > out.txt"}}]},
  {"content": "Second result: {{last_tool_result}}"}
]}"#;
