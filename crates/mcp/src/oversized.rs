//! An MCP result larger than AgentHub reads whole (16 MiB, contract §26)
//! still reaches the model the way §21 cuts any long output (contract §31):
//! the start of the server's answer and a note naming the file that holds
//! it whole, moved into the session's outputs folder — not an error naming
//! only the file. The start is read from the file's first bytes: the
//! message is never held whole in memory, and nothing here writes a
//! protocol message.

use std::io::Read;
use std::path::{Path, PathBuf};

/// The most bytes read from the saved message for its start: enough for
/// the cap's characters even when every one is written as `\uXXXX`.
const MAX_PREVIEW_BYTES: u64 = 4 * 1024 * 1024;

/// An answer too long to read, as the model gets it.
pub(crate) struct TooLong<'a> {
    /// The tool's registry name (`mcp__server__tool`).
    pub(crate) tool: &'a str,
    /// The message's size in bytes.
    pub(crate) bytes: u64,
    /// The most bytes read whole.
    pub(crate) limit: usize,
}

impl TooLong<'_> {
    /// The first characters of the answer saved in `file` and a note naming
    /// where it is whole, at most `cap` characters in all. The file is moved
    /// into `outputs` (the session's folder) when there is one.
    pub(crate) fn cut_with_note(&self, file: &Path, outputs: Option<&Path>, cap: usize) -> String {
        let path = outputs
            .and_then(|folder| move_into(file, folder).ok())
            .unwrap_or_else(|| file.to_path_buf());
        let note = format!(
            "\n[{} output cut: the server's answer was {} bytes, more than the {} AgentHub reads whole; \
             the whole answer, as the server sent it (a JSON-RPC message), is in {}]",
            self.tool,
            self.bytes,
            self.limit,
            path.display()
        );
        let keep = cap.saturating_sub(note.chars().count());
        format!("{}{note}", preview(&path, keep))
    }
}

/// Moves `file` into `folder` (created `0700` if missing); a copy when they
/// are on different file systems.
fn move_into(file: &Path, folder: &Path) -> std::io::Result<PathBuf> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(folder)?;
    let name = file.file_name().unwrap_or_default();
    let target = folder.join(format!("mcp-{}", name.to_string_lossy()));
    if std::fs::rename(file, &target).is_err() {
        std::fs::copy(file, &target)?;
        std::fs::remove_file(file)?;
    }
    // The staging folder goes once it holds nothing more.
    if let Some(staging) = file.parent() {
        let _ = std::fs::remove_dir(staging);
    }
    Ok(target)
}

/// The first `keep` characters of the answer's first text block, else of
/// the message as saved; empty when the file cannot be read.
fn preview(path: &Path, keep: usize) -> String {
    let mut start = Vec::new();
    let read = std::fs::File::open(path)
        .and_then(|file| file.take(MAX_PREVIEW_BYTES).read_to_end(&mut start));
    if read.is_err() {
        return String::new();
    }
    let text = first_text(&start).unwrap_or_else(|| String::from_utf8_lossy(&start).into_owned());
    text.chars().take(keep).collect()
}

/// The (start of the) first `"text": "…"` string in `json`, decoded.
fn first_text(json: &[u8]) -> Option<String> {
    let key = b"\"text\":";
    let at = json.windows(key.len()).position(|window| window == key)?;
    let rest = &json[at + key.len()..];
    let open = rest.iter().position(|byte| !byte.is_ascii_whitespace())?;
    let body = rest[open..].strip_prefix(b"\"")?;
    let mut escaped = false;
    let end = body
        .iter()
        .position(|&byte| {
            let closes = byte == b'"' && !escaped;
            escaped = byte == b'\\' && !escaped;
            closes
        })
        .unwrap_or(body.len());
    // A string cut short may end inside an escape or a character: drop
    // bytes from its end until it reads.
    (0..=12.min(end)).find_map(|drop| {
        let mut quoted = Vec::with_capacity(end + 2);
        quoted.push(b'"');
        quoted.extend_from_slice(&body[..end - drop]);
        quoted.push(b'"');
        serde_json::from_slice::<String>(&quoted).ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_text_block_is_decoded_even_when_cut_inside_an_escape() {
        let message = br#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"a\nb\u00e9c\u00"#;
        assert_eq!(first_text(message), Some("a\nb\u{e9}c".to_owned()));
    }

    #[test]
    fn a_whole_text_block_ends_at_its_closing_quote() {
        let message =
            br#"{"content":[{"type":"text", "text": "say \"hi\""},{"type":"text","text":"x"}]}"#;
        assert_eq!(first_text(message), Some("say \"hi\"".to_owned()));
    }

    #[test]
    fn the_note_names_the_file_moved_into_the_outputs_folder_within_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let saved = dir.path().join("message-0.json");
        let body = "y".repeat(500);
        std::fs::write(
            &saved,
            format!(r#"{{"result":{{"content":[{{"type":"text","text":"{body}"}}]}}}}"#),
        )
        .unwrap();
        let outputs = dir.path().join("s.outputs");
        let too_long = TooLong {
            tool: "mcp__t__big",
            bytes: 20_000_000,
            limit: 16,
        };
        let text = too_long.cut_with_note(&saved, Some(&outputs), 300);
        let moved = outputs.join("mcp-message-0.json");
        let note = format!(
            "\n[mcp__t__big output cut: the server's answer was 20000000 bytes, more than the 16 AgentHub reads whole; \
             the whole answer, as the server sent it (a JSON-RPC message), is in {}]",
            moved.display()
        );
        let kept = 300 - note.chars().count();
        assert_eq!(
            (text, saved.exists(), moved.exists()),
            (format!("{}{note}", "y".repeat(kept)), false, true)
        );
    }
}
