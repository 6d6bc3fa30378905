//! Terminal safety (contract §15): text from a model, a tool or a hook cannot
//! drive the terminal. The approval prompt is read through a real
//! pseudo-terminal and rendered with `vt100`, so the test sees what a person
//! sees: a command whose trailing comment holds `\r` and erase-line
//! sequences shows in full, escaped. Ctrl-C at the prompt ends the run at
//! once, without waiting for Enter. A piped stdout and the transcript keep
//! the model's text unaltered while stderr shows a hook's escaped. A command
//! padded with newlines cannot push its first line off the screen (contract §26).

use crate::support;

use serde_json::json;
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use support::*;

const ROWS: u16 = 30;
const COLS: u16 = 200;

/// `agenthub` running on a pseudo-terminal (its controlling terminal, so
/// Ctrl-C typed there is SIGINT), and everything it wrote so far.
struct OnTerminal {
    child: Child,
    master: File,
    written: Arc<Mutex<Vec<u8>>>,
}

impl OnTerminal {
    fn start(mut command: Command) -> OnTerminal {
        let (master, slave) = open_pty();
        let slave = File::from(slave);
        command
            .stdin(Stdio::from(slave.try_clone().unwrap()))
            .stdout(Stdio::from(slave.try_clone().unwrap()))
            .stderr(Stdio::from(slave));
        // SAFETY: setsid and ioctl are async-signal-safe; the child becomes
        // a session leader whose controlling terminal is the pty on fd 0.
        unsafe {
            command.pre_exec(|| {
                libc::setsid();
                libc::ioctl(0, libc::TIOCSCTTY, 0);
                Ok(())
            });
        }
        let child = command.spawn().unwrap();
        drop(command);
        let master = File::from(master);
        let written = Arc::new(Mutex::new(Vec::new()));
        let mut reader = master.try_clone().unwrap();
        let sink = written.clone();
        std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(read) = reader.read(&mut buffer) {
                if read == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&buffer[..read]);
            }
        });
        OnTerminal {
            child,
            master,
            written,
        }
    }

    /// What a person sees on the screen now.
    fn screen(&self) -> String {
        let mut parser = vt100::Parser::new(ROWS, COLS, 0);
        parser.process(&self.written.lock().unwrap());
        parser.screen().contents()
    }

    fn wait_for_screen(&self, text: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "never shown: {text:?}; screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn type_keys(&mut self, keys: &[u8]) {
        self.master.write_all(keys).unwrap();
    }

    /// The exit code, if the process ends within `limit`.
    fn exit_within(&mut self, limit: Duration) -> Option<i32> {
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }
}

impl Drop for OnTerminal {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn open_pty() -> (OwnedFd, OwnedFd) {
    let (mut master, mut slave) = (0, 0);
    let size = libc::winsize {
        ws_row: ROWS,
        ws_col: COLS,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: openpty writes two fds into the given ints; the name and
    // termios pointers may be null; `size` outlives the call.
    let result = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            &size,
        )
    };
    assert_eq!(result, 0, "openpty failed");
    // SAFETY: both fds were just opened and are owned by nobody else.
    unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) }
}

/// `agenthub run` in default mode (Bash asks), on the case's script.
fn asking_run(case: &Case) -> Command {
    let mut command = Command::new(assert_cmd::cargo::cargo_bin("agenthub"));
    command
        .arg("run")
        .arg("--script")
        .arg(case.script_path())
        .arg("--workspace")
        .arg(case.workspace())
        .arg("--transcript")
        .arg(case.transcript_path())
        .arg(PROMPT)
        .env("XDG_CONFIG_HOME", case.workspace().join("../config"))
        .env("XDG_STATE_HOME", case.workspace().join("../state"));
    command
}

fn bash_call_script(case: &Case, command: &str) {
    case.script(json!([
        {"content": "running", "tool_calls": [call("call_1", "Bash", json!({"command": command}))]},
        {"content": "done"}
    ]));
}

const PROMPT_END: &str = "[n] deny";

#[test]
fn the_approval_prompt_shows_a_spoofing_command_in_full_with_its_control_characters_escaped() {
    let case = Case::new();
    bash_call_script(&case, "touch PWNED # \r\x1b[1A\x1b[2K  command: git status");
    let mut terminal = OnTerminal::start(asking_run(&case));
    let screen = terminal.wait_for_screen(PROMPT_END);
    let shown: Vec<&str> = screen
        .lines()
        .filter(|line| line.trim_start().starts_with("command:"))
        .collect();
    assert_eq!(
        shown,
        vec!["  command: touch PWNED # \\x0d\\x1b[1A\\x1b[2K  command: git status"],
        "screen:\n{screen}"
    );
    terminal.type_keys(b"n");
    assert_eq!(terminal.exit_within(Duration::from_secs(30)), Some(0));
    assert!(!case.workspace().join("PWNED").exists());
}

