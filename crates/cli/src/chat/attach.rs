//! `@path` in a prompt attaches that file of the workspace: its text is sent
//! with the prompt, under a header naming it, as Claude Code does.
//!
//! A file is read through the workspace, so the boundary, the no-follow open
//! and the Read deny rules (the read guard) apply exactly as for the Read
//! tool: `@.env` under a `Read(./.env)` deny rule attaches nothing. Only the
//! first [`MAX_ATTACHED_BYTES`] of a file are sent, and the prompt says so.

use agenthub::Workspace;
use std::io::Read;

/// The most bytes of one file sent with a prompt.
pub const MAX_ATTACHED_BYTES: u64 = 256 * 1024;

/// A prompt with its attachments, and a line for the person about each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attached {
    /// What the model receives.
    pub prompt: String,
    /// `attached src/main.rs (120 bytes)`, `cannot attach x: …`.
    pub notes: Vec<String>,
}

/// The prompt `line` with each `@path` it names attached.
pub fn attach(line: &str, workspace: &Workspace) -> Attached {
    let mut prompt = line.to_owned();
    let mut notes = Vec::new();
    for path in mentioned(line) {
        match read_prefix(workspace, path) {
            Ok((text, cut)) => {
                let size = if cut {
                    format!("first {MAX_ATTACHED_BYTES} bytes")
                } else {
                    format!("{} bytes", text.len())
                };
                notes.push(format!("attached {path} ({size})"));
                prompt.push_str(&format!(
                    "\n\nContents of {path}{}:\n```\n{text}\n```",
                    if cut { " (cut short)" } else { "" }
                ));
            }
            Err(error) => notes.push(format!("cannot attach {path}: {error}")),
        }
    }
    Attached { prompt, notes }
}

/// The paths `@` names in `line`, each once, in order.
fn mentioned(line: &str) -> Vec<&str> {
    let mut paths: Vec<&str> = Vec::new();
    for word in line.split_whitespace() {
        if let Some(path) = word.strip_prefix('@') {
            let path = path.trim_end_matches([',', ';', ':', '!', '?', ')']);
            if !path.is_empty() && !paths.contains(&path) {
                paths.push(path);
            }
        }
    }
    paths
}

fn read_prefix(workspace: &Workspace, path: &str) -> std::io::Result<(String, bool)> {
    let file = workspace.open_for_read(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    let mut bytes = Vec::new();
    file.take(MAX_ATTACHED_BYTES + 1).read_to_end(&mut bytes)?;
    let cut = bytes.len() as u64 > MAX_ATTACHED_BYTES;
    bytes.truncate(MAX_ATTACHED_BYTES as usize);
    let text = String::from_utf8(bytes).map_err(|_| std::io::Error::other("not a text file"))?;
    Ok((text, cut))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn a_mentioned_file_is_sent_under_a_header_naming_it() {
        let root = tempfile::tempdir().unwrap();
        std::fs::write(root.path().join("notes.txt"), "buy milk").unwrap();
        let attached = attach("summarise @notes.txt", &Workspace::new(root.path()));
        assert_eq!(
            attached,
            Attached {
                prompt: "summarise @notes.txt\n\nContents of notes.txt:\n```\nbuy milk\n```"
                    .to_owned(),
                notes: vec!["attached notes.txt (8 bytes)".to_owned()],
            }
        );
    }

    #[test]
    fn a_file_the_read_guard_refuses_is_not_attached() {
        let root = tempfile::tempdir().unwrap();
        std::fs::write(root.path().join(".env"), "KEY=secret").unwrap();
        let workspace =
            Workspace::new(root.path()).with_read_guard(Arc::new(|_: &std::path::Path| false));
        let attached = attach("look at @.env", &workspace);
        assert_eq!(attached.prompt, "look at @.env");
        assert_eq!(attached.notes.len(), 1);
        assert!(
            attached.notes[0].starts_with("cannot attach .env: "),
            "{:?}",
            attached.notes
        );
    }
}
