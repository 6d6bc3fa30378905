//! What a handler returns ([`ToolOutput`]: the text the model sees, plus an
//! optional structured value for hooks) and the output cap: large texts are
//! cut with a marker that says how much — and, where a folder is given,
//! only after the whole text was saved there, so nothing is cut silently
//! (contract §21; [`save_whole_and_cap`], for tool output, hook text and MCP
//! results alike). The structured value never reaches the model and is
//! never cut.

use serde_json::Value;
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A handler's result. `text` is what the model sees (after the output cap);
/// `structured` is the same result as a JSON value shaped like Claude Code's
/// tool output, which command hooks receive as PostToolUse `tool_response`.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutput {
    /// What the model reads as the tool result (cut at [`OUTPUT_CAP_CHARS`] by core).
    pub text: String,
    /// The result as JSON for PostToolUse hooks' `tool_response`; `None`:
    /// hooks receive the text.
    pub structured: Option<Value>,
    /// The file holding the whole text when `text` is only its start (the
    /// tool saved what it could not hold, contract §21); the pipeline then
    /// names this file instead of saving the start again.
    pub whole: Option<PathBuf>,
}

impl ToolOutput {
    /// A result with both the model's text and the hooks' structured value.
    pub fn with_structured(text: impl Into<String>, structured: Value) -> Self {
        ToolOutput {
            text: text.into(),
            structured: Some(structured),
            whole: None,
        }
    }

    /// The result whose text is the start of the whole text in `file`.
    pub fn with_whole(mut self, file: PathBuf) -> Self {
        self.whole = Some(file);
        self
    }
}

impl From<String> for ToolOutput {
    fn from(text: String) -> Self {
        ToolOutput {
            text,
            structured: None,
            whole: None,
        }
    }
}

/// Tool outputs longer than this many characters are cut.
pub const OUTPUT_CAP_CHARS: usize = 30_000;

/// Keeps the first `cap` characters and appends a marker naming how many were cut.
pub fn truncate_output(text: String, cap: usize) -> String {
    let total = text.chars().count();
    if total <= cap {
        return text;
    }
    let cut_at = text
        .char_indices()
        .nth(cap)
        .map_or(text.len(), |(index, _)| index);
    let mut kept = text;
    kept.truncate(cut_at);
    kept.push_str(&format!(
        "\n[output truncated: {} of {} characters cut]",
        total - cap,
        total
    ));
    kept
}

/// Text for the model after the cap: its start and where the whole is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CappedText {
    /// What the model gets: the text, or its first `cap` characters and a
    /// line naming the file that holds the whole.
    pub text: String,
    /// For a text over the cap: the user's `[Warning]` line (without the
    /// prefix) saying what was saved where, or why it could not be.
    pub warning: Option<String>,
}

/// Keeps `text` whole when it has at most `cap` characters. A longer one is
/// first written whole to a new file in `folder` (created if missing); the
/// model gets the first `cap` characters and the file's path, and the
/// warning tells the user. If the file cannot be written, the text is cut
/// with the usual marker and the warning says why it was not saved.
/// `what` names the text in both (`Bash output`, `hook context`).
pub fn save_whole_and_cap(text: String, cap: usize, folder: &Path, what: &str) -> CappedText {
    let total = text.chars().count();
    if total <= cap {
        return CappedText {
            text,
            warning: None,
        };
    }
    match save_whole(&text, folder) {
        Ok(path) => {
            let start: String = text.chars().take(cap).collect();
            CappedText {
                text: format!(
                    "{start}\n[{what} cut at {cap} of {total} characters; the whole text is in {}]",
                    path.display()
                ),
                warning: Some(format!(
                    "{what} had {total} characters, over the {cap}-character cap: the model got the first {cap} and the path of the whole text, {}",
                    path.display()
                )),
            }
        }
        Err(error) => CappedText {
            text: truncate_output(text, cap),
            warning: Some(format!(
                "{what} had {total} characters, over the {cap}-character cap, and could not be saved whole in {}: {error}; the model got the first {cap}",
                folder.display()
            )),
        },
    }
}

/// [`save_whole_and_cap`] for a text whose whole is already in `file` (a
/// tool saved what it could not hold): the model gets the first `cap`
/// characters and the file's path, the user a warning; nothing is written.
pub fn cap_saved_whole(text: String, cap: usize, file: &Path, what: &str) -> CappedText {
    let bytes = std::fs::metadata(file).map_or(0, |metadata| metadata.len());
    let start: String = text.chars().take(cap).collect();
    CappedText {
        text: format!(
            "{start}\n[{what} cut at {cap} characters of {bytes} bytes; the whole text is in {}]",
            file.display()
        ),
        warning: Some(format!(
            "{what} had {bytes} bytes, over the {cap}-character cap: the model got the first {cap} characters and the path of the whole text, {}",
            file.display()
        )),
    }
}

/// Writes `text` to a new file in `folder`; the name is unique within the
/// process run. Like every state file it is `0600` in a `0700` folder: a
/// tool's output may hold what only its user should read.
fn save_whole(text: &str, folder: &Path) -> std::io::Result<PathBuf> {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(folder)?;
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|elapsed| elapsed.as_millis())
        .unwrap_or(0);
    let number = NEXT.fetch_add(1, Ordering::Relaxed);
    let path = folder.join(format!(
        "output-{stamp}-{}-{number}.txt",
        std::process::id()
    ));
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&path)?;
    file.write_all(text.as_bytes())?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_whole_text_is_saved_private_to_its_user() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("s");
        save_whole_and_cap("abcdef".into(), 2, &folder, "output");
        let file = std::fs::read_dir(&folder).unwrap().next().unwrap().unwrap();
        let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
        assert_eq!((mode(&folder), mode(&file.path())), (0o700, 0o600));
    }

    #[test]
    fn text_within_the_cap_is_kept_whole_with_no_warning() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            save_whole_and_cap("abc".into(), 3, dir.path(), "output"),
            CappedText {
                text: "abc".into(),
                warning: None
            }
        );
    }

    #[test]
    fn text_over_the_cap_is_saved_whole_and_the_model_gets_its_start_and_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let capped = save_whole_and_cap("abcdef".into(), 2, &dir.path().join("s"), "output");
        let files: Vec<PathBuf> = std::fs::read_dir(dir.path().join("s"))
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .collect();
        let [file] = files.as_slice() else {
            panic!("one file: {files:?}")
        };
        assert_eq!(
            (std::fs::read_to_string(file).unwrap(), capped),
            (
                "abcdef".to_owned(),
                CappedText {
                    text: format!(
                        "ab\n[output cut at 2 of 6 characters; the whole text is in {}]",
                        file.display()
                    ),
                    warning: Some(format!("output had 6 characters, over the 2-character cap: the model got the first 2 and the path of the whole text, {}", file.display())),
                }
            )
        );
    }

    #[test]
    fn short_output_is_kept_whole() {
        assert_eq!(truncate_output("abc".into(), 3), "abc");
    }

    #[test]
    fn long_output_is_cut_with_a_marker_counting_characters() {
        assert_eq!(
            truncate_output("héllo".into(), 2),
            "hé\n[output truncated: 3 of 5 characters cut]"
        );
    }
}
