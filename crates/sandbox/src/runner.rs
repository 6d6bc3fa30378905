//! Turns a program and its arguments into a [`tokio::process::Command`] that
//! runs confined by a [`SandboxPolicy`]: under bubblewrap where it is
//! installed and works, else under Landlock + seccomp applied in the child,
//! else not at all — an error that says which mechanism failed, why, and how
//! to fix it. In every mode the command inherits AgentHub's environment
//! without its secrets ([`crate::environment`]). It must never hand back an
//! unconfined command unless the policy's mode is `off`.
//!
//! The caller spawns the command (in its own process group, so a timeout or a
//! cancel kills everything it started) and keeps the [`SandboxedCommand`]
//! alive until the command ended: it owns the private temp dir.

use crate::environment::command_environment;
use crate::join::Entry;
use crate::landlock::ChildRestriction;
use crate::names::ProtectedNames;
use crate::protected::{Found, Removal, Snapshot};
use crate::seccomp::{command_filter, program_bytes, Sockets};
use crate::{bwrap, SandboxMode, SandboxPolicy};
use seccompiler::BpfProgram;
use std::collections::HashMap;
use std::ffi::OsStr;
use std::io::{Read, Seek, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
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
         Landlock: {landlock}). Install bubblewrap (Debian/Ubuntu: `apt-get install \
         bubblewrap`); where it is installed but cannot create namespaces (a locked \
         container), allow unprivileged user namespaces (`sysctl -w \
         kernel.unprivileged_userns_clone=1`, or on Ubuntu `sysctl -w \
         kernel.apparmor_restrict_unprivileged_userns=0`; Docker: `--security-opt \
         seccomp=unconfined`) or use a kernel with Landlock; or run without a sandbox with \
         `--sandbox off` (settings: \"sandbox\": {{\"mode\": \"off\"}})"
    )]
    Unavailable {
        /// What was wrong with bubblewrap.
        bwrap: String,
        /// What was wrong with Landlock.
        landlock: String,
    },
    /// The long-lived sandbox could not be started (the command then gets a
    /// bubblewrap of its own).
    #[error("cannot start the session's sandbox: {0}")]
    Keeper(String),
    /// The seccomp filter could not be handed to bubblewrap.
    #[error("cannot hand the seccomp filter to bubblewrap: {0}")]
    SeccompHandoff(String),
    /// The private temp dir could not be made.
    #[error("cannot create the command's private temp dir: {0}")]
    TempDir(String),
    /// The Landlock rules could not be built.
    #[error("cannot build the Landlock sandbox: {0}")]
    Landlock(String),
    /// `sandbox.network` lists domains, and the proxy cannot be given to the
    /// command (it listens inside the session's kept sandbox).
    #[error(
        "the command was not run: sandbox.network lists domains, and their proxy needs the \
         session's kept bubblewrap sandbox, which is not available here ({0}); set \
         sandbox.network to true or false, or unset {PER_CALL_ENV}"
    )]
    Proxy(String),
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
    /// What to check once the command and everything it started ended.
    pub aftercare: Aftercare,
}

/// The protected names that stood below the writable roots before the
/// command ran (none to check when nothing is writable or the mode is `off`).
#[derive(Debug, Default)]
pub struct Aftercare {
    before: Option<(Snapshot, Vec<PathBuf>, ProtectedNames)>,
}

impl Aftercare {
    /// Removes the protected entries the command created; call it once
    /// every process the command started is gone.
    pub fn remove_new_protected(&self) -> Vec<Removal> {
        match &self.before {
            Some((snapshot, roots, names)) => snapshot.remove_new(roots, names),
            None => Vec::new(),
        }
    }

    /// The protected entries that stood below the writable roots before
    /// the command ran: judged folders (which cannot be renamed or
    /// removed), then the read-only ones.
    pub fn protected_found(&self) -> Vec<PathBuf> {
        match &self.before {
            Some((snapshot, _, _)) => {
                let found = snapshot.found();
                found.pinned.into_iter().chain(found.read_only).collect()
            }
            None => Vec::new(),
        }
    }

    fn take(policy: &SandboxPolicy) -> (Aftercare, Found) {
        let roots = policy.writable().to_vec();
        if roots.is_empty() || policy.protected_names.is_empty() {
            return (Aftercare::default(), Found::default());
        }
        let snapshot = Snapshot::take(&roots, &policy.protected_names);
        let found = snapshot.found();
        let before = Some((snapshot, roots, policy.protected_names.clone()));
        (Aftercare { before }, found)
    }
}

/// Environment switch that makes bubblewrap count as unavailable (for
/// testing the fallback on a machine that has it).
pub const DISABLE_BWRAP_ENV: &str = "AGENTHUB_SANDBOX_DISABLE_BWRAP";

