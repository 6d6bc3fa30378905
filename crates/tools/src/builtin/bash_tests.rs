//! Tests of the Bash tool: the result format, timeouts, and that nothing the
//! command started survives a timeout, a cancellation or a dropped future.

use super::*;
use crate::Workspace;
use std::path::Path;
use tokio_util::sync::CancellationToken;

fn context(root: &Path) -> ToolContext {
    ToolContext {
        workspace: Workspace::new(root),
        cancel: CancellationToken::new(),
    }
}

fn input(command: &str, timeout: Option<u64>) -> BashInput {
    BashInput {
        command: command.to_owned(),
        timeout,
        description: None,
        dangerously_disable_sandbox: None,
    }
}

/// The text the model sees.
async fn bash(root: &Path, command: &str) -> Result<String, ToolError> {
    let output = Bash.call(input(command, None), context(root)).await?;
    Ok(output.text)
}

/// The structured value hooks see as `tool_response`.
async fn bash_structured(root: &Path, command: &str) -> Option<serde_json::Value> {
    let output = Bash.call(input(command, None), context(root)).await.ok()?;
    output.structured
}

/// A command that, unless killed first, creates `marker` after half a second
/// from a background grandchild, and waits for it.
fn late_marker_command() -> &'static str {
    "(sleep 0.5; echo alive > marker) & wait"
}

async fn assert_marker_never_appears(root: &Path) {
    tokio::time::sleep(Duration::from_millis(1000)).await;
    assert!(
        !root.join("marker").exists(),
        "a grandchild of the command survived"
    );
}

#[tokio::test]
async fn stdout_and_exit_code_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(
        bash(dir.path(), "echo hello").await,
        Ok("[exit code: 0]\nhello".to_owned())
    );
}

#[tokio::test]
async fn the_structured_output_has_claude_codes_bash_fields_and_the_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(
        bash_structured(dir.path(), "echo out; echo err >&2").await,
        Some(serde_json::json!({
            "stdout": "out",
            "stderr": "err",
            "interrupted": false,
            "isImage": false,
            "exitCode": 0,
        }))
    );
}

#[tokio::test]
async fn stderr_follows_stdout_under_its_own_heading() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(
        bash(dir.path(), "echo out; echo err >&2").await,
        Ok("[exit code: 0]\nout\n[stderr]\nerr".to_owned())
    );
}

#[tokio::test]
async fn a_non_zero_exit_is_a_failure_with_its_code_then_the_output() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(
        bash(dir.path(), "echo partial; echo failing >&2; exit 3").await,
        Err(ToolError::new("Exit code 3\npartial\n[stderr]\nfailing"))
    );
}

#[tokio::test]
async fn the_workspace_process_env_reaches_the_command() {
    let dir = tempfile::tempdir().unwrap();
    let env = crate::ProcessEnv::from_vars([("AGENTHUB_TEST_VAR".to_owned(), "set".to_owned())]);
    let workspace = Workspace::new(dir.path()).with_process_env(env);
    let context = ToolContext {
        workspace,
        cancel: CancellationToken::new(),
    };
    let output = Bash
        .call(input("echo $AGENTHUB_TEST_VAR", None), context)
        .await;
    assert_eq!(
        output.map(|output| output.text),
        Ok("[exit code: 0]\nset".to_owned())
    );
}

#[tokio::test]
async fn a_command_without_output_reports_only_its_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(
        bash(dir.path(), "true").await,
        Ok("[exit code: 0]".to_owned())
    );
}

#[tokio::test]
async fn a_command_killed_by_a_signal_says_which() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(
        bash(dir.path(), "kill -TERM $$").await,
        Err(ToolError::new("killed by signal 15"))
    );
}

#[tokio::test]
async fn the_command_runs_in_the_workspace_root() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("here.txt"), "").unwrap();
    assert_eq!(
        bash(dir.path(), "ls").await,
        Ok("[exit code: 0]\nhere.txt".to_owned())
    );
}

#[tokio::test]
async fn stdin_is_closed() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(
        bash(dir.path(), "cat; echo done").await,
        Ok("[exit code: 0]\ndone".to_owned())
    );
}

#[tokio::test]
async fn stdout_and_stderr_are_read_concurrently_so_a_full_pipe_cannot_block() {
    let dir = tempfile::tempdir().unwrap();
    let command = "head -c 300000 /dev/zero | tr '\\0' e >&2; echo done";
    assert_eq!(
        bash(dir.path(), command).await,
        Ok(format!(
            "[exit code: 0]\ndone\n[stderr]\n{}",
            "e".repeat(300_000)
        ))
    );
}

