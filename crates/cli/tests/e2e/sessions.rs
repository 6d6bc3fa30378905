//! Sessions that last (contract §12) through the real binary: the transcript
//! starts with the session record, `--resume ID` and `--continue` rebuild the
//! history exactly (a resumed script's `{{last_tool_result}}` sees the earlier
//! run's tool result), SessionStart hooks hear `source: "resume"`, sessions
//! are found per workspace, and a damaged transcript is named by its line.

use assert_cmd::Command;
use serde_json::{json, Value};
use std::path::PathBuf;

/// `<tmp>/a` and `<tmp>/b` (two workspaces), `<tmp>/home` with config and state.
struct Home {
    _dir: tempfile::TempDir,
    base: PathBuf,
}

impl Home {
    fn new() -> Home {
        let dir = tempfile::TempDir::new().unwrap();
        let base = dir.path().canonicalize().unwrap();
        for folder in ["a", "b", "home/.config/agenthub"] {
            std::fs::create_dir_all(base.join(folder)).unwrap();
        }
        Home { _dir: dir, base }
    }

    fn ws(&self, name: &str) -> PathBuf {
        self.base.join(name)
    }

    fn agenthub(&self, workspace: &str) -> Command {
        let mut command = Command::cargo_bin("agenthub").unwrap();
        command
            .env("HOME", self.base.join("home"))
            .env("XDG_CONFIG_HOME", self.base.join("home/.config"))
            .env("XDG_STATE_HOME", self.base.join("home/.local/state"))
            .current_dir(self.ws(workspace));
        command
    }

    /// `agenthub run --script` in `workspace` with `turns` and extra `flags`;
    /// returns the JSON report.
    fn run(&self, workspace: &str, turns: Value, flags: &[&str]) -> Value {
        let script = self.base.join("script.json");
        std::fs::write(&script, json!({ "turns": turns }).to_string()).unwrap();
        let output = self
            .agenthub(workspace)
            .args(["run", "--output-format", "json", "--script"])
            .arg(&script)
            .args(flags)
            .arg(format!("prompt in {workspace}"))
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
}

fn echo_then_answer(text: &str) -> Value {
    json!([
        {"tool_calls": [{"id": "c1", "name": "Echo", "arguments": {"text": text}}]},
        {"content": "echoed"}
    ])
}

fn answer_last_result() -> Value {
    json!([{"content": "last: {{last_tool_result}}"}])
}

fn id_of(report: &Value) -> String {
    report["session_id"].as_str().unwrap().to_owned()
}

#[test]
fn the_transcript_starts_with_the_session_record() {
    let home = Home::new();
    let report = home.run("a", echo_then_answer("x"), &[]);
    let id = id_of(&report);
    let mut first = home.records(&id).remove(0);
    let created = first["created"].take();
    assert_eq!(
        first,
        json!({
            "type": "session",
            "session_id": id,
            "workspace": home.ws("a").display().to_string(),
            "model": "scripted",
            "created": null,
            "version": env!("CARGO_PKG_VERSION"),
            "sessionId": id,
        })
    );
    let created = created.as_str().unwrap();
    assert_eq!(
        (created.len(), &created[10..11], &created[19..]),
        (20, "T", "Z")
    );
}

#[test]
fn resume_rebuilds_the_history_so_the_next_run_sees_the_earlier_tool_result() {
    let home = Home::new();
    let first = home.run("a", echo_then_answer("from the first run"), &[]);
    let id = id_of(&first);
    let second = home.run("a", answer_last_result(), &["--resume", &id]);
    let outcomes: Vec<Value> = home
        .records(&id)
        .into_iter()
        .filter(|record| record["type"] == "outcome")
        .map(|record| record["result"].clone())
        .collect();
    assert_eq!(
        (second["result"].clone(), id_of(&second), outcomes),
        (
            json!("last: from the first run"),
            id.clone(),
            vec![json!("echoed"), json!("last: from the first run")]
        )
    );
}

#[test]
fn session_start_hooks_hear_that_the_session_resumes() {
    let home = Home::new();
    let log = home.base.join("sources.log");
    std::fs::write(
        home.base.join("home/.config/agenthub/settings.json"),
        json!({"hooks": {"SessionStart": [{"hooks": [{"type": "command",
            "command": format!("grep -o '\"source\":\"[a-z]*\"' >> {}", log.display())}]}]}})
        .to_string(),
    )
    .unwrap();
    let first = home.run("a", echo_then_answer("x"), &[]);
    home.run("a", answer_last_result(), &["--resume", &id_of(&first)]);
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        "\"source\":\"startup\"\n\"source\":\"resume\"\n"
    );
}

#[test]
fn continue_picks_the_latest_session_of_this_workspace_only() {
    let home = Home::new();
    let in_a = home.run("a", echo_then_answer("from a"), &[]);
    std::thread::sleep(std::time::Duration::from_millis(20));
    home.run("b", echo_then_answer("from b"), &[]);
    let continued = home.run("a", answer_last_result(), &["--continue"]);
    assert_eq!(
        (continued["result"].clone(), id_of(&continued)),
        (json!("last: from a"), id_of(&in_a))
    );
}

