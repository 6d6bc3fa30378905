//! Where a session's transcript goes when nobody says, and opening it: the
//! JSONL audit file every run writes (SPEC §9).

use crate::SetupError;
use agenthub_core::TranscriptWriter;
use std::fs::File;
use std::path::{Path, PathBuf};

/// `explicit`, else `$XDG_STATE_HOME/agenthub/transcripts/<session>.jsonl`
/// (`~/.local/state/…` without `XDG_STATE_HOME`).
pub fn transcript_path(explicit: Option<PathBuf>, session_id: &str) -> PathBuf {
    if let Some(path) = explicit {
        return path;
    }
    let state = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".local/state")))
        .unwrap_or_else(std::env::temp_dir);
    state
        .join("agenthub/transcripts")
        .join(format!("{session_id}.jsonl"))
}

/// Creates the transcript file (and its folders).
pub fn open_transcript(path: &Path) -> Result<TranscriptWriter<File>, SetupError> {
    TranscriptWriter::create(path).map_err(|error| SetupError::Transcript {
        path: path.to_path_buf(),
        error,
    })
}
