//! A case folder for end-to-end runs of the real binary: `<tmp>/ws` (the
//! workspace and working directory) beside `<tmp>/home` (HOME, with the
//! XDG config and state folders inside), so that no test reads or writes the
//! caller's own configuration, trust store or transcripts.

use assert_cmd::Command;
use serde_json::Value;
use std::path::PathBuf;

/// `<tmp>/ws` and `<tmp>/home`, removed when dropped.
pub struct Home {
    _dir: tempfile::TempDir,
    /// The temp folder holding both.
    pub base: PathBuf,
}

impl Home {
    pub fn new() -> Home {
        let dir = tempfile::TempDir::new().unwrap();
        let base = dir.path().canonicalize().unwrap();
        for folder in ["ws", "home/.config/agenthub"] {
            std::fs::create_dir_all(base.join(folder)).unwrap();
        }
        Home { _dir: dir, base }
    }

    pub fn ws(&self) -> PathBuf {
        self.base.join("ws")
    }

    /// Writes `text` at `rel` (from the temp folder), creating its folders.
    pub fn write(&self, rel: &str, text: &str) {
        let path = self.base.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    /// The user settings file (`~/.config/agenthub/settings.json`).
    pub fn settings(&self, settings: Value) {
        self.write("home/.config/agenthub/settings.json", &settings.to_string());
    }

    /// One JSON value per line of `rel`; none when it does not exist.
    pub fn lines(&self, rel: &str) -> Vec<Value> {
        std::fs::read_to_string(self.base.join(rel))
            .unwrap_or_default()
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    }

    /// `agenthub` with this HOME and XDG folders, in the workspace.
    pub fn agenthub(&self) -> Command {
        let mut command = Command::cargo_bin("agenthub").unwrap();
        command
            .env("HOME", self.base.join("home"))
            .env("XDG_CONFIG_HOME", self.base.join("home/.config"))
            .env("XDG_STATE_HOME", self.base.join("home/.local/state"))
            .current_dir(self.ws());
        command
    }

    /// `agenthub ARGS` as a plain process (for pipes a test speaks over),
    /// with this HOME and XDG folders, in the workspace.
    pub fn process(&self, args: &[&str]) -> std::process::Command {
        let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin("agenthub"));
        command
            .args(args)
            .env("HOME", self.base.join("home"))
            .env("XDG_CONFIG_HOME", self.base.join("home/.config"))
            .env("XDG_STATE_HOME", self.base.join("home/.local/state"))
            .current_dir(self.ws());
        command
    }

    /// `agenthub run --output-format json --script <script> <flags> <prompt>`;
    /// the JSON report.
    pub fn run_json(&self, script: Value, flags: &[&str], prompt: &str) -> Value {
        let path = self.base.join("script.json");
        std::fs::write(&path, script.to_string()).unwrap();
        let output = self
            .agenthub()
            .args(["run", "--output-format", "json", "--script"])
            .arg(&path)
            .args(flags)
            .arg(prompt)
            .output()
            .unwrap();
        serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|_| panic!("no report: {}", String::from_utf8_lossy(&output.stderr)))
    }

    /// The transcript of session `id`.
    pub fn transcript(&self, id: &str) -> PathBuf {
        self.base
            .join("home/.local/state/agenthub/transcripts")
            .join(format!("{id}.jsonl"))
    }

    /// The records of session `id`'s transcript.
    pub fn records(&self, id: &str) -> Vec<Value> {
        self.lines(&format!(
            "home/.local/state/agenthub/transcripts/{id}.jsonl"
        ))
    }
}
