//! The official Claude Agent SDKs drive `agenthub` as their Claude Code
//! (contract §30): small programs under tests/ts/agent_sdk (TypeScript,
//! `@anthropic-ai/claude-agent-sdk` pinned in tests/ts) and
//! tests/python/agent_sdk (Python, `claude-agent-sdk` pinned in
//! tests/python), each starting this package's binary through the SDK's own
//! option (`pathToClaudeCodeExecutable`, `cli_path`) with the scripted model
//! (`extraArgs: {script}`), print one JSON value — the SDK messages they saw,
//! summarized the same way in both languages — which the tests compare
//! whole. `scenarios` holds each behaviour once; `typescript` and `python`
//! run it through each SDK; `control` speaks the protocol raw, without an
//! SDK; `examples` runs examples/agent-sdk.
//!
//! Every program runs under a deadline and is killed with its process group
//! past it, so a driver that hangs fails a test instead of the suite.

mod control;
mod examples;
mod python;
mod scenarios;
mod typescript;

use crate::support::home::Home;
use serde_json::Value;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// Which SDK a program is written for.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Sdk {
    TypeScript,
    Python,
}

/// The repository's root.
pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// How long a program may take before it counts as hung.
pub(crate) const DEADLINE: Duration = Duration::from_secs(60);

impl Sdk {
    /// The command that runs `program` (a path from the repository's root)
    /// with this SDK installed where scripts/test installs it; fails naming
    /// scripts/test when it is not.
    pub(crate) fn command(self, program: &Path) -> Command {
        let root = root();
        match self {
            Sdk::TypeScript => {
                let sdk = root.join("tests/ts/node_modules/@anthropic-ai/claude-agent-sdk");
                assert!(
                    sdk.is_dir(),
                    "the Claude Agent SDK for TypeScript is not installed in tests/ts: run scripts/test"
                );
                let mut command = Command::new("node");
                command.arg(root.join(program));
                command
            }
            Sdk::Python => {
                let site = root.join("tests/python/site");
                assert!(
                    site.join("claude_agent_sdk").is_dir(),
                    "the Claude Agent SDK for Python is not installed in tests/python/site: run scripts/test"
                );
                let mut command = Command::new("python3");
                // No __pycache__ beside the programs in the repository.
                command
                    .arg(root.join(program))
                    .env("PYTHONPATH", site)
                    .env("PYTHONDONTWRITEBYTECODE", "1");
                command
            }
        }
    }

    /// `tests/ts/agent_sdk/NAME.mjs` or `tests/python/agent_sdk/NAME.py`.
    fn program(self, name: &str) -> PathBuf {
        match self {
            Sdk::TypeScript => PathBuf::from(format!("tests/ts/agent_sdk/{name}.mjs")),
            Sdk::Python => PathBuf::from(format!("tests/python/agent_sdk/{name}.py")),
        }
    }
}

/// One SDK case: a workspace and a HOME of its own ([`Home`]), scripts
/// beside the workspace.
pub(crate) struct SdkCase {
    pub(crate) home: Home,
}

impl SdkCase {
    pub(crate) fn new() -> SdkCase {
        SdkCase { home: Home::new() }
    }

    /// Writes `{"turns": turns}` as `<tmp>/NAME` and returns its path.
    pub(crate) fn script(&self, name: &str, turns: Value) -> PathBuf {
        let path = self.home.base.join(name);
        std::fs::write(&path, serde_json::json!({ "turns": turns }).to_string()).unwrap();
        path
    }

    /// `rel` inside the workspace, as tool results print it.
    pub(crate) fn path(&self, rel: &str) -> String {
        self.home.ws().join(rel).display().to_string()
    }

    /// Runs the SDK's program `name` with `args`, the scripted model on
    /// `script`, in the workspace; the JSON value it printed. Fails when the
    /// program fails or is still running after `deadline`.
    pub(crate) fn run(&self, sdk: Sdk, name: &str, script: &Path, args: &[&str]) -> Value {
        self.run_within(sdk, name, script, args, DEADLINE)
    }

    pub(crate) fn run_within(
        &self,
        sdk: Sdk,
        name: &str,
        script: &Path,
        args: &[&str],
        deadline: Duration,
    ) -> Value {
        let mut command = sdk.command(&sdk.program(name));
        command
            .args(args)
            .env("AGENTHUB_BIN", assert_cmd::cargo::cargo_bin("agenthub"))
            .env("AGENTHUB_SCRIPT", script);
        let (code, stdout, stderr) = finish(self.in_home(command), deadline);
        assert_eq!(
            code,
            Some(0),
            "{sdk:?} program {name} failed; stderr:\n{stderr}"
        );
        serde_json::from_str(stdout.trim()).unwrap_or_else(|_| {
            panic!("{sdk:?} program {name} printed no JSON value: {stdout}\nstderr:\n{stderr}")
        })
    }

    /// `command` with this case's HOME and XDG folders, in the workspace.
    pub(crate) fn in_home(&self, mut command: Command) -> Command {
        let home = self.home.base.join("home");
        command
            .env("HOME", &home)
            .env("XDG_CONFIG_HOME", home.join(".config"))
            .env("XDG_STATE_HOME", home.join(".local/state"))
            .current_dir(self.home.ws());
        command
    }

    /// The ids of the sessions whose transcripts this case's HOME holds.
    pub(crate) fn sessions(&self) -> Vec<String> {
        let folder = self
            .home
            .base
            .join("home/.local/state/agenthub/transcripts");
        let mut ids: Vec<String> = std::fs::read_dir(folder)
            .map(|entries| {
                entries
                    .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
                    .filter_map(|name| name.strip_suffix(".jsonl").map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        ids.sort();
        ids
    }
}

/// Runs `command` (its own process group, stdin closed) to its end; the exit
/// code, stdout and stderr. Past `deadline` the whole group is killed and the
/// test fails, naming what it printed so far.
pub(crate) fn finish(mut command: Command, deadline: Duration) -> (Option<i32>, String, String) {
    let mut child = command
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program starts");
    let group = i32::try_from(child.id()).unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let (done, ended) = mpsc::channel();
    std::thread::spawn(move || {
        let errors = std::thread::spawn(move || {
            let mut err = String::new();
            stderr.read_to_string(&mut err).unwrap();
            err
        });
        let mut out = String::new();
        stdout.read_to_string(&mut out).unwrap();
        let status = child.wait().unwrap();
        done.send((status.code(), out, errors.join().unwrap()))
            .unwrap();
    });
    match ended.recv_timeout(deadline) {
        Ok(finished) => finished,
        Err(_) => {
            // SAFETY: kill(2) on the process group this test started.
            unsafe { libc::kill(-group, libc::SIGKILL) };
            let (_, out, err) = ended.recv().unwrap();
            panic!("still running after {deadline:?}: killed\nstdout:\n{out}\nstderr:\n{err}")
        }
    }
}