#[tokio::test]
async fn a_timeout_is_a_tool_error_naming_the_milliseconds_and_keeping_output() {
    let dir = tempfile::tempdir().unwrap();
    let result = Bash
        .call(
            input("echo started; sleep 5", Some(1000)),
            context(dir.path()),
        )
        .await;
    assert_eq!(
        result,
        Err(ToolError::new(
            "the command timed out after 1000 ms; it was killed with every process it started\nstarted"
        ))
    );
}

#[tokio::test]
async fn a_timeout_kills_the_whole_process_group_grandchildren_included() {
    let dir = tempfile::tempdir().unwrap();
    let result = Bash
        .call(input(late_marker_command(), Some(100)), context(dir.path()))
        .await;
    assert_eq!(
        result,
        Err(ToolError::new(
            "the command timed out after 100 ms; it was killed with every process it started"
        ))
    );
    assert_marker_never_appears(dir.path()).await;
}

#[tokio::test]
async fn a_cancelled_run_kills_the_whole_process_group() {
    let dir = tempfile::tempdir().unwrap();
    let context = context(dir.path());
    let cancel = context.cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        cancel.cancel();
    });
    let result = Bash.call(input(late_marker_command(), None), context).await;
    assert_eq!(
        result,
        Err(ToolError::new(
            "the command was cancelled; it was killed with every process it started"
        ))
    );
    assert_marker_never_appears(dir.path()).await;
}

#[tokio::test]
async fn dropping_the_call_future_kills_the_whole_process_group() {
    let dir = tempfile::tempdir().unwrap();
    let call = Bash.call(input(late_marker_command(), None), context(dir.path()));
    let dropped = tokio::time::timeout(Duration::from_millis(100), call).await;
    assert!(
        dropped.is_err(),
        "the command should still have been running"
    );
    assert_marker_never_appears(dir.path()).await;
}

#[tokio::test]
async fn background_processes_left_running_are_killed_when_the_command_exits() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(
        bash(dir.path(), "(sleep 0.5; echo alive > marker) & echo left").await,
        Ok("[exit code: 0]\nleft".to_owned())
    );
    assert_marker_never_appears(dir.path()).await;
}

#[test]
fn the_schema_caps_the_timeout_at_ten_minutes() {
    let definition = crate::ToolDefinition::new(Bash).unwrap();
    assert_eq!(
        definition.validate(&serde_json::json!({"command": "ls", "timeout": 600_001})),
        Err(crate::InputMismatch::Schema(vec![crate::SchemaProblem {
            path: "/timeout".to_owned(),
            expected: "600001 is greater than the maximum of 600000".to_owned(),
        }]))
    );
}

/// A context whose session saves output whole in `outputs`.
fn saving_context(root: &Path, outputs: &Path) -> ToolContext {
    ToolContext {
        workspace: Workspace::new(root).with_outputs_folder(outputs),
        cancel: CancellationToken::new(),
    }
}

#[tokio::test]
async fn output_longer_than_is_held_in_memory_is_saved_whole_in_one_file_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let outputs = dir.path().join("s.outputs");
    let command = "head -c 3145728 /dev/zero | tr '\\0' a; echo; echo oops >&2";
    let output = Bash
        .call(input(command, None), saving_context(dir.path(), &outputs))
        .await
        .unwrap();
    let whole = output.whole.clone().unwrap();
    let left: Vec<String> = std::fs::read_dir(&outputs)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let expected = format!(
        "[exit code: 0]\n{}\n\n[stderr]\noops\n",
        "a".repeat(3 << 20)
    );
    assert_eq!(
        (
            std::fs::read_to_string(&whole).unwrap() == expected,
            whole.parent() == Some(outputs.as_path()),
            left.len(),
            output.text.len() < (1 << 20) + 200,
        ),
        (true, true, 1, true)
    );
}

#[tokio::test]
async fn a_failed_commands_long_output_is_saved_whole_too() {
    let dir = tempfile::tempdir().unwrap();
    let outputs = dir.path().join("s.outputs");
    let command = "head -c 2097152 /dev/zero | tr '\\0' b; exit 3";
    let error = Bash
        .call(input(command, None), saving_context(dir.path(), &outputs))
        .await
        .unwrap_err();
    let whole = error.whole.clone().unwrap();
    let expected = format!("Exit code 3\n{}", "b".repeat(2 << 20));
    assert!(std::fs::read_to_string(&whole).unwrap() == expected);
}
