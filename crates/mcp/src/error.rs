//! What can go wrong with MCP servers: a configuration entry that cannot be
//! read, a server that does not start, a call that fails on the way.
//! Start-up errors name the server, its command and its stderr tail, which is
//! what a person needs to fix a server.

use std::path::{Path, PathBuf};
use thiserror::Error;

/// A server entry that could not be read; the server is left out.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("MCP server {server} in {}: {message}", file.display())]
pub struct ConfigError {
    /// The file holding the entry.
    pub file: PathBuf,
    /// The server's name (empty when the whole section is wrong).
    pub server: String,
    /// What is wrong.
    pub message: String,
}

impl ConfigError {
    pub(crate) fn new(file: &Path, server: &str, message: impl Into<String>) -> Self {
        ConfigError {
            file: file.to_path_buf(),
            server: server.to_owned(),
            message: message.into(),
        }
    }
}

/// A server that could not be reached, or a call that did not complete.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum McpError {
    /// No configured server has this name.
    #[error("no MCP server is named {0}")]
    UnknownServer(String),
    /// The server did not start or did not answer the handshake.
    #[error(
        "MCP server {server} ({command}) did not start: {message}{}",
        tail(stderr)
    )]
    Start {
        /// The server's name.
        server: String,
        /// Its command line or URL.
        command: String,
        /// What went wrong.
        message: String,
        /// The last lines the server wrote to stderr.
        stderr: String,
    },
    /// An `sdk` server in a session no Agent SDK application started: there
    /// is nobody to serve it (`agenthub mcp list`, or a run without
    /// `--input-format stream-json`).
    #[error("MCP server {server} did not start: an `sdk` server is served by the Agent SDK application that started agenthub with --input-format stream-json; none did")]
    NoSdkApplication {
        /// The server's name.
        server: String,
    },
    /// The server exited (or its connection closed) during a call.
    #[error("MCP server {server} exited during the call{}", tail(stderr))]
    Exited {
        /// The server's name.
        server: String,
        /// The last lines the server wrote to stderr.
        stderr: String,
    },
    /// The call did not answer within `MCP_TOOL_TIMEOUT`; it was cancelled.
    #[error("MCP tool {tool} of server {server} did not answer within {seconds} s (MCP_TOOL_TIMEOUT); the call was cancelled")]
    Timeout {
        /// The server's name.
        server: String,
        /// The tool called.
        tool: String,
        /// The limit, in seconds.
        seconds: f64,
    },
    /// The run was cancelled (Ctrl-C); the server was sent a cancellation.
    #[error("the call to MCP server {0} was cancelled")]
    Cancelled(String),
    /// The server answered with a message too long to read (contract §26): the
    /// call ends at once, and the message is kept whole in a file (the tool
    /// then gives the model its start and a note naming the file, §31).
    #[error("MCP server {server} answered with a message of {bytes} bytes, more than the {limit} bytes AgentHub reads; {}", saved_text(.file))]
    Oversized {
        /// The server.
        server: String,
        /// The message's size.
        bytes: u64,
        /// The most bytes read.
        limit: usize,
        /// The file holding the message whole, as the server sent it, or why
        /// it could not be saved.
        file: Result<std::path::PathBuf, String>,
    },
    /// The server answered with a protocol error.
    #[error("MCP server {server}: {message}")]
    Protocol {
        /// The server's name.
        server: String,
        /// The server's or the SDK's message.
        message: String,
    },
}

fn saved_text(file: &Result<std::path::PathBuf, String>) -> String {
    match file {
        Ok(path) => format!(
            "it is saved whole, as the server sent it, in {}",
            path.display()
        ),
        Err(problem) => format!("it could not be saved: {problem}"),
    }
}

fn tail(stderr: &str) -> String {
    if stderr.trim().is_empty() {
        String::new()
    } else {
        format!("; its stderr ends with:\n{}", stderr.trim_end())
    }
}
