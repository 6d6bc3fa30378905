//! Claude Code's spellings of run's flags, each doing what AgentHub's own
//! flag does: `--allowedTools` / `--disallowedTools`, `--add-dir`,
//! `--dangerously-skip-permissions`, `--settings JSON`, `--session-id`,
//! `-c` and `-r`.

use super::*;

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
    let mut command = home.agenthub();
    command
        .args(["-p", "x", "--script", "s.json", "--add-dir"])
        .arg(&missing);
    assert_eq!(
        code_and_stderr(&mut command),
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
    let mut command = home.agenthub();
    command.args([
        "-p",
        "x y",
        "--script",
        &script,
        "--settings",
        r#"{"model": 5}"#,
    ]);
    assert_eq!(
        code_and_stderr(&mut command),
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
    let mut command = home.agenthub();
    command.args(["-p", "again", "--script", &script, "-r"]);
    assert_eq!(
        code_and_stderr(&mut command),
        (
            Some(2),
            format!(
                "agenthub: --resume needs a session ID here; the latest of this workspace: {id} (see `agenthub sessions list`, or use --continue)\n"
            )
        )
    );
}
