//! Why a settings file was refused. Every variant names the file; invalid
//! content also names the JSON path (`hooks.PreToolUse[0].hooks[1].timeout`).

use std::path::PathBuf;
use thiserror::Error;

/// A settings file AgentHub refuses to start with: the caller reports it (the
/// CLI exits with status 2) instead of running with a hook missing.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SettingsError {
    /// The file could not be read (a missing `--settings` file, no permission).
    #[error("cannot read settings file {}: {message}", file.display())]
    Unreadable {
        /// The file.
        file: PathBuf,
        /// The operating system's reason.
        message: String,
    },
    /// The file is not JSON.
    #[error("malformed settings file {} at line {line}, column {column}: {message}", file.display())]
    Malformed {
        /// The file.
        file: PathBuf,
        /// Where the JSON breaks: line, from 1.
        line: usize,
        /// Where the JSON breaks: column, from 1.
        column: usize,
        /// The JSON parser's reason, without its own position suffix.
        message: String,
    },
    /// A key appears twice in one object: which one should win is not guessed
    /// (a later `"deny": []` would silently drop the deny rules above it).
    #[error("settings file {} has the key {key} twice (the second at line {line}, column {column}); keep one", file.display())]
    DuplicateKey {
        /// The file.
        file: PathBuf,
        /// The JSON path of the repeated key (`permissions.deny`).
        key: String,
        /// Where the second occurrence ends: line, from 1.
        line: usize,
        /// Where the second occurrence ends: column, from 1.
        column: usize,
    },
    /// The file is JSON but a known key has a value AgentHub cannot use (an
    /// unknown event, a hook without `command`, a bad matcher regex, …).
    #[error("invalid settings file {} at {path}: {message}", file.display())]
    Invalid {
        /// The file.
        file: PathBuf,
        /// The JSON path of the offending value, `$` for the whole document.
        path: String,
        /// What is wrong and what was expected.
        message: String,
    },
}
