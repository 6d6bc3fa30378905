//! `CLAUDE_ENV_FILE`: a file SessionStart command hooks may write shell
//! lines to (`export NAME=value`, `export PATH="…:$PATH"`, `declare -x` from
//! `export -p`); bash runs it before every later Bash command of the session,
//! inside the sandbox, as Claude Code does (contract §21). Nothing here parses
//! or runs it: its text is handed to the Bash tool as it is. The file itself
//! (private, made exclusively, removed with the session) is the session's
//! [`ProcessEnv`]'s.

use agenthub_tools::ProcessEnv;
use std::path::Path;

/// Reads `file` (when a hook wrote it) and makes its text what bash runs
/// before each command.
pub(crate) fn apply(file: &Path, env: &ProcessEnv) {
    if let Ok(text) = std::fs::read_to_string(file) {
        env.set_prelude(text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_files_text_becomes_the_prelude_unchanged() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("env");
        let text = "export PATH=\"/opt/bin:$PATH\"\ndeclare -x B=\"two words\"\n";
        std::fs::write(&file, text).unwrap();
        let env = ProcessEnv::default();
        apply(&file, &env);
        assert_eq!(env.prelude(), Some(text.to_owned()));
    }
}