/// The screen's lines from the `[Permission]` line to the question.
fn question_block(screen: &str) -> Vec<String> {
    let lines: Vec<&str> = screen.lines().map(str::trim_end).collect();
    let start = lines
        .iter()
        .rposition(|line| line.starts_with("[Permission] Bash needs approval"))
        .unwrap_or_else(|| panic!("no [Permission] line on the screen:\n{screen}"));
    let end = lines
        .iter()
        .rposition(|line| line.contains(PROMPT_END))
        .unwrap();
    lines[start..=end]
        .iter()
        .map(|line| line.to_string())
        .collect()
}

#[test]
fn a_command_padded_with_newlines_shows_every_line_marked_and_its_count_at_the_question() {
    let case = Case::new();
    let forged =
        "[Permission] Bash needs approval (default): Bash asks by default\n  command: git status";
    let command = format!("touch PWNED{}{forged}", "\n".repeat(41));
    bash_call_script(&case, &command);
    let mut terminal = OnTerminal::start(asking_run(&case));
    let screen = terminal.wait_for_screen(PROMPT_END);
    let block = question_block(&screen);
    assert_eq!(
        block[1..],
        [
            "  command:",
            "    (43 lines, each marked │)",
            "     1 │ touch PWNED",
            "       ┆ … 40 blank lines (2–41)",
            "    42 │ [Permission] Bash needs approval (default): Bash asks by default",
            "    43 │   command: git status",
            "(the command has 43 lines) [y] allow once  [a] allow Bash(the 43-line command above) for this session  [n] deny",
        ],
        "screen:\n{screen}"
    );
    terminal.type_keys(b"n");
    assert_eq!(terminal.exit_within(Duration::from_secs(30)), Some(0));
    assert!(!case.workspace().join("PWNED").exists());
}

#[test]
fn the_run_approval_takes_the_interactive_sessions_keys_and_a_grants_for_the_run() {
    let case = Case::new();
    let touch = |id: &str| call(id, "Bash", json!({"command": "touch asked"}));
    case.script(json!([
        {"content": "first", "tool_calls": [touch("call_1")]},
        {"content": "second", "tool_calls": [touch("call_2")]},
        {"content": "done"}
    ]));
    let mut terminal = OnTerminal::start(asking_run(&case));
    let screen = terminal.wait_for_screen(PROMPT_END);
    assert!(
        screen.contains("[y] allow once  [a] allow Bash(touch asked) for this session  [n] deny"),
        "{screen}"
    );
    terminal.type_keys(b"a");
    assert_eq!(terminal.exit_within(Duration::from_secs(30)), Some(0));
    assert!(case.workspace().join("asked").exists());
    assert_eq!(terminal.screen().matches(PROMPT_END).count(), 1);
}

#[test]
fn ctrl_c_at_the_approval_prompt_ends_the_run_without_waiting_for_enter() {
    let case = Case::new();
    bash_call_script(&case, "touch asked");
    let mut terminal = OnTerminal::start(asking_run(&case));
    terminal.wait_for_screen(PROMPT_END);
    terminal.type_keys(b"\x03");
    assert_eq!(terminal.exit_within(Duration::from_secs(10)), Some(130));
    let outcome = case.outcome();
    assert_eq!(
        (&outcome["type"], &outcome["status"]),
        (&json!("outcome"), &json!("cancelled"))
    );
    assert!(!case.workspace().join("asked").exists());
}

#[test]
fn a_hook_message_on_stderr_is_escaped_while_piped_stdout_and_the_transcript_keep_the_answer_raw() {
    let case = Case::new();
    let answer = "answer \x1b]52;c;cHduZWQ=\x07 \x1b[2J done";
    case.script(json!([
        {"content": "running", "tool_calls": [call("call_1", "Echo", json!({"text": "x"}))]},
        {"content": answer}
    ]));
    let hook = case.workspace().join("../hook.sh");
    std::fs::write(
        &hook,
        "#!/bin/sh\necho '{\"systemMessage\": \"hi \\u001b]52;c;cHduZWQ=\\u0007\"}'\n",
    )
    .unwrap();
    std::fs::set_permissions(&hook, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let settings = case.workspace().join("../settings.json");
    std::fs::write(
        &settings,
        json!({"hooks": {"PreToolUse": [{"matcher": "Echo", "hooks": [
            {"type": "command", "command": hook.display().to_string()}]}]}})
        .to_string(),
    )
    .unwrap();
    let output = asking_run(&case)
        .arg("--settings")
        .arg(&settings)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(
        (
            String::from_utf8(output.stdout).unwrap(),
            stderr.contains('\x1b'),
            stderr.contains("hi \\x1b]52;c;cHduZWQ=\\x07"),
            case.messages().last().unwrap()["message"]["content"].clone(),
        ),
        (format!("{answer}\n"), false, true, json!(answer)),
        "stderr: {stderr}"
    );
}
