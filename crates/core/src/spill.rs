//! Nothing is cut silently (SPEC §21, §26): a tool result longer than its
//! cap — the pipeline's [`OUTPUT_CAP_CHARS`], or the tool's own (an MCP
//! tool's `MAX_MCP_OUTPUT_TOKENS`) — is written whole to a file in the
//! session's state folder (beside its transcript: `<transcript>.outputs/`),
//! and the model gets the start and the file's path; the caller tells the
//! user with a `[Warning]`.
//!
//! It must never lose text: when the file cannot be written, the cut says
//! so, and without a transcript (nowhere to keep state) the old marker that
//! says how much was cut is all there is.

use agenthub_tools::{truncate_output, OUTPUT_CAP_CHARS};
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// A result as the model will read it, and the warning for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Capped {
    /// The start of the result and, when cut, where the rest is.
    pub text: String,
    /// Set when the result was cut.
    pub warning: Option<String>,
}

/// The folder of a session's saved outputs: beside its transcript.
pub(crate) fn outputs_folder(transcript: &Path) -> PathBuf {
    let mut name = transcript.as_os_str().to_owned();
    name.push(".outputs");
    PathBuf::from(name)
}

/// `text`, cut at `cap` characters (default [`OUTPUT_CAP_CHARS`]) with the
/// whole of it saved as `<folder>/<call_id>.txt`.
pub(crate) fn cap_result(
    text: String,
    cap: Option<usize>,
    folder: Option<&Path>,
    tool: &str,
    call_id: &str,
) -> Capped {
    let cap = cap.unwrap_or(OUTPUT_CAP_CHARS);
    let total = text.chars().count();
    if total <= cap {
        return Capped {
            text,
            warning: None,
        };
    }
    let Some(folder) = folder else {
        return Capped {
            warning: Some(format!(
                "the result of {tool} ({total} characters) was cut at {cap}; no transcript, so it was not saved"
            )),
            text: truncate_output(text, cap),
        };
    };
    let path = folder.join(format!("{}.txt", file_safe(call_id)));
    let saved = save(&path, &text);
    let start: String = text.chars().take(cap).collect();
    let (note, warning) = match saved {
        Ok(()) => (
            format!(
                "[output cut at {cap} of {total} characters; the whole result is in {}]",
                path.display()
            ),
            format!(
                "the result of {tool} ({total} characters) was cut at {cap} for the model; the whole result is in {}",
                path.display()
            ),
        ),
        Err(error) => (
            format!("[output cut at {cap} of {total} characters; it could not be saved: {error}]"),
            format!(
                "the result of {tool} ({total} characters) was cut at {cap} and could not be saved to {}: {error}",
                path.display()
            ),
        ),
    };
    Capped {
        text: format!("{start}\n{note}"),
        warning: Some(warning),
    }
}

/// A call id as a file name: anything but letters, digits, `-` and `_` becomes `_`.
fn file_safe(call_id: &str) -> String {
    call_id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Writes `text` to `path`, `0600` in a `0700` folder.
fn save(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(folder) = path.parent() {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(folder)?;
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)?;
    file.write_all(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_within_its_cap_is_unchanged() {
        assert_eq!(
            cap_result("short".to_owned(), Some(5), None, "T", "c1"),
            Capped {
                text: "short".to_owned(),
                warning: None
            }
        );
    }

    #[test]
    fn a_longer_result_keeps_its_start_and_is_saved_whole() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("t.jsonl.outputs");
        let capped = cap_result(
            "abcdefgh".to_owned(),
            Some(3),
            Some(&folder),
            "mcp__s__t",
            "c/1",
        );
        let path = folder.join("c_1.txt");
        assert_eq!(
            (capped, std::fs::read_to_string(&path).unwrap()),
            (
                Capped {
                    text: format!(
                        "abc\n[output cut at 3 of 8 characters; the whole result is in {}]",
                        path.display()
                    ),
                    warning: Some(format!(
                        "the result of mcp__s__t (8 characters) was cut at 3 for the model; the whole result is in {}",
                        path.display()
                    ))
                },
                "abcdefgh".to_owned()
            )
        );
    }

    #[test]
    fn the_outputs_folder_is_beside_the_transcript() {
        assert_eq!(
            outputs_folder(Path::new("/s/transcripts/id.jsonl")),
            PathBuf::from("/s/transcripts/id.jsonl.outputs")
        );
    }
}
