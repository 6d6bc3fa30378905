//! A result of any size ends promptly (contract §26). The SDK drops a stdio
//! message longer than its line limit (16 MiB) and the call that waited for
//! it would wait out `MCP_TOOL_TIMEOUT`. This reader sits between the
//! server's stdout and the SDK: a line up to [`MAX_MESSAGE_BYTES`] passes
//! whole; a longer one is written, as the server sent it, to a private file
//! instead (never held in memory), and [`Oversized`] is announced so the
//! calls waiting on that server fail at once, naming the file.
//!
//! It must never hand the SDK part of a line: lines pass whole or not at all.

use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, ReadBuf};
use tokio::sync::watch;

/// The longest message passed to the SDK: just under its own line limit.
pub(crate) const MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024 - 1;

/// A message too long to read: its size and where it was saved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Oversized {
    /// The message's size in bytes.
    pub(crate) bytes: u64,
    /// The file holding it whole, or why it could not be saved.
    pub(crate) saved: Result<PathBuf, String>,
}

/// What the reader is doing with the current line.
enum Line {
    /// Holding it until its newline.
    Held,
    /// Writing it to a file: it is too long.
    Spilling {
        file: Result<(std::fs::File, PathBuf), String>,
        bytes: u64,
    },
}

/// `inner` with every line longer than `cap` taken out and saved.
pub(crate) struct LineCap<R> {
    inner: R,
    cap: usize,
    held: Vec<u8>,
    ready: Vec<u8>,
    ready_from: usize,
    line: Line,
    ended: bool,
    chunk: Vec<u8>,
    announce: watch::Sender<Option<Oversized>>,
}

impl<R> LineCap<R> {
    /// Reads `inner`; an oversized line is announced on the returned channel.
    pub(crate) fn new(inner: R, cap: usize) -> (LineCap<R>, watch::Receiver<Option<Oversized>>) {
        let (announce, receiver) = watch::channel(None);
        let reader = LineCap {
            inner,
            cap,
            held: Vec::new(),
            ready: Vec::new(),
            ready_from: 0,
            line: Line::Held,
            ended: false,
            chunk: vec![0; 64 * 1024],
            announce,
        };
        (reader, receiver)
    }

    /// Takes bytes read from the server.
    fn take(&mut self, mut data: &[u8]) {
        while !data.is_empty() {
            let newline = data.iter().position(|byte| *byte == b'\n');
            let end = newline.map_or(data.len(), |at| at + 1);
            let (segment, rest) = data.split_at(end);
            self.take_segment(segment, newline.is_some());
            data = rest;
        }
    }

    fn take_segment(&mut self, segment: &[u8], ends_line: bool) {
        match &mut self.line {
            Line::Spilling { file, bytes } => {
                *bytes += segment.len() as u64;
                write_to(file, segment);
            }
            Line::Held if self.held.len() + segment.len() > self.cap => {
                let mut file = spill_file();
                write_to(&mut file, &self.held);
                write_to(&mut file, segment);
                let bytes = (self.held.len() + segment.len()) as u64;
                self.held = Vec::new();
                self.line = Line::Spilling { file, bytes };
            }
            Line::Held => self.held.extend_from_slice(segment),
        }
        if ends_line {
            self.end_line();
        }
    }

    /// A newline: the held line is ready for the SDK, or the spilled one is announced.
    fn end_line(&mut self) {
        match std::mem::replace(&mut self.line, Line::Held) {
            Line::Held => self.ready.append(&mut self.held),
            Line::Spilling { file, bytes } => {
                let saved = file.map(|(mut file, path)| {
                    let _ = file.flush();
                    path
                });
                let _ = self.announce.send(Some(Oversized { bytes, saved }));
            }
        }
    }
}

/// Writes `bytes` to the spill file; a failed write keeps its reason.
fn write_to(file: &mut Result<(std::fs::File, PathBuf), String>, bytes: &[u8]) {
    if let Ok((handle, path)) = file {
        if let Err(error) = handle.write_all(bytes) {
            *file = Err(format!("cannot write {}: {error}", path.display()));
        }
    }
}

/// A new private file for one oversized message, in a `0700` folder of the
/// temporary directory.
fn spill_file() -> Result<(std::fs::File, PathBuf), String> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let folder = std::env::temp_dir().join(format!("agenthub-mcp-{}", std::process::id()));
    let path = folder.join(format!(
        "message-{}.json",
        NEXT.fetch_add(1, Ordering::SeqCst)
    ));
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&folder)
        .and_then(|()| {
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(&path)
        })
        .map(|file| (file, path.clone()))
        .map_err(|error| format!("cannot create {}: {error}", path.display()))
}

impl<R: AsyncRead + Unpin> AsyncRead for LineCap<R> {
    fn poll_read(
        self: Pin<&mut Self>,
        context: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        loop {
            if this.ready_from < this.ready.len() {
                let count = buf.remaining().min(this.ready.len() - this.ready_from);
                buf.put_slice(&this.ready[this.ready_from..this.ready_from + count]);
                this.ready_from += count;
                if this.ready_from == this.ready.len() {
                    this.ready.clear();
                    this.ready_from = 0;
                }
                return Poll::Ready(Ok(()));
            }
            if this.ended {
                return Poll::Ready(Ok(()));
            }
            let mut chunk = std::mem::take(&mut this.chunk);
            let mut read = ReadBuf::new(&mut chunk);
            let polled = Pin::new(&mut this.inner).poll_read(context, &mut read);
            let filled = read.filled().len();
            let outcome = match polled {
                Poll::Pending => None,
                Poll::Ready(Err(error)) => Some(Err(error)),
                Poll::Ready(Ok(())) if filled == 0 => {
                    this.ended = true;
                    this.ready.append(&mut this.held);
                    Some(Ok(()))
                }
                Poll::Ready(Ok(())) => {
                    this.take(&chunk[..filled]);
                    Some(Ok(()))
                }
            };
            this.chunk = chunk;
            match outcome {
                None => return Poll::Pending,
                Some(Err(error)) => return Poll::Ready(Err(error)),
                Some(Ok(())) => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    #[tokio::test]
    async fn lines_within_the_cap_pass_whole_and_a_longer_one_is_saved_and_announced() {
        let input: &[u8] = b"short\nthis line is long\nend\n";
        let (mut reader, announced) = LineCap::new(input, 8);
        let mut passed = String::new();
        reader.read_to_string(&mut passed).await.unwrap();
        let oversized = announced.borrow().clone().unwrap();
        let saved = oversized.saved.clone().unwrap();
        assert_eq!(
            (
                passed,
                oversized.bytes,
                std::fs::read_to_string(&saved).unwrap()
            ),
            (
                "short\nend\n".to_owned(),
                18,
                "this line is long\n".to_owned()
            )
        );
        std::fs::remove_file(saved).unwrap();
    }
}
