//! The JSONL transcript (SPEC §9): one record per line, written and flushed as
//! the run goes, so that a killed run leaves a valid prefix.

use crate::{AgentEvent, Observer, ObserverError};
use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;

/// Writes every recorded event as one JSON line to `W` (a file, or stdout for
/// `--output-format stream-json`).
pub struct TranscriptWriter<W: Write + Send> {
    out: Mutex<W>,
}

impl TranscriptWriter<File> {
    /// Creates (or truncates) the transcript file, and its parent folders:
    /// the file `0600`, new folders `0700` — a transcript holds everything
    /// the session read (SPEC §26).
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
}

impl TranscriptWriter<File> {
    /// Opens an existing transcript to add to it (a resumed session).
    pub fn append(path: &Path) -> std::io::Result<Self> {
        let file = std::fs::OpenOptions::new().append(true).open(path)?;
        Ok(TranscriptWriter::new(file))
    }
}

impl<W: Write + Send> TranscriptWriter<W> {
    /// Writes to `out`, flushing after every line.
    pub fn new(out: W) -> Self {
        TranscriptWriter {
            out: Mutex::new(out),
        }
    }
}

impl<W: Write + Send> Observer for TranscriptWriter<W> {
    fn on_event(&self, event: &AgentEvent<'_>) -> Result<(), ObserverError> {
        let Some(record) = event.to_record() else {
            return Ok(());
        };
        let mut line =
            serde_json::to_string(&record).map_err(|error| ObserverError(error.to_string()))?;
        line.push('\n');
        let mut out = self
            .out
            .lock()
            .map_err(|_| ObserverError("transcript writer poisoned".to_owned()))?;
        out.write_all(line.as_bytes())
            .and_then(|()| out.flush())
            .map_err(|error| ObserverError(format!("cannot write transcript: {error}")))
    }
}