/// Builds `program args…`, run in `cwd`, confined by `policy`.
pub fn sandboxed_command(
    policy: &SandboxPolicy,
    program: &str,
    args: &[&OsStr],
    cwd: &Path,
) -> Result<SandboxedCommand, SandboxError> {
    let (mut sandboxed, proxy_port) = confined(policy, program, args, cwd)?;
    sandboxed
        .command
        .env_clear()
        .envs(command_environment(std::env::vars_os(), &policy.pass_env));
    if let Some(temp_dir) = &sandboxed.temp_dir {
        sandboxed.command.env("TMPDIR", temp_dir.path());
    }
    for name in NO_PROXY_NAMES {
        sandboxed.command.env_remove(name);
    }
    if let Some(port) = proxy_port {
        sandboxed.command.envs(proxy_environment(port));
    }
    Ok(sandboxed)
}

/// The variables that would exempt hosts from the proxy: never passed
/// (contract §32: no exemption, loopback names included).
const NO_PROXY_NAMES: [&str; 2] = ["NO_PROXY", "no_proxy"];

/// What points a command's HTTP and SOCKS clients at the proxy listening
/// on `port` of its loopback.
fn proxy_environment(port: u16) -> Vec<(&'static str, String)> {
    let http = format!("http://127.0.0.1:{port}");
    let socks = format!("socks5h://127.0.0.1:{port}");
    vec![
        ("HTTP_PROXY", http.clone()),
        ("HTTPS_PROXY", http.clone()),
        ("http_proxy", http.clone()),
        ("https_proxy", http),
        ("ALL_PROXY", socks.clone()),
        ("all_proxy", socks),
    ]
}

/// The confined command, and the port of the proxy on its loopback when
/// it reaches the network through one.
fn confined(
    policy: &SandboxPolicy,
    program: &str,
    args: &[&OsStr],
    cwd: &Path,
) -> Result<(SandboxedCommand, Option<u16>), SandboxError> {
    if policy.mode == SandboxMode::Off {
        let mut command = Command::new(program);
        command.args(args).current_dir(cwd);
        let unconfined = SandboxedCommand {
            command,
            mechanism: Mechanism::Unconfined,
            temp_dir: None,
            aftercare: Aftercare::default(),
        };
        return Ok((unconfined, None));
    }
    match confining_mechanism()? {
        Mechanism::Bubblewrap(path) => under_bwrap(&path, policy, program, args, cwd),
        _ => Ok((under_landlock(policy, program, args, cwd)?, None)),
    }
}

/// The mechanism a sandboxed command gets on this machine: bubblewrap where
/// it works, else Landlock; the error says why neither does and how to fix it.
pub fn confining_mechanism() -> Result<Mechanism, SandboxError> {
    let bwrap = find_bwrap();
    if let Ok(path) = bwrap {
        return Ok(Mechanism::Bubblewrap(path));
    }
    let landlock = crate::landlock::available();
    if landlock.is_ok() {
        return Ok(Mechanism::Landlock);
    }
    Err(SandboxError::Unavailable {
        bwrap: bwrap.err().unwrap_or_default(),
        landlock: landlock.err().unwrap_or_default(),
    })
}

fn sockets(policy: &SandboxPolicy) -> Sockets {
    match (policy.network, policy.proxied()) {
        (true, _) => Sockets::Allowed,
        (false, Some(_)) => Sockets::Internet,
        (false, None) => Sockets::Refused,
    }
}

fn under_bwrap(
    bwrap: &Path,
    policy: &SandboxPolicy,
    program: &str,
    args: &[&OsStr],
    cwd: &Path,
) -> Result<(SandboxedCommand, Option<u16>), SandboxError> {
    let (aftercare, protected_found) = Aftercare::take(policy);
    let per_call = std::env::var_os(PER_CALL_ENV).is_some_and(|value| value != "0");
    let joined = if per_call {
        Err(SandboxError::Keeper(format!(
            "turned off by {PER_CALL_ENV}"
        )))
    } else {
        joined(bwrap, policy, &protected_found, program, args, cwd)
    };
    let (command, temp_dir, proxy_port) = match joined {
        Ok(joined) => joined,
        // The proxy listens inside the kept sandbox: a bubblewrap of the
        // command's own would have no way out at all.
        Err(error) if policy.proxied().is_some() => {
            return Err(SandboxError::Proxy(error.to_string()))
        }
        Err(_) => {
            let (command, temp_dir) =
                own_bwrap(bwrap, policy, &protected_found, program, args, cwd)?;
            (command, temp_dir, None)
        }
    };
    let sandboxed = SandboxedCommand {
        command,
        mechanism: Mechanism::Bubblewrap(bwrap.to_path_buf()),
        temp_dir: Some(temp_dir),
        aftercare,
    };
    Ok((sandboxed, proxy_port))
}

/// Environment switch that gives every command a bubblewrap of its own
/// instead of joining the session's (for measuring the difference).
pub const PER_CALL_ENV: &str = "AGENTHUB_SANDBOX_PER_CALL";

