//! A long-lived bubblewrap sandbox per policy, which commands join instead of
//! starting their own: bubblewrap's set-up (a user, mount, PID and network
//! namespace, a fresh `/dev` and `/proc`, the binds) costs ~15 ms, joining
//! its namespaces with `setns` costs well under one. The sandbox holds `cat`
//! reading a pipe only this process writes, so it ends with this process.
//!
//! A sandbox is only reused while the protected entries below the writable
//! roots are the ones it bound read-only; when they changed it is replaced.
//! It must never hand out a sandbox whose keeper died, nor one built for
//! another policy, nor leave its temp folder behind when the process exits.

use crate::bwrap::{self, Layout};
use crate::join::Namespaces;
use crate::protected::Found;
use crate::proxy::{NetworkProxy, ServeGuard};
use crate::{SandboxError, SandboxPolicy};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use tempfile::TempDir;

/// A running sandbox and what commands need to join it.
pub struct Keeper {
    child: Child,
    /// Kept open: the keeper's `cat` ends when this closes.
    _stdin: ChildStdin,
    /// The namespaces to join.
    pub namespaces: Namespaces,
    /// The writable folder under which each command gets its private temp dir.
    pub temp_base: TempDir,
    /// The protected entries it binds (judged folders onto themselves,
    /// the rest read-only).
    protected_found: Found,
    /// The network proxy served on the sandbox's loopback (contract §32):
    /// its port there, and the task serving it, stopped with the keeper.
    proxy: Option<(u16, ServeGuard)>,
}

type Key = (String, PathBuf);

/// Each sandbox kept, with when it was last handed out.
type Kept = HashMap<Key, (Arc<Keeper>, u64)>;

/// The most sandboxes kept at once (a fleet worker serves many workspaces):
/// beyond it the least recently used one is dropped, which ends it once no
/// running command holds it.
const MOST_KEPT: usize = 8;

/// The sandboxes this process keeps.
static KEEPERS: OnceLock<Mutex<Kept>> = OnceLock::new();

/// Ends every kept sandbox and removes its temp folder; registered with
/// `atexit` when the first is kept, since statics are never dropped. A lock
/// held elsewhere (a thread still starting a command) leaves them to the
/// kernel: the keepers end with the process anyway.
extern "C" fn end_kept_sandboxes() {
    if let Some(Ok(mut kept)) = KEEPERS.get().map(Mutex::try_lock) {
        kept.clear();
    }
}

/// The keeper for `policy` with `protected_found` bound read-only, started
/// (under the seccomp filter `filter` makes) when there is none that fits
/// (or the old one died).
pub fn keeper(
    bwrap: &Path,
    policy: &SandboxPolicy,
    protected_found: &Found,
    filter: impl FnOnce() -> Result<OwnedFd, SandboxError>,
) -> Result<Arc<Keeper>, SandboxError> {
    static USES: AtomicU64 = AtomicU64::new(0);
    let now = USES.fetch_add(1, Ordering::Relaxed);
    let keepers = KEEPERS.get_or_init(|| {
        // SAFETY: registers a plain function with no arguments; it runs once, at exit.
        unsafe { libc::atexit(end_kept_sandboxes) };
        Mutex::default()
    });
    let mut keepers = keepers.lock().unwrap_or_else(PoisonError::into_inner);
    let key = (format!("{policy:?}"), bwrap.to_path_buf());
    if let Some((existing, used)) = keepers.get_mut(&key) {
        if existing.protected_found == *protected_found && existing.alive() {
            *used = now;
            return Ok(existing.clone());
        }
    }
    let started = Arc::new(start(bwrap, policy, protected_found, &filter()?)?);
    keepers.insert(key, (started.clone(), now));
    while keepers.len() > MOST_KEPT {
        let oldest = keepers
            .iter()
            .min_by_key(|(_, (_, used))| *used)
            .map(|(key, _)| key.clone());
        match oldest {
            Some(oldest) => keepers.remove(&oldest),
            None => break,
        };
    }
    Ok(started)
}

impl Keeper {
    /// The port the network proxy listens on inside the sandbox, if it has one.
    pub fn proxy_port(&self) -> Option<u16> {
        self.proxy.as_ref().map(|(port, _)| *port)
    }

    fn alive(&self) -> bool {
        // SAFETY: kill with signal 0 only checks that the process exists.
        unsafe { libc::kill(self.child.id() as libc::pid_t, 0) == 0 }
    }
}

