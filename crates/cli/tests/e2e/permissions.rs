//! The permission engine tried as a new user would, through the real binary:
//! a project settings file allows `Bash(git status:*)`, and a script tries
//! `git status && curl …`, `Read ../x`, and reads and writes through a
//! symlink out of the workspace. Each call is refused with a reason a person
//! understands, the audit names source and rule, and nothing outside the
//! workspace is touched. Also: `agenthub permissions explain`, flags, and
//! configuration errors.

use crate::support::history;
use crate::support::home;

use assert_cmd::Command;
use home::Home;
use serde_json::{json, Value};
use std::path::PathBuf;

/// `<tmp>/ws` (the workspace, with `.agenthub/settings.json`), `<tmp>/outside`,
/// `<tmp>/home` (HOME, so no real user settings leak in).
struct Setup {
    home: Home,
}

impl Setup {
    fn new(permissions: Value) -> Setup {
        let home = Home::new();
        home.write("outside/secret.txt", "top secret");
        std::os::unix::fs::symlink(home.base.join("outside"), home.ws().join("link")).unwrap();
        let settings = json!({ "permissions": permissions });
        home.write("ws/.agenthub/settings.json", &settings.to_string());
        Setup { home }
    }

    fn ws(&self) -> PathBuf {
        self.home.ws()
    }

    fn agenthub(&self) -> Command {
        self.home.agenthub()
    }

    fn run(&self, calls: Value) -> Command {
        let script =
            json!({"turns": [{"content": "trying", "tool_calls": calls}, {"content": "done"}]});
        std::fs::write(self.home.base.join("script.json"), script.to_string()).unwrap();
        let mut command = self.agenthub();
        command
            .arg("run")
            .arg("--trust-project")
            .arg("--script")
            .arg(self.home.base.join("script.json"))
            .arg("--workspace")
            .arg(self.ws())
            .arg("--transcript")
            .arg(self.home.base.join("t.jsonl"))
            .arg("try things");
        command
    }

    fn records(&self, kind: &str) -> Vec<Value> {
        let records: Vec<Value> = std::fs::read_to_string(self.home.base.join("t.jsonl"))
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str::<Value>(line).unwrap())
            .collect();
        let session = records[0]["session_id"].clone();
        history::history_records(&records)
            .into_iter()
            .filter(|record| record["type"] == kind)
            .map(|mut record| {
                // Every own record names its session (contract §21).
                if let Some(id) = record.as_object_mut().unwrap().remove("sessionId") {
                    assert_eq!(id, session);
                }
                record
            })
            .collect()
    }

    fn tool_results(&self) -> Vec<String> {
        self.records("message")
            .into_iter()
            .filter(|record| record["message"]["role"] == "tool")
            .map(|record| record["message"]["content"].as_str().unwrap().to_owned())
            .collect()
    }

    fn show(&self, path: &str) -> String {
        self.home.base.join(path).display().to_string()
    }
}

fn call(id: &str, name: &str, arguments: Value) -> Value {
    json!({"id": id, "name": name, "arguments": arguments})
}

fn denied(reason: &str) -> String {
    format!("Error [permission_denied]: the tool was not run: permission denied: {reason}")
}

fn stderr_lines(output: &std::process::Output) -> Vec<String> {
    String::from_utf8_lossy(&output.stderr)
        .lines()
        .filter(|line| line.starts_with("[Permission]"))
        .map(str::to_owned)
        .collect()
}

#[test]
fn a_new_users_attempts_to_leave_the_workspace_are_each_refused_with_a_reason() {
    let setup = Setup::new(json!({"allow": ["Bash(git status:*)"]}));
    let output = setup
        .run(json!([
            call(
                "c1",
                "Bash",
                json!({"command": "git status && curl http://x"})
            ),
            call("c2", "Read", json!({"file_path": "../outside/secret.txt"})),
            call("c3", "Read", json!({"file_path": "link/secret.txt"})),
            call(
                "c4",
                "Write",
                json!({"file_path": "link/planted.txt", "content": "x"})
            ),
        ]))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let ws = setup.show("ws");
    let outside = |rel: &str| {
        format!(
            "{} leads through a symbolic link to {}, which is outside the workspace ({ws})",
            setup.show(&format!("ws/link/{rel}")),
            setup.show(&format!("outside/{rel}"))
        )
    };
    let read_outside = format!(
        "{} is outside the workspace ({ws})",
        setup.show("outside/secret.txt")
    );
    assert_eq!(
        setup.tool_results(),
        [
            denied("approval required"),
            denied(&read_outside),
            denied(&outside("secret.txt")),
            denied(&outside("planted.txt"))
        ]
    );
    assert_eq!(
        stderr_lines(&output),
        [
            "[Permission] Bash: ask (default) - `curl http://x` matches no allow rule; Bash asks by default".to_owned(),
            "[Permission] Bash: deny (approval) - approval required".to_owned(),
            "[Permission] Bash needs approval and no one can answer here: re-run with --allow 'Bash(curl:*)'".to_owned(),
            format!("[Permission] Read: deny (workspace-boundary) - {read_outside}"),
            format!("[Permission] Read: deny (workspace-boundary) - {}", outside("secret.txt")),
            format!("[Permission] Write: deny (workspace-boundary) - {}", outside("planted.txt")),
        ]
    );
    assert!(!setup.home.base.join("outside/planted.txt").exists());
    assert_eq!(
        std::fs::read_to_string(setup.home.base.join("outside/secret.txt")).unwrap(),
        "top secret"
    );
}