/// The command joining the long-lived sandbox of `policy` ([`crate::keeper`]),
/// with a private temp dir under the sandbox's writable temp folder.
fn joined(
    bwrap: &Path,
    policy: &SandboxPolicy,
    protected_found: &Found,
    program: &str,
    args: &[&OsStr],
    cwd: &Path,
) -> Result<(Command, TempDir, Option<u16>), SandboxError> {
    let keeper = crate::keeper::keeper(bwrap, policy, protected_found, || {
        filter_fd(sockets(policy))
    })?;
    let temp_dir = tempfile::Builder::new()
        .prefix("call-")
        .tempdir_in(keeper.temp_base.path())
        .map_err(|error| SandboxError::TempDir(error.to_string()))?;
    let entry = Entry::new(&keeper.namespaces, cwd, compiled_filter(sockets(policy))?)
        .map_err(|error| SandboxError::Keeper(error.to_string()))?;
    let proxy_port = keeper.proxy_port();
    let mut command = Command::new(program);
    command.args(args).current_dir(cwd);
    // SAFETY: the closure runs in the child between fork and exec; `enter`
    // only makes system calls on values prepared here (see `crate::join`).
    // It holds the keeper, whose namespace descriptors it joins.
    unsafe {
        command.pre_exec(move || {
            let _sandbox = &keeper;
            entry.enter()
        });
    }
    Ok((command, temp_dir, proxy_port))
}

/// The command under a bubblewrap of its own (~15 ms more than joining).
fn own_bwrap(
    bwrap: &Path,
    policy: &SandboxPolicy,
    protected_found: &Found,
    program: &str,
    args: &[&OsStr],
    cwd: &Path,
) -> Result<(Command, TempDir), SandboxError> {
    let temp_dir = private_temp_dir()?;
    let filter = filter_fd(sockets(policy))?;
    let layout = bwrap::Layout {
        cwd,
        tmp: temp_dir.path(),
        protected_found,
        seccomp_fd: filter.as_raw_fd(),
    };
    let mut command = Command::new(bwrap);
    command
        .args(bwrap::arguments(policy, &layout))
        .arg(program)
        .args(args)
        .current_dir(cwd);
    // SAFETY: the closure runs in the child between fork and exec and only
    // makes one fcntl call: bubblewrap must inherit the filter's descriptor.
    unsafe {
        command.pre_exec(move || crate::join::inherit_fds(&[filter.as_raw_fd()]));
    }
    Ok((command, temp_dir))
}

/// The filter, compiled once per process for each socket rule.
fn compiled_filter(sockets: Sockets) -> Result<BpfProgram, SandboxError> {
    static ALLOWED: OnceLock<BpfProgram> = OnceLock::new();
    static REFUSED: OnceLock<BpfProgram> = OnceLock::new();
    static INTERNET: OnceLock<BpfProgram> = OnceLock::new();
    let cell = match sockets {
        Sockets::Allowed => &ALLOWED,
        Sockets::Refused => &REFUSED,
        Sockets::Internet => &INTERNET,
    };
    if let Some(program) = cell.get() {
        return Ok(program.clone());
    }
    let program = command_filter(sockets)?;
    Ok(cell.get_or_init(|| program).clone())
}

/// The filter's bytes, compiled once per process for each socket rule.
fn program_for(sockets: Sockets) -> Result<&'static [u8], SandboxError> {
    static ALLOWED: OnceLock<Vec<u8>> = OnceLock::new();
    static REFUSED: OnceLock<Vec<u8>> = OnceLock::new();
    static INTERNET: OnceLock<Vec<u8>> = OnceLock::new();
    let cell = match sockets {
        Sockets::Allowed => &ALLOWED,
        Sockets::Refused => &REFUSED,
        Sockets::Internet => &INTERNET,
    };
    if let Some(bytes) = cell.get() {
        return Ok(bytes);
    }
    let bytes = program_bytes(&compiled_filter(sockets)?);
    Ok(cell.get_or_init(|| bytes))
}

/// A close-on-exec memory file holding the compiled filter, read from its
/// start: what `bwrap --seccomp FD` loads. One per command, since bubblewrap
/// reads it through the shared file offset.
fn filter_fd(sockets: Sockets) -> Result<OwnedFd, SandboxError> {
    let handoff = |error: std::io::Error| SandboxError::SeccompHandoff(error.to_string());
    let bytes = program_for(sockets)?;
    // SAFETY: memfd_create with a NUL-terminated name; the result is checked.
    let raw = unsafe { libc::memfd_create(c"agenthub-seccomp".as_ptr(), libc::MFD_CLOEXEC) };
    if raw < 0 {
        return Err(handoff(std::io::Error::last_os_error()));
    }
    // SAFETY: `raw` is a descriptor just created and owned by nobody else.
    let mut file = std::fs::File::from(unsafe { OwnedFd::from_raw_fd(raw) });
    file.write_all(bytes).map_err(handoff)?;
    file.rewind().map_err(handoff)?;
    Ok(OwnedFd::from(file))
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
    let (aftercare, _) = Aftercare::take(policy);
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
        aftercare,
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
    if std::env::var_os(DISABLE_BWRAP_ENV).is_some_and(|value| value != "0") {
        return Err(format!("turned off by {DISABLE_BWRAP_ENV}"));
    }
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
        .args(bwrap::ISOLATION)
        .args(["--unshare-net", "--ro-bind", "/", "/"])
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
