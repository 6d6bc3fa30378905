//! Claude Code's command line through the real binary (contract §29):
//! `-p`/`--print`, a prompt with no subcommand when stdin or stdout is not a
//! terminal, `echo TASK | agenthub`, and Claude Code's spellings of run's
//! flags (`--allowedTools`, `--disallowedTools`, `--add-dir`,
//! `--dangerously-skip-permissions`, `--settings JSON`, `--session-id`,
//! `-c`, `-r`), each doing what AgentHub's own flag does. Also: a
//! `--workspace` that does not exist is refused and nothing is created.

use crate::support::call;
use crate::support::home::Home;
use serde_json::{json, Value};
use std::path::Path;

/// A script writing `file_path` with Write, then answering "done".
fn write_script(file_path: &str) -> Value {
    json!({"turns": [
        {"content": "writing", "tool_calls": [
            call("c1", "Write", json!({"file_path": file_path, "content": "x"}))]},
        {"content": "done"}
    ]})
}

/// Writes `script` beside the workspace and returns its path.
fn script_file(home: &Home, script: &Value) -> String {
    let path = home.base.join("script.json");
    std::fs::write(&path, script.to_string()).unwrap();
    path.display().to_string()
}

fn answer_script() -> Value {
    json!({"turns": [{"content": "the build is fixed"}]})
}