impl Drop for Keeper {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(
    bwrap: &Path,
    policy: &SandboxPolicy,
    protected_found: &Found,
    filter: &OwnedFd,
) -> Result<Keeper, SandboxError> {
    let failed =
        |what: &str, error: std::io::Error| SandboxError::Keeper(format!("{what}: {error}"));
    let temp_base = tempfile::Builder::new()
        .prefix("agenthub-sandbox-")
        .tempdir()
        .map_err(|error| SandboxError::TempDir(error.to_string()))?;
    let (mut info_read, info_write) = std::io::pipe().map_err(|error| failed("pipe", error))?;
    let info_fd = OwnedFd::from(info_write);
    let layout = Layout {
        cwd: Path::new("/"),
        tmp: temp_base.path(),
        protected_found,
        seccomp_fd: filter.as_raw_fd(),
    };
    let mut args = bwrap::arguments(policy, &layout);
    args.retain(|arg| arg != "--die-with-parent");
    let separator = args.len() - 1;
    args.insert(separator, "--info-fd".into());
    args.insert(separator + 1, info_fd.as_raw_fd().to_string().into());
    let mut command = Command::new(bwrap);
    command
        .args(args)
        .arg("cat")
        // The keeper shares the sandbox's PID namespace with every command:
        // its environment, readable in /proc, must hold no secret.
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let inherited = [info_fd.as_raw_fd(), filter.as_raw_fd()];
    // SAFETY: the closure only makes fcntl calls, in the child before exec.
    unsafe {
        use std::os::unix::process::CommandExt;
        command.pre_exec(move || crate::join::inherit_fds(&inherited));
    }
    let mut child = command.spawn().map_err(|error| failed("spawn", error))?;
    drop(info_fd);
    let info = read_info(&mut info_read, b'}').map_err(|error| failed("read --info-fd", error))?;
    let Some(pid) = child_pid(&info) else {
        let _ = child.kill();
        let _ = child.wait();
        return Err(SandboxError::Keeper(format!(
            "bubblewrap reported no child pid: {info:?}"
        )));
    };
    // bubblewrap reports the pid before it builds the sandbox: only the
    // keeper's `cat` echoing a line says the mounts are in place, the root
    // is the sandbox's and the keeper is `cat` itself (no shell that has yet
    // to exec it while the first command joins).
    let mut stdin = child
        .stdin
        .take()
        .ok_or_else(|| SandboxError::Keeper("the keeper has no stdin".to_owned()))?;
    stdin
        .write_all(b"ready\n")
        .and_then(|()| stdin.flush())
        .map_err(|error| failed("ask the keeper whether it is ready", error))?;
    let ready = child
        .stdout
        .take()
        .map(|mut stdout| read_info(&mut stdout, b'\n'))
        .transpose()
        .map_err(|error| failed("wait for the sandbox", error))?;
    if ready.as_deref() != Some("ready\n") {
        let _ = child.kill();
        let _ = child.wait();
        return Err(SandboxError::Keeper(format!(
            "the sandbox did not come up (it said {ready:?})"
        )));
    }
    let namespaces = Namespaces::open(pid, policy.network)
        .map_err(|error| failed("open the sandbox's namespaces", error))?;
    let mut keeper = Keeper {
        child,
        _stdin: stdin,
        namespaces,
        temp_base,
        protected_found: protected_found.clone(),
        proxy: None,
    };
    if let Some(proxy) = policy.proxied() {
        let served = serve_proxy(proxy, &keeper.namespaces)
            .map_err(|error| failed("serve the network proxy inside the sandbox", error))?;
        keeper.proxy = Some(served);
    }
    Ok(keeper)
}

/// Serves `proxy` on a listener made on the sandbox's own loopback, on
/// the current tokio runtime.
fn serve_proxy(
    proxy: &NetworkProxy,
    namespaces: &Namespaces,
) -> std::io::Result<(u16, ServeGuard)> {
    let netns = namespaces
        .network()
        .ok_or_else(|| std::io::Error::other("the sandbox shares the host's network"))?;
    let runtime = tokio::runtime::Handle::try_current().map_err(std::io::Error::other)?;
    let listener = crate::netns::loopback_listener_in(netns)?;
    let port = listener.local_addr()?.port();
    let _entered = runtime.enter();
    Ok((port, proxy.serve(listener)?))
}

/// What a pipe says up to and including `end` (bubblewrap's `--info-fd`
/// JSON up to its closing brace, the keeper's line): the writer may hold
/// the pipe open, so EOF may never come.
fn read_info(pipe: &mut impl Read, end: u8) -> std::io::Result<String> {
    let mut info = Vec::new();
    let mut chunk = [0u8; 256];
    while !info.contains(&end) {
        let read = pipe.read(&mut chunk)?;
        if read == 0 {
            break;
        }
        info.extend_from_slice(&chunk[..read]);
    }
    Ok(String::from_utf8_lossy(&info).into_owned())
}

/// `"child-pid": N` from bubblewrap's `--info-fd` JSON.
fn child_pid(info: &str) -> Option<u32> {
    let after = info.split("\"child-pid\"").nth(1)?;
    let digits: String = after
        .trim_start_matches([':', ' '])
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_child_pid_is_read_from_bubblewrap_s_info() {
        assert_eq!(
            child_pid("{\n    \"child-pid\": 4242,\n    \"cgroup-namespace\": 1\n}\n"),
            Some(4242)
        );
    }
}
