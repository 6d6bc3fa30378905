//! Runs one hook command: spawn it as the leader of its own process group,
//! write the JSON to its stdin and close it, read stdout and stderr
//! concurrently with a cap, and wait for its exit, its timeout or the run's
//! cancellation.
//!
//! The group is set with `process_group(0)`, which keeps the fast
//! `posix_spawn` path; a `setsid` in `pre_exec` would detach the hook from the
//! terminal too, but forces fork+exec and costs about 0.6 ms per hook (see
//! `benches/command_hook.rs`). stdin is the JSON pipe, so a hook has no
//! terminal input; one that opens `/dev/tty` to read is stopped by the
//! terminal and killed at its timeout.
//!
//! Every failure — cannot start, signal, timeout, too much output, cancelled —
//! comes back as data in [`RawRun`], never as a panic. On timeout, overflow,
//! cancellation, or when this future is dropped, the whole process group is
//! killed, grandchildren included. It never interprets what the hook said.

use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, ChildStdin, Command};
use tokio_util::sync::CancellationToken;

/// Bytes kept per stream; more is a hook failure.
pub const OUTPUT_CAP_BYTES: usize = 1 << 20;

/// How long output is still read after the hook exited while something it
/// started keeps the pipes open; then its process group is killed.
const DRAIN_GRACE: Duration = Duration::from_millis(200);

/// How long to wait for a killed hook to be reaped.
const REAP_GRACE: Duration = Duration::from_secs(2);

/// What to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Program {
    /// `sh -c "<command>"`.
    Shell(String),
    /// The program itself with these arguments, no shell.
    Exec {
        /// The program, looked up on `PATH` when it has no `/`.
        program: String,
        /// Its arguments, passed as they are.
        args: Vec<String>,
    },
}

/// One run of one hook.
#[derive(Debug, Clone)]
pub struct Invocation {
    /// What to run.
    pub program: Program,
    /// The directory it runs in (the workspace root for hooks).
    pub cwd: PathBuf,
    /// Added to AgentHub's own environment.
    pub env: Vec<(String, String)>,
    /// Written to its stdin, which is then closed (the event's JSON).
    pub stdin: Vec<u8>,
    /// How long it may run before its process group is killed.
    pub timeout: Duration,
    /// Cancelling it kills the process group at once.
    pub cancel: CancellationToken,
}

/// Which output stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Stream {
    /// Where a hook writes its JSON answer.
    Stdout,
    /// Where a hook writes its blocking reason (exit code 2) or diagnostics.
    Stderr,
}

impl Stream {
    /// The stream's name, for messages about it.
    pub fn as_str(self) -> &'static str {
        match self {
            Stream::Stdout => "stdout",
            Stream::Stderr => "stderr",
        }
    }
}

/// How the run ended.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum RunEnd {
    /// The hook exited with this status code.
    Exited(i32),
    /// The hook was killed by this signal (not by AgentHub).
    Signaled(i32),
    /// The command could not be started at all.
    CannotStart(String),
    /// The hook ran past its timeout; its process group was killed.
    TimedOut(Duration),
    /// A stream went over [`OUTPUT_CAP_BYTES`]; the process group was killed.
    OutputTooLarge(Stream),
    /// A stream could not be read; the process group was killed.
    Unreadable(Stream, String),
    /// The run was cancelled; the process group was killed.
    Cancelled,
    /// A handler that is not a process could not get an answer (an `http`
    /// hook's server is down or answered an error status, no model for a
    /// `prompt` hook, …): the check could not run.
    Refused(String),
}

impl RunEnd {
    /// The exit code, when the hook exited on its own.
    pub fn code(&self) -> Option<i32> {
        match self {
            RunEnd::Exited(code) => Some(*code),
            _ => None,
        }
    }
}

