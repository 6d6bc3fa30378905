//! Errors that end the command before or outside a run, and their exit codes.

use thiserror::Error;

#[derive(Debug, Error)]
pub enum CliError {
    /// Bad input: a missing or malformed file, a bad flag value (exit 2).
    #[error("{0}")]
    Usage(String),
    /// Something that should not happen (exit 1).
    #[error("internal error: {0}")]
    Internal(String),
}

impl CliError {
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Internal(_) => 1,
        }
    }
}

impl From<agenthub::SetupError> for CliError {
    fn from(error: agenthub::SetupError) -> Self {
        if error.is_internal() {
            CliError::Internal(error.to_string())
        } else {
            CliError::Usage(error.to_string())
        }
    }
}