/// The JSON report a command printed.
fn report(output: &std::process::Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|_| {
        panic!(
            "no JSON report; stderr: {}",
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

/// The prompt of the transcript's first user message.
fn first_prompt(home: &Home, report: &Value) -> String {
    let path = report["transcript_path"].as_str().unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .find(|record| record["type"] == "user")
        .map(|record| {
            record["message"]["content"]
                .as_str()
                .unwrap_or("")
                .to_owned()
        })
        .unwrap_or_else(|| panic!("no user record in {text} ({})", home.base.display()))
}

#[test]
fn print_flag_runs_the_prompt_argument_headless() {
    let home = Home::new();
    let script = script_file(&home, &answer_script());
    home.agenthub()
        .args(["-p", "fix the build", "--script", &script])
        .assert()
        .code(0)
        .stdout("the build is fixed\n");
}

#[test]
fn print_flag_takes_a_one_word_prompt() {
    let home = Home::new();
    let script = script_file(&home, &answer_script());
    home.agenthub()
        .args(["--print", "hello", "--script", &script])
        .assert()
        .code(0)
        .stdout("the build is fixed\n");
}

#[test]
fn print_flag_reads_the_prompt_from_stdin() {
    let home = Home::new();
    let script = script_file(&home, &answer_script());
    let output = home
        .agenthub()
        .args(["-p", "--output-format", "json", "--script", &script])
        .write_stdin("fix the failing test\n")
        .output()
        .unwrap();
    assert_eq!(
        first_prompt(&home, &report(&output)),
        "fix the failing test"
    );
}

#[test]
fn a_task_piped_into_agenthub_alone_is_run() {
    let home = Home::new();
    let script = script_file(&home, &answer_script());
    let output = home
        .agenthub()
        .args(["--output-format", "json", "--script", &script])
        .write_stdin("echo task\n")
        .output()
        .unwrap();
    let report = report(&output);
    assert_eq!(
        (report["status"].clone(), first_prompt(&home, &report)),
        (json!("completed"), "echo task".to_owned())
    );
}

#[test]
fn a_prompt_with_no_subcommand_runs_when_stdin_is_not_a_terminal() {
    let home = Home::new();
    let script = script_file(&home, &answer_script());
    home.agenthub()
        .args(["fix the build", "--script", &script])
        .write_stdin("")
        .assert()
        .code(0)
        .stdout("the build is fixed\n");
}

#[test]
fn a_bare_word_with_no_subcommand_and_no_print_flag_is_still_refused() {
    let home = Home::new();
    home.agenthub()
        .arg("rnu")
        .write_stdin("")
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            "agenthub: `rnu` is not an agenthub command; did you mean `run`? (to send a \
             one-word prompt, write `agenthub -- rnu` or `agenthub --prompt rnu`)\n",
        );
}

#[test]
fn allowed_tools_allows_each_rule_of_a_space_and_comma_separated_list() {
    let home = Home::new();
    let script = script_file(&home, &write_script("a.txt"));
    let output = home
        .agenthub()
        .args([
            "-p",
            "write it",
            "--output-format",
            "json",
            "--script",
            &script,
        ])
        .args(["--allowedTools", "Bash(git log:*) Write,Read"])
        .output()
        .unwrap();
    let report = report(&output);
    assert_eq!(
        (
            report["permission_denials"].clone(),
            std::fs::read_to_string(home.ws().join("a.txt")).ok()
        ),
        (json!([]), Some("x".to_owned()))
    );
}

#[test]
fn allowed_tools_takes_every_argument_up_to_the_next_flag() {
    let home = Home::new();
    let script = script_file(&home, &write_script("a.txt"));
    home.agenthub()
        .args([
            "-p",
            "write it",
            "--allowed-tools",
            "Read",
            "Write",
            "--script",
            &script,
        ])
        .assert()
        .code(0);
    assert!(home.ws().join("a.txt").exists());
}

#[test]
fn disallowed_tools_denies_even_in_bypass_mode() {
    let home = Home::new();
    let script = script_file(&home, &write_script("a.txt"));
    let output = home
        .agenthub()
        .args([
            "-p",
            "write it",
            "--output-format",
            "json",
            "--script",
            &script,
        ])
        .args([
            "--dangerously-skip-permissions",
            "--disallowedTools",
            "Write",
        ])
        .output()
        .unwrap();
    let report = report(&output);
    assert_eq!(
        (
            report["permission_denials"][0]["tool_name"].clone(),
            home.ws().join("a.txt").exists()
        ),
        (json!("Write"), false)
    );
}

#[test]
fn dangerously_skip_permissions_is_bypass_permissions_mode() {
    let home = Home::new();
    let script = script_file(&home, &write_script("a.txt"));
    home.agenthub()
        .args([
            "-p",
            "write it",
            "--dangerously-skip-permissions",
            "--script",
            &script,
        ])
        .assert()
        .code(0)
        .stdout("done\n");
    assert!(home.ws().join("a.txt").exists());
}

#[test]
fn dangerously_skip_permissions_conflicts_with_another_permission_mode() {
    let home = Home::new();
    let output = home
        .agenthub()
        .args([
            "-p",
            "x",
            "--dangerously-skip-permissions",
            "--permission-mode",
            "plan",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        (output.status.code(), stderr.lines().next()),
        (
            Some(2),
            Some("error: the argument '--dangerously-skip-permissions' cannot be used with '--permission-mode <MODE>'")
        )
    );
}

#[test]
fn add_dir_lets_accept_edits_write_in_that_folder() {
    let home = Home::new();
    let other = home.base.join("other");
    std::fs::create_dir(&other).unwrap();
    let target = other.join("notes.txt");
    let script = script_file(&home, &write_script(target.to_str().unwrap()));
    home.agenthub()
        .args([
            "-p",
            "write it",
            "--permission-mode",
            "acceptEdits",
            "--script",
            &script,
        ])
        .arg("--add-dir")
        .arg(&other)
        .assert()
        .code(0);
    assert_eq!(std::fs::read_to_string(&target).ok(), Some("x".to_owned()));
}

#[test]
fn without_add_dir_accept_edits_does_not_write_outside_the_workspace() {
    let home = Home::new();
    let other = home.base.join("other");
    std::fs::create_dir(&other).unwrap();
    let target = other.join("notes.txt");
    let script = script_file(&home, &write_script(target.to_str().unwrap()));
    home.agenthub()
        .args([
            "-p",
            "write it",
            "--permission-mode",
            "acceptEdits",
            "--script",
            &script,
        ])
        .assert()
        .code(0);
    assert!(!target.exists());
}

#[test]
fn an_add_dir_that_does_not_exist_is_a_usage_error() {
    let home = Home::new();
    let missing = home.base.join("missing");
    let output = home
        .agenthub()
        .args(["-p", "x", "--script", "s.json", "--add-dir"])
        .arg(&missing)
        .output()
        .unwrap();
    assert_eq!(
        (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned()),
        (
            Some(2),
            format!(
                "agenthub: --add-dir {}: no such folder (No such file or directory (os error 2)); nothing was created\n",
                missing.display()
            )
        )
    );
}

#[test]
fn settings_given_as_json_text_apply_as_a_settings_file_does() {
    let home = Home::new();
    let script = script_file(&home, &write_script("a.txt"));
    home.agenthub()
        .args(["-p", "write it", "--script", &script])
        .args(["--settings", r#"{"permissions": {"allow": ["Write"]}}"#])
        .assert()
        .code(0);
    assert!(home.ws().join("a.txt").exists());
}

#[test]
fn malformed_settings_json_text_is_named_as_inline() {
    let home = Home::new();
    let script = script_file(&home, &answer_script());
    let output = home
        .agenthub()
        .args([
            "-p",
            "x y",
            "--script",
            &script,
            "--settings",
            r#"{"model": 5}"#,
        ])
        .output()
        .unwrap();
    assert_eq!(
        (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned()),
        (
            Some(2),
            format!(
                "agenthub: invalid settings file {}/--settings (inline JSON) at model: model must be a string\n",
                home.ws().display()
            )
        )
    );
}

#[test]
fn session_id_names_the_new_session_and_is_refused_once_taken() {
    let home = Home::new();
    let script = script_file(&home, &answer_script());
    let id = "123e4567-e89b-12d3-a456-426614174000";
    let run = || {
        home.agenthub()
            .args(["-p", "x y", "--output-format", "json", "--script", &script])
            .args(["--session-id", id])
            .output()
            .unwrap()
    };
    let first = run();
    let second = run();
    let taken = home
        .base
        .join(format!("home/.local/state/agenthub/transcripts/{id}.jsonl"));
    assert_eq!(
        (
            report(&first)["session_id"].clone(),
            second.status.code(),
            String::from_utf8_lossy(&second.stderr).into_owned()
        ),
        (
            json!(id),
            Some(2),
            format!(
                "agenthub: --session-id {id}: a session of that id exists ({}); use --resume {id} to continue it\n",
                taken.display()
            )
        )
    );
}

#[test]
fn a_session_id_that_is_not_a_uuid_is_a_usage_error() {
    let home = Home::new();
    let output = home
        .agenthub()
        .args(["-p", "x y", "--session-id", "abc"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
}

/// Runs `-p PROMPT --output-format json` with `flags`; the report.
fn print_json(home: &Home, script: &str, prompt: &str, flags: &[&str]) -> Value {
    let output = home
        .agenthub()
        .args(["-p", prompt, "--output-format", "json", "--script", script])
        .args(flags)
        .output()
        .unwrap();
    report(&output)
}

#[test]
fn short_c_continues_the_latest_session_and_short_r_resumes_one_by_id() {
    let home = Home::new();
    let script = script_file(
        &home,
        &json!({"turns": [{"content": "one"}, {"content": "two"}, {"content": "three"}]}),
    );
    let first = print_json(&home, &script, "first task", &[]);
    let id = first["session_id"].as_str().unwrap().to_owned();
    let continued = print_json(&home, &script, "second task", &["-c"]);
    let resumed = print_json(&home, &script, "third task", &["-r", &id]);
    assert_eq!(
        (
            continued["session_id"].clone(),
            resumed["session_id"].clone()
        ),
        (json!(id), json!(id))
    );
}

#[test]
fn short_r_without_an_id_lists_the_sessions_to_pick_from() {
    let home = Home::new();
    let script = script_file(&home, &answer_script());
    let first = print_json(&home, &script, "first task", &[]);
    let id = first["session_id"].as_str().unwrap();
    let output = home
        .agenthub()
        .args(["-p", "again", "--script", &script, "-r"])
        .output()
        .unwrap();
    assert_eq!(
        (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned()),
        (
            Some(2),
            format!(
                "agenthub: --resume needs a session ID here; the latest of this workspace: {id} (see `agenthub sessions list`, or use --continue)\n"
            )
        )
    );
}

#[test]
fn a_workspace_that_does_not_exist_is_refused_and_nothing_is_created() {
    let home = Home::new();
    let missing = home.base.join("typo/nested");
    let output = home
        .agenthub()
        .args(["-p", "x y", "--script", "s.json", "--workspace"])
        .arg(&missing)
        .output()
        .unwrap();
    assert_eq!(
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
            Path::new(&home.base.join("typo")).exists()
        ),
        (
            Some(2),
            format!(
                "agenthub: --workspace {}: no such folder; nothing was created\n",
                missing.display()
            ),
            false
        )
    );
}

#[test]
fn a_prompt_larger_than_the_context_window_is_refused_before_any_session() {
    let home = Home::new();
    let script = script_file(&home, &answer_script());
    let prompt = "word ".repeat(120_000);
    let transcript = home.base.join("t.jsonl");
    let output = home
        .agenthub()
        .args(["-p", "--script", &script, "--transcript"])
        .arg(&transcript)
        .write_stdin(prompt)
        .output()
        .unwrap();
    assert_eq!(
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
            transcript.exists()
        ),
        (
            Some(2),
            "agenthub: the prompt is about 150004 tokens (599999 bytes), more than the model's \
             context window of 128000 tokens; it was not sent (shorten it, or set contextWindow \
             if the model holds more)\n"
                .to_owned(),
            false
        )
    );
}

#[test]
fn a_large_prompt_within_the_settings_context_window_is_sent_whole() {
    let home = Home::new();
    let script = script_file(&home, &answer_script());
    let prompt = "word ".repeat(120_000);
    home.agenthub()
        .args([
            "-p",
            "--script",
            &script,
            "--settings",
            r#"{"contextWindow": 1000000}"#,
        ])
        .write_stdin(prompt)
        .assert()
        .code(0)
        .stdout("the build is fixed\n");
}

#[test]
fn agenthub_alone_on_a_pipe_nobody_closes_shows_the_usage_instead_of_waiting() {
    let home = Home::new();
    let mut child = home
        .process(&[])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let _held_open = child.stdin.take();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        (output.status.code(), stderr.lines().next()),
        (
            Some(2),
            Some("An agent runtime whose hooks and permissions you can trust")
        )
    );
}
