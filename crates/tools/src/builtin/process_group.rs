//! Runs a command in its own process group and collects its output, so that a
//! timeout, a cancelled run or a dropped future kills the command together with
//! every process it started (`sleep 100 &` included).
//!
//! It must never leave a process of the group behind: the whole group gets
//! SIGKILL when the command ends (background leftovers), times out, is
//! cancelled, or when this future is dropped mid-way. A stream longer than
//! what is kept in memory is written whole to a file when a folder is given
//! (contract §31), never cut.

use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use thiserror::Error;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::Command;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

/// How long output is still read after the command ended and its group was
/// killed; only a process that left the group can hold the pipes longer.
const DRAIN_GRACE: Duration = Duration::from_millis(500);
/// Bytes kept per stream; the rest is counted, not stored.
const MAX_CAPTURE_BYTES: usize = 1 << 20;

/// How the command ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupEnd {
    Exited(ExitStatus),
    TimedOut,
    Cancelled,
}

/// What one stream produced: the kept bytes, how many more there were, and
/// the file holding the whole stream when it was longer than the kept bytes
/// and [`Limits::spill`] named a folder.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Captured {
    pub bytes: Vec<u8>,
    pub dropped: usize,
    pub whole: Option<PathBuf>,
}

#[derive(Debug)]
pub struct GroupOutput {
    pub end: GroupEnd,
    pub stdout: Captured,
    pub stderr: Captured,
}

#[derive(Debug, Error)]
pub enum GroupError {
    #[error("cannot start the command: {0}")]
    Spawn(String),
    #[error("cannot wait for the command: {0}")]
    Wait(String),
}

/// Limits of one run.
#[derive(Debug, Clone)]
pub struct Limits {
    pub timeout: Duration,
    pub cancel: CancellationToken,
    /// Where a stream longer than the kept bytes is written whole.
    pub spill: Option<PathBuf>,
}

/// Spawns `command` (stdin null, stdout and stderr piped) as the leader of a
/// new process group and waits for it, the timeout, or the cancellation.
pub async fn run_in_group(mut command: Command, limits: Limits) -> Result<GroupOutput, GroupError> {
    command
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command
        .spawn()
        .map_err(|error| GroupError::Spawn(error.to_string()))?;
    let pgid = child
        .id()
        .and_then(|pid| libc::pid_t::try_from(pid).ok())
        .ok_or_else(|| GroupError::Spawn("the command has no process id".to_owned()))?;
    let mut guard = GroupGuard::new(pgid);
    let stdout = guard.pump(child.stdout.take(), spill_file(&limits.spill, "stdout"));
    let stderr = guard.pump(child.stderr.take(), spill_file(&limits.spill, "stderr"));
    let end = tokio::select! {
        biased;
        () = limits.cancel.cancelled() => GroupEnd::Cancelled,
        () = tokio::time::sleep(limits.timeout) => GroupEnd::TimedOut,
        status = child.wait() => GroupEnd::Exited(status.map_err(|error| GroupError::Wait(error.to_string()))?),
    };
    guard.kill();
    guard.drain().await;
    // Reap the killed leader now rather than leaving it to tokio's orphan queue.
    if !matches!(end, GroupEnd::Exited(_)) {
        let _reaped = tokio::time::timeout(DRAIN_GRACE, child.wait()).await;
    }
    Ok(GroupOutput {
        end,
        stdout: take(&stdout),
        stderr: take(&stderr),
    })
}

type SharedCapture = Arc<Mutex<Captured>>;

fn take(shared: &SharedCapture) -> Captured {
    std::mem::take(&mut *shared.lock().unwrap_or_else(PoisonError::into_inner))
}

/// Owns the process group: kills it once, at the latest when dropped, and
/// stops the output readers.
struct GroupGuard {
    pgid: libc::pid_t,
    killed: bool,
    readers: Vec<JoinHandle<()>>,
}

