//! Where a session's transcript goes when nobody says, and opening it: the
//! JSONL audit file every run writes (contract §9).

use crate::SetupError;
use agenthub_core::TranscriptWriter;
use std::fs::File;
use std::path::{Path, PathBuf};

/// `explicit`, else `$XDG_STATE_HOME/agenthub/transcripts/<session>.jsonl`
/// (`~/.local/state/…` without `XDG_STATE_HOME`).
pub fn transcript_path(explicit: Option<PathBuf>, session_id: &str) -> PathBuf {
    explicit.unwrap_or_else(|| transcripts_dir().join(format!("{session_id}.jsonl")))
}

/// `$XDG_STATE_HOME/agenthub/transcripts` (`~/.local/state/…` without it):
/// where sessions are kept and found again.
pub fn transcripts_dir() -> PathBuf {
    agenthub_settings::xdg::state_folder().join("agenthub/transcripts")
}

/// Opens a resumed session's transcript to add to it. A last line cut short
/// by a crash (already dropped from the history with a warning) is cut off
/// the file too, so the next line starts clean.
pub fn reopen_transcript(path: &Path) -> Result<TranscriptWriter<File>, SetupError> {
    let failed = |error: std::io::Error| SetupError::Transcript {
        path: path.to_path_buf(),
        error,
    };
    let bytes = std::fs::read(path).map_err(failed)?;
    let complete = bytes
        .iter()
        .rposition(|byte| *byte == b'\n')
        .map_or(0, |at| at + 1);
    if complete < bytes.len() {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(failed)?;
        file.set_len(complete as u64).map_err(failed)?;
    }
    TranscriptWriter::append(path).map_err(failed)
}

/// Creates the transcript file `0600` (and its missing folders `0700`).
pub fn open_transcript(path: &Path) -> Result<TranscriptWriter<File>, SetupError> {
    agenthub_settings::state_files::create_private_file(path)
        .map(TranscriptWriter::new)
        .map_err(|error| SetupError::Transcript {
            path: path.to_path_buf(),
            error,
        })
}