/// What one run produced. Output is lossy UTF-8 and empty after a forced kill.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RawRun {
    /// How the run ended.
    pub end: RunEnd,
    /// Everything the hook wrote to stdout (at most [`OUTPUT_CAP_BYTES`]).
    pub stdout: String,
    /// Everything the hook wrote to stderr (at most [`OUTPUT_CAP_BYTES`]).
    pub stderr: String,
    /// Wall time from spawn to the end.
    pub elapsed: Duration,
}

#[cfg(test)]
impl RawRun {
    /// A run that exited with `code` after printing `stdout` and `stderr`.
    pub(crate) fn exited(code: i32, stdout: &str, stderr: &str) -> RawRun {
        RawRun {
            end: RunEnd::Exited(code),
            stdout: stdout.to_owned(),
            stderr: stderr.to_owned(),
            elapsed: Duration::ZERO,
        }
    }
}

/// Runs `invocation` to its end.
pub async fn run(invocation: Invocation) -> RawRun {
    let started = Instant::now();
    let (end, stdout, stderr) = match spawn(&invocation) {
        Ok(child) => supervise(child, &invocation).await,
        Err(error) => (RunEnd::CannotStart(error), Vec::new(), Vec::new()),
    };
    RawRun {
        end,
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
        elapsed: started.elapsed(),
    }
}

