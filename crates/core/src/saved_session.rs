//! Reading a transcript back (contract §12): the session record, the history
//! exactly as it was, and what `sessions list` shows. The transcript is the
//! session's record, so this is the only way back into a session.
//!
//! The lines are read as every reader reads them (`transcript_file.rs`): a
//! last line cut short by a crash is dropped with a warning; a line damaged
//! anywhere else fails the reading, since a history with a hole would
//! mislead the model. A
//! tool call left without a result (the session was killed while it ran) is
//! answered `Error [tool_error]: interrupted: …` so the session resumes.
//!
//! Messages are read from Claude Code's lines (contract §21); a subagent's
//! sidechain lines are its own history, never the session's. Transcripts
//! written before contract §21 (`message` records) are read too. A rewind of
//! the conversation (contract §24) leaves the lines it cut out of the history,
//! so a resumed session goes on from the rewound point.

use crate::transcript_file::{TranscriptFile, TranscriptFileError};
use crate::Timeline;
use agenthub_protocol::{
    answer_unanswered, ErrorCode, Message, PermissionMode, RunStatus, SessionRecord,
    TranscriptRecord,
};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Why a call of a saved session has no result: the session stopped (was
/// killed) while it ran. Its side effects are unknown, so it is never run again.
pub const SESSION_INTERRUPTED: &str = "interrupted: the session stopped before this call finished";

/// The result each call left without one gets on resume (contract §26).
fn interrupted_result() -> String {
    ErrorCode::ToolError.result_text(SESSION_INTERRUPTED)
}

/// A session as its transcript tells it.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedSession {
    /// The first line: who the session is.
    pub record: SessionRecord,
    /// Every message, in order: the history to resume with.
    pub history: Vec<Message>,
    /// The first prompt the user gave, if any.
    pub first_prompt: Option<String>,
    /// Model requests over all of the session's runs.
    pub turns: u32,
    /// How the last run ended, if one did.
    pub last_status: Option<RunStatus>,
    /// The last permission mode the session changed to (its last
    /// `permission-mode` record), if it changed one.
    pub permission_mode: Option<PermissionMode>,
    /// What was dropped while reading (a last line cut short).
    pub warnings: Vec<String>,
}

