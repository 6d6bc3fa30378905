//! Contract §29, "Read-only commands run unasked", through the real binary:
//! in a real git repository, a headless `agenthub run` in `default` mode
//! runs `git diff`, `git log --oneline`, `git branch`, `grep -rn` and `head`
//! without asking, their output reaching the transcript, while `sort -o`
//! (it writes a file) and `cat /etc/passwd` (outside the workspace) are
//! denied with the usual hint; `permissions explain` names the source.

use crate::support::{history, home};

use home::Home;
use serde_json::{json, Value};
use std::process::Command;

/// `<tmp>/ws`, a git repository on branch `main` with one commit of
/// `notes.txt` and an uncommitted change to it.
fn repository() -> Home {
    let home = Home::new();
    home.write("ws/notes.txt", "alpha\nneedle one\ngamma\ndelta\n");
    git(&home, &["init", "--quiet", "--initial-branch=main"]);
    git(&home, &["add", "notes.txt"]);
    git(&home, &["commit", "--quiet", "-m", "first notes"]);
    home.write("ws/notes.txt", "alpha\nneedle one\ngamma\ndelta\nepsilon\n");
    home
}

fn git(home: &Home, args: &[&str]) {
    let status = Command::new("git")
        .args(args)
        .current_dir(home.ws())
        .env("HOME", home.base.join("home"))
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.com")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.com")
        .status()
        .unwrap();
    assert!(status.success(), "git {args:?}");
}

fn bash(id: &str, command: &str) -> Value {
    json!({"id": id, "name": "Bash", "arguments": {"command": command}})
}

/// Runs the calls headless in `default` mode; (tool results in order, audit lines).
fn run(home: &Home, calls: Value) -> (Vec<String>, Vec<String>) {
    let script =
        json!({"turns": [{"content": "looking", "tool_calls": calls}, {"content": "done"}]});
    let script_file = home.base.join("script.json");
    std::fs::write(&script_file, script.to_string()).unwrap();
    let transcript = home.base.join("t.jsonl");
    let output = home
        .agenthub()
        .arg("run")
        .arg("--script")
        .arg(&script_file)
        .arg("--transcript")
        .arg(&transcript)
        .arg("look around")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let records: Vec<Value> = std::fs::read_to_string(&transcript)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .collect();
    let results = history::history_records(&records)
        .into_iter()
        .filter(|record| record["type"] == "message" && record["message"]["role"] == "tool")
        .map(|record| record["message"]["content"].as_str().unwrap().to_owned())
        .collect();
    let audit = String::from_utf8_lossy(&output.stderr)
        .lines()
        .filter(|line| line.starts_with("[Permission]"))
        .map(str::to_owned)
        .collect();
    (results, audit)
}

#[test]
fn read_only_commands_run_unasked_headless_and_their_output_reaches_the_transcript() {
    let home = repository();
    let (results, audit) = run(
        &home,
        json!([
            bash("c1", "git diff"),
            bash("c2", "git log --oneline"),
            bash("c3", "git branch"),
            bash("c4", "grep -rn needle notes.txt ."),
            bash("c5", "head -n 3 notes.txt"),
        ]),
    );
    assert_eq!(results.len(), 5, "{results:?}");
    assert!(results[0].contains("+epsilon"), "{}", results[0]);
    assert!(results[1].contains("first notes"), "{}", results[1]);
    assert!(results[2].contains("* main"), "{}", results[2]);
    assert!(
        results[3].contains("notes.txt:2:needle one"),
        "{}",
        results[3]
    );
    assert!(
        results[4].contains("alpha\nneedle one\ngamma"),
        "{}",
        results[4]
    );
    assert!(!results[4].contains("delta"), "{}", results[4]);
    let allowed = "[Permission] Bash: allow (read-only command) - every command is on the \
                   read-only list and reads only inside the workspace";
    assert_eq!(audit, vec![allowed.to_owned(); 5]);
}

#[test]
fn a_command_that_writes_or_reads_outside_is_denied_headless_with_the_usual_hint() {
    let home = repository();
    let (results, audit) = run(
        &home,
        json!([
            bash("c1", "sort -o out notes.txt"),
            bash("c2", "cat /etc/passwd")
        ]),
    );
    let denied =
        "Error [permission_denied]: the tool was not run: permission denied: approval required";
    assert_eq!(results, vec![denied.to_owned(); 2]);
    assert!(!home.ws().join("out").exists());
    assert_eq!(
        audit,
        [
            "[Permission] Bash: ask (shell-analysis) - `sort -o out notes.txt`: sort -o can run other programs or write files: never allowed by a rule",
            "[Permission] Bash: deny (approval) - approval required",
            "[Permission] Bash needs approval and no one can answer here: no flag allows this call (a rule, a protected path, a hook or the shell analysis asks); run agenthub in a terminal to answer",
            "[Permission] Bash: ask (default) - `cat /etc/passwd` matches no allow rule; Bash asks by default",
            "[Permission] Bash: deny (approval) - approval required",
            "[Permission] Bash needs approval and no one can answer here: re-run with --allow 'Bash(cat:*)'",
        ]
    );
}

#[test]
fn permissions_explain_names_the_read_only_command_source() {
    let home = repository();
    let output = home
        .agenthub()
        .args([
            "permissions",
            "explain",
            "Bash",
            r#"{"command":"git diff"}"#,
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.contains(
            &"  read-only command: allow - every command is on the read-only list and reads only inside the workspace"
        ),
        "{text}"
    );
    assert_eq!(
        lines.last(),
        Some(&"decision: allow (read-only command) - every command is on the read-only list and reads only inside the workspace"),
        "{text}"
    );
}
