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
    /// A service the command needs cannot be reached or refused (exit 1).
    #[error("{0}")]
    Unavailable(String),
}

impl CliError {
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Internal(_) | CliError::Unavailable(_) => 1,
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

impl From<agenthub_fleet::ClientError> for CliError {
    fn from(error: agenthub_fleet::ClientError) -> Self {
        match error {
            agenthub_fleet::ClientError::BadUrl { .. }
            | agenthub_fleet::ClientError::NotFound { .. } => CliError::Usage(error.to_string()),
            _ => CliError::Unavailable(error.to_string()),
        }
    }
}

impl From<agenthub_serve::ServeError> for CliError {
    fn from(error: agenthub_serve::ServeError) -> Self {
        use agenthub_serve::ServeError;
        match error {
            ServeError::Setup(error) => error.into(),
            ServeError::Internal(why) => CliError::Internal(why),
            ServeError::Transport(why) => {
                CliError::Unavailable(format!("cannot serve MCP on stdio: {why}"))
            }
            ServeError::Stopped(why) => {
                CliError::Internal(format!("the MCP server stopped: {why}"))
            }
            ServeError::Input(error) => CliError::Unavailable(error.to_string()),
        }
    }
}
