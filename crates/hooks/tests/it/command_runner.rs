//! The command runner with real shell scripts: what reaches the hook, what comes
//! back, and that every way a hook can go wrong is data, with its process group
//! killed when AgentHub gives up on it.

use agenthub_hooks::command::runner::{run, Invocation, Program, RawRun, RunEnd, Stream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;

fn shell(dir: &Path, line: &str) -> Invocation {
    Invocation {
        program: Program::Shell(line.to_owned()),
        cwd: dir.to_path_buf(),
        env: vec![("HOOK_TEST_VAR".to_owned(), "set".to_owned())],
        stdin: b"{}".to_vec(),
        timeout: Duration::from_secs(20),
        cancel: CancellationToken::new(),
    }
}

fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::process::Command::new("chmod")
        .arg("+x")
        .arg(&path)
        .status()
        .unwrap();
    path
}

/// Whether process `pid` is still alive (zombies count as dead).
fn alive(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat.contains(") Z "),
        Err(_) => false,
    }
}

fn wait_for_file(path: &Path) -> String {
    for _ in 0..200 {
        if let Ok(text) = std::fs::read_to_string(path) {
            if !text.trim().is_empty() {
                return text.trim().to_owned();
            }
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("{} never appeared", path.display());
}

#[tokio::test]
async fn exit_code_stdout_and_stderr_come_back_as_they_were() {
    let dir = tempfile::tempdir().unwrap();
    let raw = run(shell(dir.path(), "echo out; echo err >&2; exit 3")).await;
    assert_eq!(
        (raw.end, raw.stdout, raw.stderr),
        (RunEnd::Exited(3), "out\n".to_owned(), "err\n".to_owned())
    );
}

#[tokio::test]
async fn stdin_with_quotes_command_substitution_and_newlines_arrives_intact() {
    let dir = tempfile::tempdir().unwrap();
    let payload =
        "{\"command\": \"echo \\\"hi\\\" $(rm -rf /) `id`\\nline2\"}\nsecond line 'quoted'\n";
    let mut invocation = shell(dir.path(), "cat");
    invocation.stdin = payload.as_bytes().to_vec();
    assert_eq!(run(invocation).await.stdout, payload);
}

#[tokio::test]
async fn the_hook_runs_in_the_workspace_with_the_extra_environment() {
    let dir = tempfile::tempdir().unwrap();
    let raw = run(shell(dir.path(), "pwd; echo $HOOK_TEST_VAR")).await;
    let expected = format!("{}\nset\n", dir.path().canonicalize().unwrap().display());
    assert_eq!(raw.stdout, expected);
}

#[tokio::test]
async fn a_hook_that_never_reads_a_large_stdin_still_succeeds() {
    let dir = tempfile::tempdir().unwrap();
    let mut invocation = shell(dir.path(), "echo fine");
    invocation.stdin = vec![b'x'; 4 << 20];
    let raw = run(invocation).await;
    assert_eq!(
        (raw.end, raw.stdout),
        (RunEnd::Exited(0), "fine\n".to_owned())
    );
}

#[tokio::test]
async fn exec_form_passes_arguments_without_a_shell() {
    let dir = tempfile::tempdir().unwrap();
    let mut invocation = shell(dir.path(), "");
    invocation.program = Program::Exec {
        program: "printf".to_owned(),
        args: vec!["%s|".to_owned(), "$(id)".to_owned(), "a b".to_owned()],
    };
    assert_eq!(run(invocation).await.stdout, "$(id)|a b|");
}

#[tokio::test]
async fn a_missing_script_in_shell_form_exits_127() {
    let dir = tempfile::tempdir().unwrap();
    let raw = run(shell(dir.path(), "./no-such-hook.sh")).await;
    assert_eq!(raw.end, RunEnd::Exited(127));
}

#[tokio::test]
async fn a_missing_program_in_exec_form_cannot_start() {
    let dir = tempfile::tempdir().unwrap();
    let mut invocation = shell(dir.path(), "");
    invocation.program = Program::Exec {
        program: "/no/such/program".to_owned(),
        args: Vec::new(),
    };
    assert_eq!(
        run(invocation).await.end,
        RunEnd::CannotStart("No such file or directory (os error 2)".to_owned())
    );
}

#[tokio::test]
async fn a_hook_killed_by_a_signal_reports_the_signal() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(
        run(shell(dir.path(), "kill -9 $$")).await.end,
        RunEnd::Signaled(9)
    );
}

#[tokio::test]
async fn a_hanging_hook_is_killed_at_its_timeout_with_its_grandchild() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("grandchild.pid");
    let hook = script(
        dir.path(),
        "hang.sh",
        &format!("sleep 300 &\necho $! > {}\nwait", pid_file.display()),
    );
    let mut invocation = shell(dir.path(), &hook.display().to_string());
    invocation.timeout = Duration::from_millis(500);
    let started = Instant::now();
    let raw = run(invocation).await;
    let grandchild = wait_for_file(&pid_file);
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(
        (
            raw.end,
            started.elapsed() < Duration::from_secs(5),
            alive(&grandchild)
        ),
        (RunEnd::TimedOut(Duration::from_millis(500)), true, false)
    );
}

#[tokio::test]
async fn five_megabytes_of_stdout_is_a_failure_and_the_hook_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let raw: RawRun = run(shell(dir.path(), "head -c 5000000 /dev/zero; sleep 30")).await;
    assert_eq!(
        (
            raw.end,
            raw.stdout.len(),
            started.elapsed() < Duration::from_secs(10)
        ),
        (RunEnd::OutputTooLarge(Stream::Stdout), 0, true)
    );
}

#[tokio::test]
async fn stderr_over_the_cap_is_a_failure_too() {
    let dir = tempfile::tempdir().unwrap();
    let raw = run(shell(dir.path(), "head -c 2000000 /dev/zero >&2")).await;
    assert_eq!(raw.end, RunEnd::OutputTooLarge(Stream::Stderr));
}

#[tokio::test]
async fn cancelling_the_run_kills_the_hook() {
    let dir = tempfile::tempdir().unwrap();
    let invocation = shell(dir.path(), "sleep 300");
    let cancel = invocation.cancel.clone();
    let started = Instant::now();
    let handle = tokio::spawn(run(invocation));
    tokio::time::sleep(Duration::from_millis(200)).await;
    cancel.cancel();
    let raw = handle.await.unwrap();
    assert_eq!(
        (raw.end, started.elapsed() < Duration::from_secs(5)),
        (RunEnd::Cancelled, true)
    );
}

#[tokio::test]
async fn dropping_the_run_kills_the_whole_process_group() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("child.pid");
    let hook = script(
        dir.path(),
        "hang.sh",
        &format!("sleep 300 &\necho $! > {}\nwait", pid_file.display()),
    );
    let invocation = shell(dir.path(), &hook.display().to_string());
    let dropped = tokio::time::timeout(Duration::from_millis(500), run(invocation)).await;
    let child = wait_for_file(&pid_file);
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!((dropped.is_err(), alive(&child)), (true, false));
}

#[tokio::test]
async fn a_background_process_holding_stdout_does_not_hold_the_hook_until_its_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let raw = run(shell(dir.path(), "sleep 300 & echo done")).await;
    assert_eq!(
        (
            raw.end,
            raw.stdout,
            started.elapsed() < Duration::from_secs(5)
        ),
        (RunEnd::Exited(0), "done\n".to_owned(), true)
    );
}