/// Why a transcript cannot be read back.
#[derive(Debug, Error)]
pub enum SavedSessionError {
    /// The file cannot be read, or a line is not a transcript record.
    #[error(transparent)]
    File(#[from] TranscriptFileError),
    /// The first line is not the `session` record (a transcript written
    /// before sessions existed, or not a transcript).
    #[error("transcript {} does not start with a session record", file.display())]
    NoSessionRecord {
        /// The transcript.
        file: PathBuf,
    },
}

/// Reads the transcript at `path`.
pub fn read_session(path: &Path) -> Result<SavedSession, SavedSessionError> {
    let file = TranscriptFile::read(path)?;
    let mut reader = Reader::default();
    let rewound = rewound_lines(&file.text);
    for (index, record) in file.records {
        if rewound.as_ref().is_some_and(|cuts| cuts.is_cut(index)) {
            reader.take_rewound(record);
        } else {
            reader.take(record);
        }
    }
    if file.last_line_dropped {
        reader.warnings.push(format!(
            "transcript {}: its last line was cut short and is dropped",
            path.display()
        ));
    }
    reader.finish(path)
}

/// The timeline of a transcript whose conversation a rewind cut (contract
/// §24), so that its cut lines are left out of the history; `None` for the
/// usual transcript, read in one pass.
fn rewound_lines(text: &str) -> Option<Timeline> {
    if !text.contains(r#""type":"rewind""#) {
        return None;
    }
    Some(Timeline::from_text(text)).filter(Timeline::has_cuts)
}

/// Reads only the first line: cheap enough to look at every transcript.
pub fn read_session_record(path: &Path) -> Option<SessionRecord> {
    use std::io::BufRead;
    let file = std::fs::File::open(path).ok()?;
    let mut first = String::new();
    std::io::BufReader::new(file).read_line(&mut first).ok()?;
    match serde_json::from_str(&first).ok()? {
        TranscriptRecord::Session(record) => Some(record),
        _ => None,
    }
}

#[derive(Default)]
struct Reader {
    record: Option<SessionRecord>,
    history: Vec<Message>,
    first_prompt: Option<String>,
    turns: u32,
    last_status: Option<RunStatus>,
    permission_mode: Option<PermissionMode>,
    warnings: Vec<String>,
    /// A compaction record was read: the next message is its summary, and
    /// this many messages before the record survive.
    compaction: Option<usize>,
}

impl Reader {
    fn take(&mut self, record: TranscriptRecord) {
        match record {
            TranscriptRecord::Session(record) => {
                self.record.get_or_insert(record);
            }
            TranscriptRecord::User(line) if !line.meta.is_sidechain => {
                if let (None, Some(prompt)) = (&self.first_prompt, line.prompt()) {
                    self.first_prompt = Some(prompt.to_owned());
                }
                for message in line.to_messages() {
                    self.message(message);
                }
            }
            TranscriptRecord::Assistant(line) if !line.meta.is_sidechain => {
                self.message(line.to_message());
            }
            TranscriptRecord::System(line) if !line.meta.is_sidechain => {
                self.message(line.to_message());
            }
            TranscriptRecord::Message {
                agent_id: None,
                message,
            } => {
                if let (None, Message::User { content }) = (&self.first_prompt, &message) {
                    self.first_prompt = Some(agenthub_protocol::typed_prompt(content).to_owned());
                }
                self.message(message);
            }
            TranscriptRecord::Compaction(record) => self.compaction = Some(record.kept),
            TranscriptRecord::Outcome(_) | TranscriptRecord::PermissionMode(_) => {
                self.take_rewound(record)
            }
            // A subagent's messages are its own history, never the session's (contract §17).
            TranscriptRecord::User(_)
            | TranscriptRecord::Assistant(_)
            | TranscriptRecord::System(_)
            | TranscriptRecord::Message { .. }
            | TranscriptRecord::Hook(_)
            | TranscriptRecord::Permission(_)
            | TranscriptRecord::Usage(_)
            | TranscriptRecord::Checkpoint(_)
            | TranscriptRecord::Rewind(_) => {}
        }
    }

    /// A record a rewind cut out of the conversation: its requests still
    /// count and its mode change still holds (the mode is the session's,
    /// not the conversation's); its messages and compactions are no longer
    /// the history's.
    fn take_rewound(&mut self, record: TranscriptRecord) {
        match record {
            TranscriptRecord::Outcome(outcome) => {
                self.turns += outcome.turns;
                self.last_status = Some(outcome.status);
            }
            TranscriptRecord::PermissionMode(change) => {
                self.permission_mode = Some(change.permission_mode)
            }
            _ => {}
        }
    }

    /// A message of the session: the summary after a compaction record,
    /// else the next one of the history.
    fn message(&mut self, message: Message) {
        match self.compaction.take() {
            Some(kept) => self.compact(message, kept),
            None => self.history.push(message),
        }
    }

    /// contract §12: the leading system messages + the summary + the `kept`
    /// messages before the record; what follows is appended as it comes.
    fn compact(&mut self, summary: Message, kept: usize) {
        let kept = kept.min(self.history.len() - crate::leading_system(&self.history));
        self.history = crate::compacted(&self.history, summary, kept);
    }

    fn finish(self, path: &Path) -> Result<SavedSession, SavedSessionError> {
        let record = self
            .record
            .ok_or_else(|| SavedSessionError::NoSessionRecord {
                file: path.to_path_buf(),
            })?;
        let mut warnings = self.warnings;
        let (history, interrupted) = answer_unanswered(self.history, &interrupted_result());
        if interrupted > 0 {
            warnings.push(format!(
                "transcript {}: {interrupted} tool call(s) had no result (the session stopped \
                 during them); each is answered as interrupted",
                path.display()
            ));
        }
        Ok(SavedSession {
            record,
            history,
            first_prompt: self.first_prompt,
            turns: self.turns,
            last_status: self.last_status,
            permission_mode: self.permission_mode,
            warnings,
        })
    }
}
