//! A transcript file read as records: the one way every reader gets them
//! (resuming a session, `sessions`, replay). A blank line is passed over; a
//! last line cut short by a crash (no newline at its end, not a record) is
//! dropped and said so; a line damaged anywhere else fails the reading with
//! its line number, since a reader that skipped it would tell a story with a
//! hole in it. It never interprets a record: each reader does.

use agenthub_protocol::TranscriptRecord;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// A transcript's text and its records, each with its line index (from 0).
#[derive(Debug, Clone)]
pub struct TranscriptFile {
    /// The whole file.
    pub text: String,
    /// Every record, in file order, with the index of its line.
    pub records: Vec<(usize, TranscriptRecord)>,
    /// Whether a last line cut short was dropped.
    pub last_line_dropped: bool,
}

/// Why a transcript file cannot be read as records.
#[derive(Debug, Error)]
pub enum TranscriptFileError {
    /// The file cannot be read.
    #[error("cannot read transcript {}: {message}", file.display())]
    Unreadable {
        /// The transcript.
        file: PathBuf,
        /// The operating system's reason.
        message: String,
    },
    /// A line (not a last one cut short) is not a transcript record.
    #[error("transcript {} is damaged at line {line}: {message}", file.display())]
    Damaged {
        /// The transcript.
        file: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
}

impl TranscriptFile {
    /// Reads the transcript at `path`.
    pub fn read(path: &Path) -> Result<TranscriptFile, TranscriptFileError> {
        let text =
            std::fs::read_to_string(path).map_err(|error| TranscriptFileError::Unreadable {
                file: path.to_path_buf(),
                message: error.to_string(),
            })?;
        let mut records = Vec::new();
        let mut last_line_dropped = false;
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        for (index, line) in lines.iter().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let cut_short = index + 1 == lines.len() && !line.ends_with('\n');
            match serde_json::from_str::<TranscriptRecord>(line) {
                Ok(record) => records.push((index, record)),
                Err(_) if cut_short => last_line_dropped = true,
                Err(error) => {
                    return Err(TranscriptFileError::Damaged {
                        file: path.to_path_buf(),
                        line: index + 1,
                        message: error.to_string(),
                    })
                }
            }
        }
        Ok(TranscriptFile {
            text,
            records,
            last_line_dropped,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(text: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        std::fs::write(&path, text).unwrap();
        (dir, path)
    }

    const USAGE: &str = r#"{"type":"usage","turn":1,"usage":{"input_tokens":1,"output_tokens":2}}"#;

    #[test]
    fn blank_lines_are_passed_over_and_a_last_line_cut_short_is_dropped() {
        let (_dir, path) = written(&format!("{USAGE}\n\n{USAGE}\n{{\"type\":\"us"));
        let file = TranscriptFile::read(&path).unwrap();
        let indexes: Vec<usize> = file.records.iter().map(|(index, _)| *index).collect();
        assert_eq!((indexes, file.last_line_dropped), (vec![0, 2], true));
    }

    #[test]
    fn a_damaged_line_before_the_last_names_its_line() {
        let (_dir, path) = written(&format!("{USAGE}\nnot json\n{USAGE}\n"));
        let error = TranscriptFile::read(&path).unwrap_err();
        assert!(
            matches!(error, TranscriptFileError::Damaged { line: 2, .. }),
            "{error}"
        );
    }
}
