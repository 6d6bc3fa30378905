//! How a headless run starts, as Claude Code users start one: `-p`/`--print`
//! with the prompt as argument or on stdin, a prompt with no subcommand when
//! stdin is not a terminal, `echo TASK | agenthub`, a lone word still
//! refused, a pipe nobody closes, a `--workspace` that does not exist, and
//! a prompt larger than the context window.

use super::*;
use std::path::Path;

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
                "agenthub: workspace {} does not exist or cannot be read: No such file or directory (os error 2)\n",
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