impl GroupGuard {
    fn new(pgid: libc::pid_t) -> Self {
        GroupGuard {
            pgid,
            killed: false,
            readers: Vec::new(),
        }
    }

    /// Reads `pipe` to its end in a task, into a shared capture (and
    /// `spill`, once it is longer than the kept bytes).
    fn pump(
        &mut self,
        pipe: Option<impl AsyncRead + Unpin + Send + 'static>,
        spill: Option<PathBuf>,
    ) -> SharedCapture {
        let shared = SharedCapture::default();
        if let Some(pipe) = pipe {
            self.readers
                .push(tokio::spawn(read_into(pipe, shared.clone(), spill)));
        }
        shared
    }

    fn kill(&mut self) {
        if !self.killed {
            self.killed = true;
            // SAFETY: killpg has no memory-safety preconditions; `pgid` is the
            // group this guard created, whose leader we spawned.
            unsafe {
                libc::killpg(self.pgid, libc::SIGKILL);
            }
        }
    }

    /// Waits up to [`DRAIN_GRACE`] for the readers to reach end of file.
    async fn drain(&mut self) {
        let readers = std::mem::take(&mut self.readers);
        let aborts: Vec<_> = readers.iter().map(JoinHandle::abort_handle).collect();
        let all = futures::future::join_all(readers);
        if tokio::time::timeout(DRAIN_GRACE, all).await.is_err() {
            aborts.iter().for_each(tokio::task::AbortHandle::abort);
        }
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        self.kill();
        self.readers.iter().for_each(JoinHandle::abort);
    }
}

async fn read_into(
    mut pipe: impl AsyncRead + Unpin,
    shared: SharedCapture,
    mut spill: Option<PathBuf>,
) {
    let mut buffer = [0u8; 8192];
    let mut file: Option<tokio::fs::File> = None;
    while let Ok(read) = pipe.read(&mut buffer).await {
        if read == 0 {
            break;
        }
        let (kept, start) = {
            let mut capture = shared.lock().unwrap_or_else(PoisonError::into_inner);
            let room = MAX_CAPTURE_BYTES.saturating_sub(capture.bytes.len());
            let kept = room.min(read);
            capture.bytes.extend_from_slice(&buffer[..kept]);
            capture.dropped += read - kept;
            let start = (kept < read && spill.is_some()).then(|| capture.bytes.clone());
            (kept, start)
        };
        if let Some(path) = start.as_ref().and_then(|_| spill.take()) {
            file = open_spill(&path, start.as_deref().unwrap_or_default()).await;
            if file.is_some() {
                let mut capture = shared.lock().unwrap_or_else(PoisonError::into_inner);
                capture.whole = Some(path);
            }
        }
        if let Some(open) = file.as_mut() {
            let rest = if kept < read {
                &buffer[kept..read]
            } else {
                &[][..]
            };
            if open.write_all(rest).await.is_err() {
                file = None;
                let mut capture = shared.lock().unwrap_or_else(PoisonError::into_inner);
                capture.whole = None;
            }
        }
    }
    if let Some(mut open) = file {
        let _ = open.flush().await;
    }
}

/// A new file for one stream in `folder` (`0600` in a `0700` folder: output
/// may hold what only its user should read), named by the run and `stream`.
fn spill_file(folder: &Option<PathBuf>, stream: &str) -> Option<PathBuf> {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    let folder = folder.as_ref()?;
    let number = NEXT.fetch_add(1, Ordering::Relaxed);
    Some(folder.join(format!("bash-{}-{number}-{stream}.txt", std::process::id())))
}

/// Creates the spill file with the bytes kept so far; `None` when it cannot.
async fn open_spill(path: &Path, start: &[u8]) -> Option<tokio::fs::File> {
    let folder = path.parent()?;
    tokio::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(folder)
        .await
        .ok()?;
    let mut file = tokio::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .await
        .ok()?;
    file.write_all(start).await.ok()?;
    Some(file)
}