fn spawn(invocation: &Invocation) -> Result<Child, String> {
    let mut command = match &invocation.program {
        Program::Shell(line) => {
            let mut command = Command::new("sh");
            command.arg("-c").arg(line);
            command
        }
        Program::Exec { program, args } => {
            let mut command = Command::new(program);
            command.args(args);
            command
        }
    };
    command
        .current_dir(&invocation.cwd)
        .envs(invocation.env.iter().map(|(key, value)| (key, value)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .process_group(0);
    command.spawn().map_err(|error| error.to_string())
}

/// Kills the hook's whole process group unless disarmed: on timeout,
/// overflow, cancellation, and when the run's future is dropped.
struct GroupKiller {
    pgid: Option<libc::pid_t>,
}

impl GroupKiller {
    fn kill(&mut self) {
        if let Some(pgid) = self.pgid.take() {
            // SAFETY: killpg only sends a signal; a stale group id fails with ESRCH.
            unsafe {
                libc::killpg(pgid, libc::SIGKILL);
            }
        }
    }

    fn disarm(&mut self) {
        self.pgid = None;
    }
}

impl Drop for GroupKiller {
    fn drop(&mut self) {
        self.kill();
    }
}

type Streams = (Vec<u8>, Vec<u8>);

enum Watched {
    Finished(Result<Streams, RunEnd>),
    /// The hook exited; its pipes may still be open.
    Exited,
    TimedOut,
    Cancelled,
}

async fn supervise(mut child: Child, invocation: &Invocation) -> (RunEnd, Vec<u8>, Vec<u8>) {
    let mut killer = GroupKiller {
        pgid: child.id().and_then(|pid| libc::pid_t::try_from(pid).ok()),
    };
    let io = exchange(
        child.stdin.take(),
        child.stdout.take(),
        child.stderr.take(),
        &invocation.stdin,
    );
    tokio::pin!(io);
    let deadline = tokio::time::sleep(invocation.timeout);
    tokio::pin!(deadline);
    let watched = tokio::select! {
        biased;
        () = invocation.cancel.cancelled() => Watched::Cancelled,
        () = &mut deadline => Watched::TimedOut,
        streams = &mut io => Watched::Finished(streams),
        _ = child.wait() => Watched::Exited,
    };
    let streams = match watched {
        Watched::Finished(streams) => streams,
        Watched::Exited => {
            drain(
                &mut io,
                &mut killer,
                deadline.deadline(),
                invocation.timeout,
            )
            .await
        }
        Watched::TimedOut => {
            return abort(
                &mut killer,
                &mut child,
                RunEnd::TimedOut(invocation.timeout),
            )
            .await
        }
        Watched::Cancelled => return abort(&mut killer, &mut child, RunEnd::Cancelled).await,
    };
    let (stdout, stderr) = match streams {
        Ok(streams) => streams,
        Err(end) => return abort(&mut killer, &mut child, end).await,
    };
    let end = tokio::select! {
        biased;
        () = invocation.cancel.cancelled() => return abort(&mut killer, &mut child, RunEnd::Cancelled).await,
        () = &mut deadline => return abort(&mut killer, &mut child, RunEnd::TimedOut(invocation.timeout)).await,
        status = child.wait() => describe(status),
    };
    killer.disarm();
    (end, stdout, stderr)
}

/// The hook exited but something it started still holds the pipes: read a
/// little longer, then kill the group so the pipes close. A child that left
/// the group (`setsid`) can keep them open after that: the run still ends
/// at the hook's timeout.
async fn drain<F>(
    io: &mut std::pin::Pin<&mut F>,
    killer: &mut GroupKiller,
    deadline: tokio::time::Instant,
    timeout: Duration,
) -> Result<Streams, RunEnd>
where
    F: std::future::Future<Output = Result<Streams, RunEnd>>,
{
    match tokio::time::timeout(DRAIN_GRACE, io.as_mut()).await {
        Ok(streams) => streams,
        Err(_) => {
            killer.kill();
            tokio::time::timeout_at(deadline, io.as_mut())
                .await
                .unwrap_or(Err(RunEnd::TimedOut(timeout)))
        }
    }
}

async fn abort(
    killer: &mut GroupKiller,
    child: &mut Child,
    end: RunEnd,
) -> (RunEnd, Vec<u8>, Vec<u8>) {
    killer.kill();
    let _ = tokio::time::timeout(REAP_GRACE, child.wait()).await;
    (end, Vec::new(), Vec::new())
}

fn describe(status: std::io::Result<ExitStatus>) -> RunEnd {
    match status {
        Ok(status) => match (status.code(), status.signal()) {
            (Some(code), _) => RunEnd::Exited(code),
            (None, Some(signal)) => RunEnd::Signaled(signal),
            (None, None) => RunEnd::CannotStart("the hook ended without a status".to_owned()),
        },
        Err(error) => RunEnd::CannotStart(format!("cannot wait for the hook: {error}")),
    }
}

/// Writes stdin then closes it, while reading both streams; the first stream
/// over its cap (or unreadable) ends the exchange.
async fn exchange(
    stdin: Option<ChildStdin>,
    stdout: Option<tokio::process::ChildStdout>,
    stderr: Option<tokio::process::ChildStderr>,
    payload: &[u8],
) -> Result<Streams, RunEnd> {
    let write = async {
        if let Some(mut stdin) = stdin {
            // A hook that does not read its stdin may close it early: EPIPE is fine.
            let _ = stdin.write_all(payload).await;
            let _ = stdin.shutdown().await;
        }
        Ok::<(), RunEnd>(())
    };
    let ((), out, err) = tokio::try_join!(
        write,
        read_capped(stdout, Stream::Stdout),
        read_capped(stderr, Stream::Stderr)
    )?;
    Ok((out, err))
}

async fn read_capped<R: AsyncRead + Unpin>(
    reader: Option<R>,
    stream: Stream,
) -> Result<Vec<u8>, RunEnd> {
    let Some(reader) = reader else {
        return Ok(Vec::new());
    };
    let mut bytes = Vec::new();
    let limit = u64::try_from(OUTPUT_CAP_BYTES)
        .unwrap_or(u64::MAX)
        .saturating_add(1);
    reader
        .take(limit)
        .read_to_end(&mut bytes)
        .await
        .map_err(|error| RunEnd::Unreadable(stream, error.to_string()))?;
    if bytes.len() > OUTPUT_CAP_BYTES {
        return Err(RunEnd::OutputTooLarge(stream));
    }
    Ok(bytes)
}