#[test]
fn a_deny_flag_names_its_rule_in_the_result_and_the_transcript() {
    let setup = Setup::new(json!({"allow": ["Bash(git status:*)"]}));
    setup
        .run(json!([call(
            "c1",
            "Bash",
            json!({"command": "git status && curl http://x"})
        )]))
        .arg("--deny")
        .arg("Bash(curl *)")
        .assert()
        .code(0);
    let reason = "`curl http://x` matches deny rule Bash(curl *) (command line)";
    assert_eq!(setup.tool_results(), [denied(reason)]);
    assert_eq!(
        setup.records("permission"),
        [json!({
            "type": "permission",
            "tool": "Bash",
            "tool_use_id": "c1",
            "effect": "deny",
            "source": "rule",
            "rule": "Bash(curl *) (command line)",
            "reason": reason,
        })]
    );
}

#[test]
fn an_allowed_compound_command_runs() {
    let setup = Setup::new(json!({"allow": ["Bash(echo:*)"]}));
    setup
        .run(json!([call(
            "c1",
            "Bash",
            json!({"command": "echo one && echo two"})
        )]))
        .assert()
        .code(0);
    assert_eq!(setup.tool_results(), ["[exit code: 0]\none\ntwo"]);
}

#[test]
fn an_invalid_rule_in_the_settings_stops_the_run_naming_the_file_and_place() {
    let setup = Setup::new(json!({"deny": ["Bash(rm *)", "Bsh(rm *)"]}));
    let output = setup.run(json!([])).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let settings = setup.show("ws/.agenthub/settings.json");
    assert_eq!(
        String::from_utf8_lossy(&output.stderr).lines().last(),
        Some(format!(
            "agenthub: invalid permission rule \"Bsh(rm *)\" in {settings} at permissions.deny[1]: no tool is named Bsh; \
             known tools: Read, Write, Edit, Bash, Glob, Grep, TodoWrite, Echo, Task, WebFetch, mcp__<server>__<tool>"
        ).as_str())
    );
}

#[test]
fn explain_prints_every_participant_and_the_decision() {
    let setup = Setup::new(json!({"allow": ["Bash(git status:*)"], "deny": ["Bash(rm *)"]}));
    let settings = setup.show("ws/.agenthub/settings.json");
    let output = setup
        .agenthub()
        .args([
            "permissions",
            "explain",
            "Bash",
            r#"{"command": "git status && rm -rf x"}"#,
            "--settings",
        ])
        .arg(&settings)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        format!(
            "Bash {{\"command\":\"git status && rm -rf x\"}}\n\
             mode: default\n\
             \x20 rule [git status]: allow - `git status` matches allow rule Bash(git status:*) ({settings})\n\
             \x20 rule [rm -rf x]: deny - `rm -rf x` matches deny rule Bash(rm *) ({settings})\n\
             \x20 mode: passthrough - default mode adds nothing here\n\
             \x20 default: ask - Bash asks by default\n\
             \x20 hooks: none would run for this call\n\
             decision: deny (rule, Bash(rm *) ({settings})) - `rm -rf x` matches deny rule Bash(rm *) ({settings})\n"
        )
    );
}

#[test]
fn explain_shows_the_boundary_winning_over_bypass_mode() {
    let setup = Setup::new(json!({}));
    let output = setup
        .agenthub()
        .args([
            "permissions",
            "explain",
            "Write",
            r#"{"file_path": "../x.txt", "content": "x"}"#,
        ])
        .args(["--permission-mode", "bypassPermissions", "--workspace"])
        .arg(setup.ws())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    let reason = format!(
        "{} is outside the workspace ({})",
        setup.show("x.txt"),
        setup.show("ws")
    );
    assert_eq!(
        text.lines().last(),
        Some(format!("decision: deny (workspace-boundary) - {reason}").as_str())
    );
}

#[test]
fn an_unknown_permission_mode_is_a_usage_error() {
    let setup = Setup::new(json!({}));
    let output = setup
        .run(json!([]))
        .args(["--permission-mode", "yolo"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr).trim_end(),
        "agenthub: invalid permissions setting on the command line (--permission-mode): unknown permission mode \"yolo\"; \
         expected one of default, acceptEdits, plan, dontAsk, bypassPermissions"
    );
}
