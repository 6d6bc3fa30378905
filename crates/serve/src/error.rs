//! Why serving could not start, a session could not be assembled, or
//! serving stopped.

use agenthub::SetupError;

/// An error of the serving library; its text is what a client is told.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The configuration, the model or the session could not be set up.
    #[error("{}", setup_text(.0))]
    Setup(#[from] SetupError),
    /// Something that should not happen.
    #[error("internal error: {0}")]
    Internal(String),
    /// The protocol could not start on the streams given.
    #[error("cannot serve MCP: {0}")]
    Transport(String),
    /// The MCP server stopped with an error.
    #[error("the MCP server stopped: {0}")]
    Stopped(String),
    /// The client's input could not be read; the sessions were ended.
    #[error("cannot read the client's input: {0}")]
    Input(#[source] std::io::Error),
}

/// A setup error as the CLI has always worded it: an internal one says so.
fn setup_text(error: &SetupError) -> String {
    match error.is_internal() {
        true => format!("internal error: {error}"),
        false => error.to_string(),
    }
}
