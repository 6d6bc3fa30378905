//! What the embedding program gives the servers: the options every session
//! starts from, and the seams through which the library would otherwise
//! reach the terminal.

use agenthub::{HowToAllow, ModelOptions, Observer, Options, SetupWarning};
use std::sync::Arc;

/// What every served session starts from (the CLI: `run`'s flags); for ACP
/// the workspace is each session's `cwd`.
#[derive(Clone)]
pub struct Flags {
    pub options: Options,
    pub model: ModelOptions,
    pub max_turns: Option<u32>,
}

/// Which server serves the sessions, for the host's observers and messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServedBy {
    /// ACP: an editor's sessions.
    Acp,
    /// MCP: another agent's calls.
    McpServe,
}

/// The embedding program's part: the library never writes anywhere but the
/// protocol's writer, so the audit lines, the hints and the setup warnings
/// go where the host sends them (the CLI: stderr).
pub trait Host: Send + Sync + 'static {
    /// The observers added to every agent `door` assembles (the audit lines).
    fn observers(&self, door: ServedBy) -> Vec<Arc<dyn Observer>>;

    /// How an ask nobody could answer may be allowed, in the host's own
    /// words; an MCP tool result ends with it.
    fn hint(&self, tool: &str, how: &HowToAllow) -> String;

    /// The setup warnings of the MCP server's own configuration, before it
    /// serves (an ACP session's go to the editor instead).
    fn warnings(&self, warnings: Vec<SetupWarning>);
}
