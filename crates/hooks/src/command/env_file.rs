//! `CLAUDE_ENV_FILE`: a file SessionStart command hooks may write `export
//! NAME=value` lines to; AgentHub applies them to every later Bash call of
//! the session, as Claude Code does. Lines that are not an export are
//! ignored; nothing here runs the file.

use agenthub_tools::ProcessEnv;
use std::path::{Path, PathBuf};

/// The session's env file: in the temporary folder, named by the user id and
/// the session (only letters, digits, `-` and `_` of it).
pub(crate) fn path(session_id: &str) -> PathBuf {
    let safe: String = session_id
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    // SAFETY: getuid has no preconditions and cannot fail.
    let uid = unsafe { libc::getuid() };
    std::env::temp_dir().join(format!("agenthub-{uid}-{safe}.env"))
}

/// Reads `file` (when a hook wrote it) and sets its exports in `env`.
pub(crate) fn apply(file: &Path, env: &ProcessEnv) {
    if let Ok(text) = std::fs::read_to_string(file) {
        env.extend(exports(&text));
    }
}

/// The `export NAME=value` (or `NAME=value`) lines of `text`; quotes around
/// the value are removed.
pub(crate) fn exports(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|line| {
            let line = line.trim();
            let line = line.strip_prefix("export ").unwrap_or(line).trim_start();
            let (name, value) = line.split_once('=')?;
            let valid = !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !name.starts_with(|c: char| c.is_ascii_digit());
            valid.then(|| (name.to_owned(), unquote(value.trim())))
        })
        .collect()
}

fn unquote(value: &str) -> String {
    for quote in ['"', '\''] {
        if let Some(inner) = value
            .strip_prefix(quote)
            .and_then(|rest| rest.strip_suffix(quote))
        {
            return inner.to_owned();
        }
    }
    value.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn export_lines_are_read_with_their_quotes_removed_and_the_rest_ignored() {
        let text = "export A=1\nexport B=\"two words\"\n# comment\nC='x'\necho hi\n1X=bad\n";
        assert_eq!(
            exports(text),
            vec![
                ("A".to_owned(), "1".to_owned()),
                ("B".to_owned(), "two words".to_owned()),
                ("C".to_owned(), "x".to_owned()),
            ]
        );
    }
}
