//! Why a settings file was refused. Every variant names the file; invalid
//! content also names the JSON path (`hooks.PreToolUse[0].hooks[1].timeout`).

use std::path::PathBuf;
use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SettingsError {
    #[error("cannot read settings file {}: {message}", file.display())]
    Unreadable { file: PathBuf, message: String },
    #[error("malformed settings file {} at line {line}, column {column}: {message}", file.display())]
    Malformed {
        file: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("invalid settings file {} at {path}: {message}", file.display())]
    Invalid {
        file: PathBuf,
        path: String,
        message: String,
    },
}
