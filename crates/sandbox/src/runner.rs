//! Turns a program and its arguments into a [`tokio::process::Command`] that
//! runs confined by a [`SandboxPolicy`]: under bubblewrap where it is
//! installed and works, else under Landlock + seccomp applied in the child,
//! else not at all — an error that says how to fix it. It must never hand
//! back an unconfined command unless the policy's mode is `off`.
//!
//! The caller spawns the command (in its own process group, so a timeout or a
//! cancel kills everything it started) and keeps the [`SandboxedCommand`]
//! alive until the command ended: it owns the private temp dir.

use crate::landlock::ChildRestriction;
use crate::{bwrap, SandboxMode, SandboxPolicy};
use std::collections::HashMap;
use std::ffi::OsStr;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus, Stdio};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};
use tempfile::TempDir;
use thiserror::Error;
use tokio::process::Command;

/// Why a command cannot be run in its sandbox.
#[derive(Debug, Error)]
pub enum SandboxError {
    /// Neither bubblewrap nor Landlock works here.
    #[error(
        "the command was not run: no sandbox works on this machine (bubblewrap: {bwrap}; \
         Landlock: not available in this kernel). Install bubblewrap (Debian/Ubuntu: \
         `apt-get install bubblewrap`), or run without a sandbox with `--sandbox off` \
         (settings: \"sandbox\": {{\"mode\": \"off\"}})"
    )]
    Unavailable {
        /// What was wrong with bubblewrap.
        bwrap: String,
    },
    /// The private temp dir could not be made.
    #[error("cannot create the command's private temp dir: {0}")]
    TempDir(String),
    /// The Landlock rules could not be built.
    #[error("cannot build the Landlock sandbox: {0}")]
    Landlock(String),
    /// The seccomp network filter could not be built.
    #[error("cannot build the seccomp network filter: {0}")]
    Seccomp(String),
}

/// How a command is confined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mechanism {
    /// Under the `bwrap` at this path.
    Bubblewrap(PathBuf),
    /// Landlock + seccomp, applied by the child to itself.
    Landlock,
    /// Not at all (`--sandbox off`).
    Unconfined,
}

impl Mechanism {
    /// The command's own exit status from what the spawned process reported:
    /// bubblewrap exits with 128 + N when the command was killed by signal N,
    /// so such a code is read back as that signal.
    pub fn command_status(&self, status: ExitStatus) -> ExitStatus {
        match (self, status.code()) {
            (Mechanism::Bubblewrap(_), Some(code @ 129..=159)) => ExitStatus::from_raw(code - 128),
            _ => status,
        }
    }
}

/// A command ready to spawn, and what must live as long as it runs.
pub struct SandboxedCommand {
    /// The command: stdin, stdout and stderr are left to the caller.
    pub command: Command,
    /// How it is confined.
    pub mechanism: Mechanism,
    /// The private temp dir (the command's `TMPDIR`), removed on drop.
    pub temp_dir: Option<TempDir>,
}

/// Builds `program args…`, run in `cwd`, confined by `policy`.
pub fn sandboxed_command(
    policy: &SandboxPolicy,
    program: &str,
    args: &[&OsStr],
    cwd: &Path,
) -> Result<SandboxedCommand, SandboxError> {
    if policy.mode == SandboxMode::Off {
        let mut command = Command::new(program);
        command.args(args).current_dir(cwd);
        return Ok(SandboxedCommand {
            command,
            mechanism: Mechanism::Unconfined,
            temp_dir: None,
        });
    }
    match confining_mechanism()? {
        Mechanism::Bubblewrap(path) => under_bwrap(&path, policy, program, args, cwd),
        _ => under_landlock(policy, program, args, cwd),
    }
}

/// The mechanism a sandboxed command gets on this machine: bubblewrap where
/// it works, else Landlock; the error says why neither does and how to fix it.
pub fn confining_mechanism() -> Result<Mechanism, SandboxError> {
    let bwrap = find_bwrap();
    if let Ok(path) = bwrap {
        return Ok(Mechanism::Bubblewrap(path));
    }
    if crate::landlock::available() {
        return Ok(Mechanism::Landlock);
    }
    Err(SandboxError::Unavailable {
        bwrap: bwrap.err().unwrap_or_default(),
    })
}

