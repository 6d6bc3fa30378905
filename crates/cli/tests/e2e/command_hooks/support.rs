//! A temporary case for command hook tests: `<tmp>/ws` is the workspace (its
//! hooks in `.agenthub/hooks/`), `<tmp>/config` the user's config folder
//! (`XDG_CONFIG_HOME`), the script and transcript beside them.

#![allow(dead_code)]

use assert_cmd::Command;
use serde_json::{json, Value};
use std::path::PathBuf;

pub const PROMPT: &str = "do the task";

pub struct Case {
    dir: tempfile::TempDir,
    pub workspace: PathBuf,
}

impl Case {
    pub fn new() -> Case {
        let dir = tempfile::tempdir().unwrap();
        let workspace = dir.path().join("ws");
        std::fs::create_dir_all(workspace.join(".agenthub/hooks")).unwrap();
        std::fs::create_dir_all(dir.path().join("config/agenthub")).unwrap();
        let workspace = workspace.canonicalize().unwrap();
        Case { dir, workspace }
    }

    pub fn path(&self, rel: &str) -> String {
        self.workspace.join(rel).display().to_string()
    }

    pub fn outside(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    pub fn write(&self, rel: &str, content: &str) {
        let path = self.workspace.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.workspace.join(rel)).unwrap()
    }

    /// Writes `.agenthub/hooks/<name>` (a `#!/bin/sh` script, executable) and
    /// returns the command that runs it.
    pub fn hook(&self, name: &str, body: &str) -> String {
        let rel = format!(".agenthub/hooks/{name}");
        self.write(&rel, &format!("#!/bin/sh\n{body}\n"));
        std::process::Command::new("chmod")
            .arg("+x")
            .arg(self.workspace.join(&rel))
            .status()
            .unwrap();
        format!("./{rel}")
    }

    /// `.agenthub/settings.json` with one hook per `(event, matcher, hook)`.
    pub fn hooks(&self, hooks: &[(&str, Option<&str>, Value)]) {
        self.project_settings(settings_with(hooks));
    }

    pub fn project_settings(&self, settings: Value) {
        self.write(".agenthub/settings.json", &settings.to_string());
    }

    pub fn user_settings(&self, settings: Value) {
        std::fs::write(
            self.outside("config/agenthub/settings.json"),
            settings.to_string(),
        )
        .unwrap();
    }

    /// The script: `{"turns": turns}`.
    pub fn script(&self, turns: Value) {
        std::fs::write(
            self.outside("script.json"),
            json!({ "turns": turns }).to_string(),
        )
        .unwrap();
    }

    /// One Echo call (`call_1`) then an answer quoting its result.
    pub fn echo_script(&self, text: &str) {
        self.script(json!([
            {"content": "working", "tool_calls": [call("call_1", "Echo", json!({"text": text}))]},
            {"content": "Result: {{last_tool_result}}"}
        ]));
    }

    /// A single final answer, no tool call.
    pub fn answer_script(&self, answers: &[&str]) {
        let turns: Vec<Value> = answers
            .iter()
            .map(|text| json!({"content": text}))
            .collect();
        self.script(Value::Array(turns));
    }

    pub fn transcript_path(&self) -> PathBuf {
        self.outside("t.jsonl")
    }

    /// `agenthub run --trust-project --script S --workspace W --transcript T
    /// --output-format json PROMPT`, with the user layer in this case's config
    /// folder. The workspace's hooks are the case's own, so they are trusted.
    pub fn run(&self) -> Command {
        let mut command = agenthub(self);
        command
            .arg("run")
            .arg("--trust-project")
            .arg("--script")
            .arg(self.outside("script.json"))
            .arg("--workspace")
            .arg(&self.workspace)
            .arg("--transcript")
            .arg(self.transcript_path())
            .arg("--output-format")
            .arg("json")
            .arg(PROMPT);
        command
    }

    /// `agenthub trust`: records the workspace's configuration as trusted.
    pub fn trust(&self) {
        let output = agenthub(self).arg("trust").output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{output:?}");
    }

    /// Runs and returns the JSON report printed on stdout and the exit code.
    pub fn report(&self) -> (Value, i32) {
        let output = self.run().output().unwrap();
        let report = serde_json::from_slice(&output.stdout).unwrap_or_else(|_| {
            panic!(
                "no JSON report; stderr: {}",
                String::from_utf8_lossy(&output.stderr)
            )
        });
        (report, output.status.code().unwrap_or(-1))
    }

    /// Runs and returns stderr (the `[Hook]` lines and warnings).
    pub fn stderr(&self) -> String {
        let output = self.run().output().unwrap();
        String::from_utf8_lossy(&output.stderr).into_owned()
    }

    pub fn records(&self) -> Vec<Value> {
        std::fs::read_to_string(self.transcript_path())
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    }

    /// The history as the transcript recorded it (the `message` of each
    /// record), after the system prompt, which must come first.
    pub fn messages(&self) -> Vec<Value> {
        let mut messages: Vec<Value> = crate::support::history::history_records(&self.records())
            .into_iter()
            .filter(|record| record["type"] == "message")
            .map(|record| record["message"].clone())
            .collect();
        assert_eq!(
            messages.first().map(|message| message["role"].clone()),
            Some(json!("system")),
            "the first message is the system prompt"
        );
        messages.remove(0);
        messages
    }
}

/// The binary, with a fresh user config folder and no inherited model settings.
pub fn agenthub(case: &Case) -> Command {
    let mut command = Command::cargo_bin("agenthub").unwrap();
    command
        .env("XDG_CONFIG_HOME", case.outside("config"))
        .env("XDG_STATE_HOME", case.outside("state"))
        .env_remove("AGENTHUB_MODEL")
        .current_dir(&case.workspace);
    command
}

/// A settings object with one matcher group per hook.
pub fn settings_with(hooks: &[(&str, Option<&str>, Value)]) -> Value {
    let mut events = serde_json::Map::new();
    for (event, matcher, hook) in hooks {
        let mut group = json!({"hooks": [hook]});
        if let Some(matcher) = matcher {
            group["matcher"] = json!(matcher);
        }
        events
            .entry(event.to_string())
            .or_insert_with(|| json!([]))
            .as_array_mut()
            .unwrap()
            .push(group);
    }
    json!({ "hooks": events })
}

/// `{"type": "command", "command": command}`.
pub fn command(command: &str) -> Value {
    json!({"type": "command", "command": command})
}

pub fn call(id: &str, name: &str, arguments: Value) -> Value {
    json!({"id": id, "name": name, "arguments": arguments})
}

pub fn user(text: &str) -> Value {
    json!({"role": "user", "content": text})
}

pub fn system(text: &str) -> Value {
    json!({"role": "system", "content": text})
}

pub fn assistant(text: &str) -> Value {
    json!({"role": "assistant", "content": text})
}

pub fn tool(id: &str, content: &str) -> Value {
    json!({"role": "tool", "tool_call_id": id, "content": content})
}

/// The assistant message that made one call.
pub fn assistant_call(text: &str, id: &str, name: &str, arguments: Value) -> Value {
    json!({"role": "assistant", "content": text, "tool_calls": [
        {"id": id, "type": "function", "function": {"name": name, "arguments": arguments.to_string()}}
    ]})
}

/// The whole history of an `echo_script` run whose Echo call returned `result`.
pub fn echo_history(text: &str, result: &str) -> Vec<Value> {
    vec![
        user(PROMPT),
        assistant_call("working", "call_1", "Echo", json!({"text": text})),
        tool("call_1", result),
        assistant(&format!("Result: {result}")),
    ]
}
