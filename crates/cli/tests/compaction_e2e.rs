//! Compaction through the real binary (SPEC §12): a long scripted session with
//! a tiny `contextWindow` compacts on its own; PreCompact and SessionStart
//! command hooks hear it (their stdin payloads asserted whole); the
//! transcript holds the compaction record then the summary; a resumed session
//! goes on from the compacted history.

use assert_cmd::Command;
use serde_json::{json, Value};
use std::path::PathBuf;

struct Home {
    _dir: tempfile::TempDir,
    base: PathBuf,
}

impl Home {
    fn new() -> Home {
        let dir = tempfile::TempDir::new().unwrap();
        let base = dir.path().canonicalize().unwrap();
        for folder in ["ws", "home/.config/agenthub"] {
            std::fs::create_dir_all(base.join(folder)).unwrap();
        }
        Home { _dir: dir, base }
    }

    fn settings(&self, settings: Value) {
        let path = self.base.join("home/.config/agenthub/settings.json");
        std::fs::write(path, settings.to_string()).unwrap();
    }

    fn run(&self, script: Value, flags: &[&str]) -> Value {
        let path = self.base.join("script.json");
        std::fs::write(&path, script.to_string()).unwrap();
        let output = Command::cargo_bin("agenthub")
            .unwrap()
            .env("HOME", self.base.join("home"))
            .env("XDG_CONFIG_HOME", self.base.join("home/.config"))
            .env("XDG_STATE_HOME", self.base.join("home/.local/state"))
            .current_dir(self.base.join("ws"))
            .args(["run", "--output-format", "json", "--script"])
            .arg(&path)
            .args(flags)
            .arg("a long task")
            .output()
            .unwrap();
        serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|_| panic!("no report: {}", String::from_utf8_lossy(&output.stderr)))
    }

    fn transcript(&self, id: &str) -> PathBuf {
        self.base
            .join("home/.local/state/agenthub/transcripts")
            .join(format!("{id}.jsonl"))
    }

    fn records(&self, id: &str) -> Vec<Value> {
        std::fs::read_to_string(self.transcript(id))
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    }

    /// One JSON payload per line of `name`.
    fn payloads(&self, name: &str) -> Vec<Value> {
        std::fs::read_to_string(self.base.join(name))
            .unwrap_or_default()
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    }
}

fn echo(id: &str, text: &str) -> Value {
    json!({"tool_calls": [{"id": id, "name": "Echo", "arguments": {"text": text}}]})
}

/// Hooks that append their whole stdin, one line each.
/// The estimated tokens of the system prompt this home's runs send (bytes / 4,
/// rounded up, + 4: the library's estimate), read from a probe run.
fn system_prompt_tokens(home: &Home) -> u64 {
    let probe = home.run(json!({"turns": [{"content": "probe"}]}), &[]);
    let id = probe["session_id"].as_str().unwrap();
    let system = home
        .records(id)
        .into_iter()
        .find(|record| record["type"] == "message")
        .unwrap();
    let text = system["message"]["content"].as_str().unwrap();
    (text.len() as u64).div_ceil(4) + 4
}

/// A context window whose compaction limit (half of it) sits 110 tokens above
/// the system prompt: the long first round crosses it, the short second does not.
fn logging_settings(home: &Home, limit: u64) -> Value {
    let window = 2 * limit;
    let log = |name: &str| {
        json!([{"hooks": [{"type": "command",
            "command": format!("cat >> {0}; echo >> {0}", home.base.join(name).display())}]}])
    };
    json!({
        "contextWindow": window,
        "autoCompactThreshold": 0.5,
        "hooks": {"PreCompact": log("precompact.log"), "SessionStart": log("start.log")}
    })
}

#[test]
fn a_long_session_compacts_with_its_hooks_and_resumes_from_the_compacted_history() {
    let home = Home::new();
    let limit = system_prompt_tokens(&home) + 110;
    home.settings(logging_settings(&home, limit));
    let long = "z".repeat(300);
    let first = home.run(
        json!({"turns": [echo("c1", &long), echo("c2", "tail"), {"content": "done"}],
               "summaries": ["the task echoed a long text"]}),
        &[],
    );
    let id = first["session_id"].as_str().unwrap().to_owned();
    let transcript = home.transcript(&id).display().to_string();
    let cwd = home.base.join("ws").display().to_string();
    let common = |event: &str| {
        json!({"session_id": id, "transcript_path": transcript, "cwd": cwd,
               "permission_mode": "default", "hook_event_name": event})
    };
    let with = |mut base: Value, extra: Value| {
        base.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        base
    };
    assert_eq!(
        (first["status"].clone(), first["result"].clone()),
        (json!("completed"), json!("done"))
    );
    assert_eq!(
        home.payloads("precompact.log"),
        vec![with(
            common("PreCompact"),
            json!({"trigger": "auto", "custom_instructions": ""})
        )]
    );
    assert_eq!(
        home.payloads("start.log"),
        vec![
            with(
                common("SessionStart"),
                json!({"source": "startup", "model": "scripted"})
            ),
            with(
                common("SessionStart"),
                json!({"source": "compact", "model": "scripted"})
            ),
        ]
    );

    let records = home.records(&id);
    let at = records
        .iter()
        .position(|record| record["type"] == "compaction")
        .unwrap();
    let mut compaction = records[at].clone();
    let (before, after) = (
        compaction["tokens_before"].take(),
        compaction["tokens_after"].take(),
    );
    assert_eq!(
        (compaction, records[at + 1].clone()),
        (
            json!({"type": "compaction", "trigger": "auto", "tokens_before": null,
                   "tokens_after": null, "kept": 0}),
            json!({"type": "message", "message": {"role": "user", "content":
                format!("{}\n\nthe task echoed a long text", agenthub_core::SUMMARY_HEADER)}})
        )
    );
    assert!(before.as_u64().unwrap() >= limit && after.as_u64().unwrap() < limit);

    let resumed = home.run(
        json!({"turns": [{"content": "last: {{last_tool_result}}"}]}),
        &["--resume", &id],
    );
    assert_eq!(resumed["result"], json!("last: tail"));
}
