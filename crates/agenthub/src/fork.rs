//! `--fork-session` (contract §24): a resumed session goes on under a new
//! id. Its transcript starts as a copy of the original's — a new `session`
//! record, then every line after the original's with the new `sessionId`,
//! the usage on copied assistant lines set to zero (those requests were paid
//! once, by the original) — so the original is left untouched and stays
//! resumable, and the fork resumes exactly where the original was.

use crate::sessions::SessionSummary;
use crate::transcript::transcript_path;
use agenthub_core::{read_session, SavedSessionError};
use agenthub_protocol::{SessionRecord, TranscriptRecord};
use serde_json::{json, Value};
use std::io::Write;
use std::path::PathBuf;
use thiserror::Error;

/// Why a session could not be forked.
#[derive(Debug, Error)]
pub enum ForkError {
    /// The original transcript cannot be read, or the fork's written.
    #[error("cannot {action} {}: {error}", path.display())]
    Io {
        /// `read` or `write`.
        action: &'static str,
        /// The transcript.
        path: PathBuf,
        /// The operating system's reason.
        error: std::io::Error,
    },
    /// The fork's transcript cannot be read back.
    #[error(transparent)]
    Damaged(#[from] SavedSessionError),
}

/// Copies the session `found` into a new session (new id, transcript in the
/// transcripts folder) and returns it, ready to resume.
pub fn fork_session(found: &SessionSummary) -> Result<SessionSummary, ForkError> {
    let id = uuid::Uuid::new_v4().to_string();
    let path = transcript_path(None, &id);
    let text = std::fs::read_to_string(&found.path).map_err(|error| ForkError::Io {
        action: "read",
        path: found.path.clone(),
        error,
    })?;
    let record = SessionRecord {
        session_id: id.clone(),
        created: agenthub_core::utc_now(),
        version: env!("CARGO_PKG_VERSION").to_owned(),
        ..found.saved.record.clone()
    };
    let mut copy = serde_json::to_value(TranscriptRecord::Session(record))
        .map(|mut value| {
            value["sessionId"] = json!(id);
            format!("{value}\n")
        })
        .unwrap_or_default();
    for line in text
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
    {
        if let Some(line) = copied(line, &id) {
            copy.push_str(&format!("{line}\n"));
        }
    }
    let written = agenthub_settings::state_files::create_private_file(&path)
        .and_then(|mut file| file.write_all(copy.as_bytes()));
    written.map_err(|error| ForkError::Io {
        action: "write",
        path: path.clone(),
        error,
    })?;
    Ok(SessionSummary {
        saved: read_session(&path)?,
        modified: std::time::SystemTime::now(),
        path,
    })
}

/// A line of the original as the fork holds it; `None` for its session record.
fn copied(mut line: Value, id: &str) -> Option<Value> {
    if line["type"] == "session" {
        return None;
    }
    if let Some(object) = line.as_object_mut() {
        if object.contains_key("sessionId") {
            object.insert("sessionId".to_owned(), json!(id));
        }
    }
    if line["type"] == "assistant" {
        if let Some(usage) = line
            .get_mut("message")
            .and_then(|message| message.get_mut("usage"))
            .and_then(Value::as_object_mut)
        {
            for count in usage.values_mut() {
                if count.is_number() {
                    *count = json!(0);
                }
            }
        }
    }
    Some(line)
}