fn under_bwrap(
    bwrap: &Path,
    policy: &SandboxPolicy,
    program: &str,
    args: &[&OsStr],
    cwd: &Path,
) -> Result<SandboxedCommand, SandboxError> {
    let temp_dir = private_temp_dir()?;
    let mut command = Command::new(bwrap);
    command
        .args(bwrap::arguments(policy, cwd, temp_dir.path()))
        .arg(program)
        .args(args)
        .current_dir(cwd);
    Ok(SandboxedCommand {
        command,
        mechanism: Mechanism::Bubblewrap(bwrap.to_path_buf()),
        temp_dir: Some(temp_dir),
    })
}

fn under_landlock(
    policy: &SandboxPolicy,
    program: &str,
    args: &[&OsStr],
    cwd: &Path,
) -> Result<SandboxedCommand, SandboxError> {
    let temp_dir = private_temp_dir()?;
    let mut writable = policy.writable().to_vec();
    writable.push(temp_dir.path().to_path_buf());
    let mut restriction = ChildRestriction::build(&policy.masked, &writable, policy.network)?;
    let mut command = Command::new(program);
    command
        .args(args)
        .current_dir(cwd)
        .env("TMPDIR", temp_dir.path());
    // SAFETY: the closure runs in the child between fork and exec; it only
    // makes system calls (prctl, landlock_restrict_self, seccomp) on values
    // built before the fork, and allocates nothing.
    unsafe {
        command.pre_exec(move || restriction.apply());
    }
    Ok(SandboxedCommand {
        command,
        mechanism: Mechanism::Landlock,
        temp_dir: Some(temp_dir),
    })
}

fn private_temp_dir() -> Result<TempDir, SandboxError> {
    tempfile::Builder::new()
        .prefix("agenthub-sandbox-")
        .tempdir()
        .map_err(|error| SandboxError::TempDir(error.to_string()))
}

/// The first `bwrap` on `PATH` that can build a sandbox here (checked once
/// per path and process), or why there is none.
fn find_bwrap() -> Result<PathBuf, String> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let found = std::env::split_paths(&path)
        .map(|dir| dir.join("bwrap"))
        .find(|candidate| candidate.is_file())
        .ok_or_else(|| "bwrap is not on PATH".to_owned())?;
    static PROBED: OnceLock<Mutex<HashMap<PathBuf, Result<(), String>>>> = OnceLock::new();
    let probed = PROBED.get_or_init(Mutex::default);
    let mut probed = probed.lock().unwrap_or_else(PoisonError::into_inner);
    probed
        .entry(found.clone())
        .or_insert_with(|| probe(&found))
        .clone()
        .map(|()| found)
}

/// The longest a probe may take; a bwrap that hangs (a stuck mount, a
/// suspended terminal) counts as one that does not work.
const PROBE_TIMEOUT: Duration = Duration::from_secs(10);

/// Runs `true` in the smallest sandbox of the same shape, in its own process
/// group (a Ctrl-C at the terminal is the session's to handle, not the
/// probe's) and for at most [`PROBE_TIMEOUT`].
fn probe(bwrap: &Path) -> Result<(), String> {
    let mut child = std::process::Command::new(bwrap)
        .args(["--unshare-pid", "--unshare-net", "--ro-bind", "/", "/"])
        .args(["--dev", "/dev", "--proc", "/proc", "true"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(|error| format!("{} cannot run: {error}", bwrap.display()))?;
    let status = wait_at_most(&mut child, PROBE_TIMEOUT)
        .map_err(|error| format!("{} cannot run: {error}", bwrap.display()))?;
    let Some(status) = status else {
        kill_group(&mut child);
        return Err(format!(
            "{} did not start a sandbox within {} s",
            bwrap.display(),
            PROBE_TIMEOUT.as_secs()
        ));
    };
    if status.success() {
        return Ok(());
    }
    let mut said = String::new();
    if let Some(mut stderr) = child.stderr.take() {
        let _ = stderr.read_to_string(&mut said);
    }
    Err(format!(
        "{} cannot create a sandbox here: {}",
        bwrap.display(),
        said.trim()
    ))
}

/// The child's exit status, or `None` when it still runs after `limit`.
fn wait_at_most(child: &mut Child, limit: Duration) -> std::io::Result<Option<ExitStatus>> {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        if started.elapsed() >= limit {
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Kills the child's whole process group and reaps the child.
fn kill_group(child: &mut Child) {
    if let Ok(group) = i32::try_from(child.id()) {
        // SAFETY: kill(2) with a negative pid signals that process group;
        // the child leads its own group (process_group(0)), so nothing else
        // is in it.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
    let _ = child.wait();
}
