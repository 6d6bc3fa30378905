//! The JSONL transcript (contract §9, §21): one line per record, in Claude Code's
//! shape for messages, written and flushed as the run goes, so that a killed
//! run leaves a valid prefix.

use crate::{AgentEvent, LineChain, Observer, ObserverError};
use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;

/// Writes every recorded event as one JSON line to `W` (a file, or stdout),
/// and to an echo (`--output-format stream-json`) with the same ids.
pub struct TranscriptWriter<W: Write + Send> {
    state: Mutex<Lines<W>>,
}

struct Lines<W> {
    chain: LineChain,
    out: W,
    /// Shown to someone: when nobody reads any more, the run goes on, since
    /// `out`, not the echo, is the audit whose failure stops a call.
    echo: Option<Box<dyn Write + Send>>,
}

impl TranscriptWriter<File> {
    /// Creates (or truncates) the transcript file, and its parent folders:
    /// the file `0600`, new folders `0700` — a transcript holds everything
    /// the session read (contract §26).
    pub fn create(path: &Path) -> std::io::Result<Self> {
        use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
        if let Some(parent) = path
            .parent()
            .filter(|parent| !parent.as_os_str().is_empty())
        {
            std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(parent)?;
        }
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .open(path)?;
        Ok(TranscriptWriter::new(file))
    }

    /// Opens an existing transcript to add to it (a resumed session): new
    /// lines go on from its session and its last line.
    pub fn append(path: &Path) -> std::io::Result<Self> {
        let text = String::from_utf8_lossy(&std::fs::read(path)?).into_owned();
        let file = std::fs::OpenOptions::new().append(true).open(path)?;
        Ok(TranscriptWriter::with_chain(
            file,
            LineChain::continuing(&text),
        ))
    }
}

impl<W: Write + Send> TranscriptWriter<W> {
    /// Writes to `out`, flushing after every line.
    pub fn new(out: W) -> Self {
        TranscriptWriter::with_chain(out, LineChain::new())
    }

    fn with_chain(out: W, chain: LineChain) -> Self {
        TranscriptWriter {
            state: Mutex::new(Lines {
                chain,
                out,
                echo: None,
            }),
        }
    }

    /// Also writes every line to `echo` (stdout for `stream-json`); a
    /// failing echo is ignored.
    pub fn echo_to(self, echo: Box<dyn Write + Send>) -> Self {
        let mut state = self.state.into_inner().unwrap_or_else(|e| e.into_inner());
        state.echo = Some(echo);
        TranscriptWriter {
            state: Mutex::new(state),
        }
    }
}

impl<W: Write + Send> Observer for TranscriptWriter<W> {
    fn on_event(&self, event: &AgentEvent<'_>) -> Result<(), ObserverError> {
        let mut state = self
            .state
            .lock()
            .map_err(|_| ObserverError("transcript writer poisoned".to_owned()))?;
        let Some(mut line) = state.chain.line(event) else {
            return Ok(());
        };
        line.push('\n');
        if let Some(echo) = state.echo.as_mut() {
            let _ = echo.write_all(line.as_bytes()).and_then(|()| echo.flush());
        }
        state
            .out
            .write_all(line.as_bytes())
            .and_then(|()| state.out.flush())
            .map_err(|error| ObserverError(format!("cannot write transcript: {error}")))
    }
}
