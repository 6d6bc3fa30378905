//! `agenthub permissions explain` answers what `agenthub run` does, because
//! both are built by the library's one assembly: every settings layer counts
//! (a deny rule in the project settings, with no `--settings`), and the hooks
//! a run would call for the call are listed — never run.

use crate::support::home;

use assert_cmd::Command;
use home::Home;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// A workspace `<tmp>/ws` with `.agenthub/settings.json`, and a home of its own.
struct Project {
    home: Home,
}

impl Project {
    fn new(settings: Value) -> Project {
        let home = Home::new();
        home.write("ws/.agenthub/settings.json", &settings.to_string());
        Project { home }
    }

    fn ws(&self) -> PathBuf {
        self.home.ws()
    }

    fn settings_file(&self) -> String {
        self.ws()
            .join(".agenthub/settings.json")
            .display()
            .to_string()
    }

    fn agenthub(&self) -> Command {
        self.home.agenthub()
    }

    fn explain(&self, tool: &str, input: Value) -> String {
        let output = self
            .agenthub()
            .args(["permissions", "explain", tool, &input.to_string()])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        String::from_utf8(output.stdout).unwrap()
    }

    /// The permission records of a scripted run of one call.
    fn run_decisions(&self, tool: &str, input: Value) -> Vec<String> {
        let script = json!({"turns": [
            {"tool_calls": [{"id": "c1", "name": tool, "arguments": input}]},
            {"content": "done"}
        ]});
        let script_file = self.home.base.join("script.json");
        std::fs::write(&script_file, script.to_string()).unwrap();
        let transcript = self.home.base.join("t.jsonl");
        self.agenthub()
            .arg("run")
            .arg("--script")
            .arg(&script_file)
            .arg("--transcript")
            .arg(&transcript)
            .arg("go")
            .output()
            .unwrap();
        permission_effects(&transcript)
    }
}

fn permission_effects(transcript: &Path) -> Vec<String> {
    std::fs::read_to_string(transcript)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .filter(|record| record["type"] == "permission")
        .map(|record| {
            format!(
                "{} ({})",
                record["effect"].as_str().unwrap(),
                record["source"].as_str().unwrap()
            )
        })
        .collect()
}

fn decision_line(explanation: &str) -> &str {
    explanation.lines().last().unwrap()
}

#[test]
fn explain_applies_a_deny_rule_from_the_project_settings_as_run_does() {
    let project = Project::new(json!({"permissions": {"deny": ["Bash(rm *)"]}}));
    let rule = format!("Bash(rm *) ({})", project.settings_file());
    let explanation = project.explain("Bash", json!({"command": "rm -rf build"}));
    assert_eq!(
        decision_line(&explanation),
        format!("decision: deny (rule, {rule}) - `rm -rf build` matches deny rule {rule}")
    );
    assert_eq!(
        project.run_decisions("Bash", json!({"command": "rm -rf build"})),
        vec!["deny (rule)".to_owned()]
    );
}

#[test]
fn explain_applies_the_user_settings_as_run_does() {
    let project = Project::new(json!({}));
    let user = project
        .home
        .base
        .join("home/.config/agenthub/settings.json");
    std::fs::create_dir_all(user.parent().unwrap()).unwrap();
    std::fs::write(
        &user,
        json!({"permissions": {"allow": ["Write"]}}).to_string(),
    )
    .unwrap();
    let input = json!({"file_path": "notes.txt", "content": "x"});
    let explanation = project.explain("Write", input.clone());
    assert_eq!(
        decision_line(&explanation),
        format!(
            "decision: allow (rule, Write ({user})) - Write {ws}/notes.txt matches allow rule Write ({user})",
            user = user.display(),
            ws = project.ws().display()
        )
    );
    assert_eq!(
        project.run_decisions("Write", input),
        vec!["allow (rule)".to_owned()]
    );
}

#[test]
fn explain_lists_the_hooks_that_would_run_and_runs_none() {
    let marker = |name: &str| format!("touch {name}");
    let project = Project::new(json!({"hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [
                {"type": "command", "command": marker("pre-git"), "if": "Bash(git *)"},
                {"type": "command", "command": marker("pre-npm"), "if": "Bash(npm *)"}
            ]},
            {"matcher": "Write", "hooks": [{"type": "command", "command": marker("pre-write")}]}
        ],
        "PermissionRequest": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": marker("ask")}]}
        ],
        "PostToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": marker("post")}]}
        ]
    }}));
    let trusted = project.agenthub().arg("trust").output().unwrap();
    assert_eq!(trusted.status.code(), Some(0), "{trusted:?}");
    let file = project.settings_file();
    let explanation = project.explain("Bash", json!({"command": "git push"}));
    let hooks: Vec<&str> = explanation
        .lines()
        .skip_while(|line| !line.starts_with("  hooks"))
        .take_while(|line| !line.starts_with("decision"))
        .collect();
    assert_eq!(
        hooks,
        vec![
            "  hooks that would run (not run here; they may block, rewrite or answer the call):"
                .to_owned(),
            format!("    PreToolUse: touch pre-git ({file}, index 0)"),
            format!("    PermissionRequest: touch ask ({file}, index 0)"),
            format!("    PostToolUse: touch post ({file}, index 0)"),
        ]
    );
    let created: Vec<String> = std::fs::read_dir(project.ws())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name != ".agenthub")
        .collect();
    assert_eq!(created, Vec::<String>::new());
}

#[test]
fn explain_says_a_protected_write_is_answered_only_by_the_person_for_that_call() {
    let project = Project::new(json!({}));
    let explanation = project.explain(
        "Write",
        json!({"file_path": ".git/hooks/post-merge", "content": "x"}),
    );
    let last_two: Vec<&str> = explanation.lines().rev().take(2).collect();
    assert_eq!(
        last_two,
        vec![
            "answered by: the person, for this call only (no session grant, allowed-tools or allow rule answers it)",
            format!(
                "decision: ask (protected-path) - {}/.git/hooks/post-merge is a protected path (.git): writing it needs approval in every mode but bypassPermissions",
                project.ws().display()
            )
            .as_str(),
        ]
    );
}

#[test]
fn explain_never_calls_task_read_only() {
    let project = Project::new(json!({}));
    let input = json!({"description": "d", "prompt": "p", "subagent_type": "general-purpose"});
    assert_eq!(
        decision_line(&project.explain("Task", input)),
        "decision: allow (default) - Task hands work to a subagent whose every call is decided \
         on its own; allowed by default"
    );
}