#[test]
fn sessions_list_shows_this_workspaces_sessions_as_json() {
    let home = Home::new();
    let in_a = home.run("a", echo_then_answer("x"), &[]);
    home.run("b", echo_then_answer("y"), &[]);
    let output = home
        .agenthub("a")
        .args(["sessions", "list", "--output-format", "json"])
        .output()
        .unwrap();
    let mut listed: Value = serde_json::from_slice(&output.stdout).unwrap();
    listed[0]["created"].take();
    let id = id_of(&in_a);
    assert_eq!(
        listed,
        json!([{
            "session_id": id,
            "created": null,
            "model": "scripted",
            "first_prompt": "prompt in a",
            "turns": 2,
            "last_status": "completed",
            "transcript": home.transcript(&id).display().to_string(),
        }])
    );
}

#[test]
fn a_transcript_damaged_in_the_middle_fails_the_resume_naming_the_line() {
    let home = Home::new();
    let first = home.run("a", echo_then_answer("x"), &[]);
    let id = id_of(&first);
    let path = home.transcript(&id);
    let mut lines: Vec<String> = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    lines[2] = "{not json".to_owned();
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let script = home.base.join("script.json");
    std::fs::write(&script, json!({"turns": answer_last_result()}).to_string()).unwrap();
    let output = home
        .agenthub("a")
        .args(["run", "--script"])
        .arg(&script)
        .args(["--resume", &id, "go"])
        .output()
        .unwrap();
    assert_eq!(
        (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned()),
        (
            Some(2),
            format!(
                "agenthub: transcript {} is damaged at line 3: key must be a string at line 1 column 2\n",
                path.display()
            )
        )
    );
}

#[test]
fn a_last_line_cut_short_is_dropped_with_a_warning_and_the_session_resumes() {
    let home = Home::new();
    let first = home.run("a", echo_then_answer("kept"), &[]);
    let id = id_of(&first);
    let path = home.transcript(&id);
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("{text}{{\"type\":\"message\",\"mess")).unwrap();
    let script = home.base.join("script.json");
    std::fs::write(&script, json!({"turns": answer_last_result()}).to_string()).unwrap();
    let output = home
        .agenthub("a")
        .args(["run", "--script"])
        .arg(&script)
        .args(["--resume", &id, "go"])
        .output()
        .unwrap();
    assert_eq!(
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr)
                .lines()
                .next()
                .map(str::to_owned)
        ),
        (
            Some(0),
            "last: kept\n".to_owned(),
            Some(format!(
                "agenthub: warning: transcript {}: its last line was cut short and is dropped",
                path.display()
            ))
        )
    );
    let records = home.records(&id);
    assert_eq!(records.last().unwrap()["type"], "outcome");
}

#[test]
fn a_session_killed_during_a_tool_call_continues_with_the_call_answered_as_interrupted() {
    let home = Home::new();
    let script = home.base.join("script.json");
    let sleeping = json!({"turns": [
        {"tool_calls": [{"id": "c1", "name": "Bash", "arguments": {"command": "sleep 5"}}]},
        {"content": "slept"}
    ]});
    std::fs::write(&script, sleeping.to_string()).unwrap();
    let mut running = std::process::Command::new(assert_cmd::cargo::cargo_bin("agenthub"));
    running
        .env("HOME", home.base.join("home"))
        .env("XDG_CONFIG_HOME", home.base.join("home/.config"))
        .env("XDG_STATE_HOME", home.base.join("home/.local/state"))
        .current_dir(home.ws("a"))
        .args(["run", "--allow", "Bash(sleep:*)", "--script"])
        .arg(&script)
        .arg("sleep")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let mut child = running.spawn().unwrap();
    let transcripts = home.base.join("home/.local/state/agenthub/transcripts");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let calling = |folder: &std::path::Path| {
        std::fs::read_dir(folder)
            .into_iter()
            .flatten()
            .flatten()
            .any(|entry| {
                std::fs::read_to_string(entry.path())
                    .is_ok_and(|text| text.contains("\"tool_use\""))
            })
    };
    while !calling(&transcripts) {
        assert!(
            std::time::Instant::now() < deadline,
            "the call never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let continued = home.run("a", answer_last_result(), &["--continue"]);
    assert_eq!(
        (continued["status"].clone(), continued["result"].clone()),
        (
            json!("completed"),
            json!("last: Error [tool_error]: interrupted: the session stopped before this call finished")
        )
    );
}

#[test]
fn a_session_id_is_a_name_in_the_transcripts_folder_never_a_path() {
    let home = Home::new();
    let first = home.run("a", echo_then_answer("x"), &[]);
    let sneaky = format!("../transcripts/{}", id_of(&first));
    let script = home.base.join("script.json");
    std::fs::write(&script, json!({"turns": answer_last_result()}).to_string()).unwrap();
    let output = home
        .agenthub("a")
        .args(["run", "--script"])
        .arg(&script)
        .args(["--resume", &sneaky, "go"])
        .output()
        .unwrap();
    assert_eq!(
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stderr).into_owned()
        ),
        (
            Some(2),
            format!(
                "agenthub: no session {sneaky} (looked for {})\n",
                home.transcript(&sneaky).display()
            )
        )
    );
}
