//! A real terminal for end-to-end tests of what a person sees: the binary
//! runs in a pseudo-terminal (`expectrl`), and everything it writes is fed
//! to a terminal emulator (`vt100`), so a test asserts the rendered screen —
//! after cursor moves and erases — not the raw bytes.

use expectrl::process::unix::{PtyStream, UnixProcess};
use expectrl::Session;
use std::io::{ErrorKind, Write};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// How long a test waits for text to appear before it fails.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// The emulated screen's size.
const ROWS: u16 = 40;
const COLUMNS: u16 = 120;

/// `agenthub` running in a pseudo-terminal, and the screen it drew.
pub struct Terminal {
    session: Session<UnixProcess, PtyStream>,
    screen: vt100::Parser,
    /// Every byte the program wrote, for asserting on escape sequences.
    pub raw: Vec<u8>,
    /// How many prompts the screen showed when the test last waited for one.
    prompts_seen: usize,
}

impl Terminal {
    /// Starts `agenthub ARGS` in `workspace` with `home` as HOME and state,
    /// and `extra` environment variables.
    pub fn start(workspace: &Path, home: &Path, args: &[&str], extra: &[(&str, &str)]) -> Terminal {
        let mut command = Command::new(env!("CARGO_BIN_EXE_agenthub"));
        command
            .args(args)
            .current_dir(workspace)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", home)
            .env("XDG_CONFIG_HOME", home.join(".config"))
            .env("XDG_STATE_HOME", home.join(".local/state"))
            .env("TERM", "xterm-256color")
            .env("COLUMNS", COLUMNS.to_string())
            .env("LINES", ROWS.to_string());
        for (key, value) in extra {
            command.env(key, value);
        }
        let mut session = Session::spawn(command).expect("spawn agenthub in a pty");
        session
            .get_process_mut()
            .set_window_size(COLUMNS, ROWS)
            .expect("window size");
        Terminal {
            session,
            screen: vt100::Parser::new(ROWS, COLUMNS, 0),
            raw: Vec::new(),
            prompts_seen: 0,
        }
    }

    /// Types `text` and Enter.
    pub fn type_line(&mut self, text: &str) {
        self.send(text.as_bytes());
        self.send(b"\r");
    }

    /// Sends raw key bytes (`b"\x03"` is Ctrl-C, `b"\x04"` Ctrl-D).
    pub fn send(&mut self, bytes: &[u8]) {
        self.session.write_all(bytes).expect("write to the pty");
        self.session.flush().expect("flush the pty");
    }

    /// The screen as text, trailing blanks trimmed.
    pub fn contents(&mut self) -> String {
        self.drain();
        self.screen.screen().contents()
    }

    /// Waits until the screen shows `needle`; panics with the screen when it never does.
    pub fn wait_for(&mut self, needle: &str) -> String {
        self.wait_until(|screen| screen.contains(needle), needle)
    }

    /// Waits until the screen shows `needle` `count` times.
    pub fn wait_for_count(&mut self, needle: &str, count: usize) -> String {
        self.wait_until(|screen| screen.matches(needle).count() >= count, needle)
    }

    /// Waits until everything the program wrote holds `needle` `count`
    /// times, however many of them scrolled off the screen (a question put
    /// once per call, say).
    pub fn wait_for_written_count(&mut self, needle: &str, count: usize) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let screen = self.contents();
            let written = String::from_utf8_lossy(&self.raw).matches(needle).count();
            if written >= count {
                return screen;
            }
            if Instant::now() > deadline {
                panic!("the program never wrote {needle:?} {count} times ({written}); the screen:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn wait_until(&mut self, done: impl Fn(&str) -> bool, what: &str) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let screen = self.contents();
            if done(&screen) {
                return screen;
            }
            if Instant::now() > deadline {
                panic!("the screen never showed {what:?}; it shows:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until the screen shows a new empty prompt (`>` on the last
    /// line, more prompts than at the last wait): the session is ready for
    /// the next input. Input typed before the prompt is drawn may be lost.
    pub fn wait_for_prompt(&mut self) -> String {
        let seen = self.prompts_seen;
        let screen = self.wait_until(
            |screen| {
                prompts(screen) > seen
                    && screen.trim_end().lines().last().map(str::trim_end) == Some(">")
            },
            "a new empty prompt",
        );
        self.prompts_seen = prompts(&screen);
        screen
    }

    /// Waits for the program to exit and returns its exit code.
    pub fn wait_exit(&mut self) -> i32 {
        let deadline = Instant::now() + PATIENCE;
        loop {
            self.drain();
            match self.session.get_process().status() {
                Ok(expectrl::process::unix::WaitStatus::Exited(_, code)) => return code,
                Ok(expectrl::process::unix::WaitStatus::StillAlive) | Err(_)
                    if Instant::now() < deadline =>
                {
                    std::thread::sleep(Duration::from_millis(20))
                }
                other => panic!("agenthub did not exit: {other:?}\n{}", self.contents()),
            }
        }
    }

    fn drain(&mut self) {
        let mut buffer = [0u8; 8192];
        loop {
            match self.session.try_read(&mut buffer) {
                Ok(0) => return,
                Ok(read) => {
                    self.screen.process(&buffer[..read]);
                    self.raw.extend_from_slice(&buffer[..read]);
                }
                Err(error) if error.kind() == ErrorKind::WouldBlock => return,
                Err(_) => return,
            }
        }
    }
}

/// How many lines of `screen` are prompts.
fn prompts(screen: &str) -> usize {
    screen.lines().filter(|line| line.starts_with('>')).count()
}
