//! AgentHub served to another program (contract §23): [`acp`] makes it an
//! Agent Client Protocol agent that editors such as Zed drive, [`mcp`] an
//! MCP server whose tools other agents call. The sessions are the facade's
//! (`agenthub`): the same settings, trust, hooks, rules, sandbox and
//! transcript as any other run.
//!
//! The library speaks the protocols on the reader and writer it is given
//! and nothing else: it never parses a command line and never writes to the
//! terminal. What the embedding program decides — the options every session
//! starts from ([`Flags`]), where the audit lines go and how a headless ask
//! is worded ([`Host`]) — comes in as parameters.

#![forbid(unsafe_code)]

pub mod acp;
mod error;
mod host;
pub mod mcp;

pub use error::ServeError;
pub use host::{Flags, Host, ServedBy};
