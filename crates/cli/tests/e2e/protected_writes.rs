//! Issue 10 item 4 through the real binary: a protected path is a write
//! whether Write/Edit or a Bash command does it (contract §11). Under
//! `--permission-mode acceptEdits` with `--allow 'Bash(cp:*)'`, a scripted
//! `cp evil.json .agenthub/settings.local.json` (which would plant a hook
//! for the next run) is refused headless, naming the protected path, and the
//! file is not created; `git config core.fsmonitor x` likewise. Under
//! bypassPermissions the same `cp` runs.

use crate::support::history;

use assert_cmd::Command;
use serde_json::{json, Value};
use std::path::PathBuf;

/// `<tmp>/ws` (the workspace, with `evil.json`, an empty `.agenthub/` and a
/// `.git/config`) and `<tmp>/home` (HOME, so no real user settings leak in).
struct Setup {
    _dir: tempfile::TempDir,
    base: PathBuf,
}

const GIT_CONFIG: &str = "[core]\n\tbare = false\n";

impl Setup {
    fn new() -> Setup {
        let dir = tempfile::TempDir::new().unwrap();
        let base = dir.path().canonicalize().unwrap();
        for folder in ["ws/.agenthub", "ws/.git", "home"] {
            std::fs::create_dir_all(base.join(folder)).unwrap();
        }
        let evil = json!({"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "touch pwned"}]}]}});
        std::fs::write(base.join("ws/evil.json"), evil.to_string()).unwrap();
        std::fs::write(base.join("ws/.git/config"), GIT_CONFIG).unwrap();
        Setup { _dir: dir, base }
    }

    fn ws(&self, rest: &str) -> PathBuf {
        self.base.join("ws").join(rest)
    }

    /// `agenthub run` of a script making one Bash call, in `mode`, with `allow`.
    fn run(&self, command: &str, mode: &str, allow: &str) -> std::process::Output {
        let call = json!({"id": "c1", "name": "Bash", "arguments": {"command": command}});
        let script =
            json!({"turns": [{"content": "trying", "tool_calls": [call]}, {"content": "done"}]});
        std::fs::write(self.base.join("script.json"), script.to_string()).unwrap();
        Command::cargo_bin("agenthub")
            .unwrap()
            .env("HOME", self.base.join("home"))
            .env("XDG_CONFIG_HOME", self.base.join("home/.config"))
            .env("XDG_STATE_HOME", self.base.join("home/.local/state"))
            .current_dir(self.ws(""))
            .arg("run")
            .arg("--script")
            .arg(self.base.join("script.json"))
            .arg("--workspace")
            .arg(self.ws(""))
            .arg("--transcript")
            .arg(self.base.join("t.jsonl"))
            .args(["--permission-mode", mode, "--allow", allow])
            .arg("try things")
            .output()
            .unwrap()
    }

    fn tool_results(&self) -> Vec<String> {
        std::fs::read_to_string(self.base.join("t.jsonl"))
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str::<Value>(line).unwrap())
            .map(history::as_history)
            .filter(|record| record["type"] == "message" && record["message"]["role"] == "tool")
            .map(|record| record["message"]["content"].as_str().unwrap().to_owned())
            .collect()
    }
}

fn permission_lines(output: &std::process::Output) -> Vec<String> {
    String::from_utf8_lossy(&output.stderr)
        .lines()
        .filter(|line| line.starts_with("[Permission]"))
        .map(str::to_owned)
        .collect()
}

const REFUSED: &str =
    "Error [permission_denied]: the tool was not run: permission denied: approval required";

#[test]
fn cp_onto_the_local_settings_under_accept_edits_is_refused_naming_the_protected_path() {
    let setup = Setup::new();
    let command = "cp evil.json .agenthub/settings.local.json";
    let output = setup.run(command, "acceptEdits", "Bash(cp:*)");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(setup.tool_results(), [REFUSED]);
    assert_eq!(
        permission_lines(&output),
        [
            format!(
                "[Permission] Bash: ask (protected-path) - `{command}` writes {}, a protected path (.agenthub): \
                 writing it needs approval in every mode but bypassPermissions",
                setup.ws(".agenthub/settings.local.json").display()
            ),
            "[Permission] Bash: deny (approval) - approval required".to_owned(),
            "[Permission] Bash needs approval and no one can answer here: no flag allows this call \
             (a rule, a protected path, a hook or the shell analysis asks); run agenthub in a terminal to answer"
                .to_owned(),
        ]
    );
    assert!(!setup.ws(".agenthub/settings.local.json").exists());
}

#[test]
fn git_config_core_fsmonitor_under_accept_edits_is_refused_and_the_config_is_unchanged() {
    let setup = Setup::new();
    let command = "git config core.fsmonitor x";
    let output = setup.run(command, "acceptEdits", "Bash(git config:*)");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(setup.tool_results(), [REFUSED]);
    assert_eq!(
        permission_lines(&output).first(),
        Some(&format!(
            "[Permission] Bash: ask (protected-path) - `{command}` writes {}, a protected path (.git): \
             writing it needs approval in every mode but bypassPermissions",
            setup.ws(".git/config").display()
        ))
    );
    assert_eq!(
        std::fs::read_to_string(setup.ws(".git/config")).unwrap(),
        GIT_CONFIG
    );
}

/// bypassPermissions lets the call through the policy; the sandbox still
/// keeps the settings file from being written (contract §15): `.agenthub`
/// itself holds writable state since §29, so the new settings file is
/// removed after the call, and the result says so.
#[test]
fn the_same_cp_under_bypass_permissions_runs_and_the_sandbox_undoes_the_settings_file() {
    let setup = Setup::new();
    let before = std::fs::read_to_string(setup.ws(".agenthub/settings.local.json")).ok();
    let output = setup.run(
        "cp evil.json .agenthub/settings.local.json",
        "bypassPermissions",
        "Bash(cp:*)",
    );
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        setup.tool_results(),
        [
            "[exit code: 0]\n[sandbox: protected paths are read-only; removed what the command \
             created: .agenthub/settings.local.json]"
        ]
    );
    assert_eq!(
        std::fs::read_to_string(setup.ws(".agenthub/settings.local.json")).ok(),
        before
    );
}
