//! Event contexts: each carries only its event's data (SPEC §3 table).

use agenthub_protocol::{ErrorCode, Message, RunStatus};
use agenthub_tools::{PreparedCall, ToolError};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// What every event carries: the session, the workspace, the transcript, the
/// permission mode, and a token that is cancelled when the run is.
#[derive(Debug, Clone)]
pub struct HookCommon {
    pub session_id: String,
    pub workspace: PathBuf,
    pub transcript_path: Option<PathBuf>,
    pub permission_mode: String,
    pub cancel: CancellationToken,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionSource {
    Startup,
    Resume,
}

impl SessionSource {
    pub fn as_str(self) -> &'static str {
        match self {
            SessionSource::Startup => "startup",
            SessionSource::Resume => "resume",
        }
    }
}

#[derive(Debug, Clone)]
pub struct SessionStartContext {
    pub common: HookCommon,
    pub source: SessionSource,
    /// The model the run talks to, when the embedding application named it.
    pub model: Option<String>,
}

#[derive(Debug, Clone)]
pub struct UserPromptSubmitContext {
    pub common: HookCommon,
    pub prompt: String,
}

/// A prepared call: known tool, input valid for its schema. `call.input()` is
/// the input as rewritten by the hooks before this one.
#[derive(Debug, Clone)]
pub struct PreToolUseContext {
    pub common: HookCommon,
    pub call: PreparedCall,
}

/// What the handler returned. `output` is the text that will enter history, as
/// rewritten by the hooks before this one; a failed tool's own error is kept as
/// data in `failure`, so no one parses it back out of the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolOutcome {
    pub output: String,
    /// The handler's structured result (Claude Code's `tool_response` shape),
    /// which command hooks receive instead of `output` as PostToolUse
    /// `tool_response`. `None` when the tool gave none, when it failed, and
    /// once an earlier PostToolUse hook rewrote `output` (`updated_output`):
    /// the value would then describe a result the model no longer sees, so
    /// later hooks get the rewritten text instead.
    pub structured: Option<Value>,
    /// The tool ran and failed with this error (a PostToolUseFailure command
    /// hook's `error`); `None` when it succeeded.
    pub failure: Option<ToolError>,
    pub elapsed: Duration,
}

impl ToolOutcome {
    /// A tool that ran and returned `output` (and maybe a structured value).
    pub fn succeeded(output: String, structured: Option<Value>, elapsed: Duration) -> Self {
        ToolOutcome {
            output,
            structured,
            failure: None,
            elapsed,
        }
    }

    /// A tool that ran and failed: the model reads `Error [tool_error]: <message>`,
    /// rendered here and nowhere else; hooks get the error itself.
    pub fn failed(error: ToolError, elapsed: Duration) -> Self {
        ToolOutcome {
            output: ErrorCode::ToolError.result_text(&error.message),
            structured: None,
            failure: Some(error),
            elapsed,
        }
    }

    /// True when the tool ran and failed.
    pub fn is_error(&self) -> bool {
        self.failure.is_some()
    }
}

#[derive(Debug, Clone)]
pub struct PostToolUseContext {
    pub common: HookCommon,
    pub call: PreparedCall,
    pub result: ToolOutcome,
}

/// A call the permission policy answered with `ask`, before anyone is prompted.
#[derive(Debug, Clone)]
pub struct PermissionRequestContext {
    pub common: HookCommon,
    pub call: PreparedCall,
    /// Why the policy asks.
    pub reason: String,
}

#[derive(Debug, Clone)]
pub struct StopContext {
    pub common: HookCommon,
    pub history: Arc<[Message]>,
    /// The candidate final answer.
    pub last_assistant_message: String,
    /// True when the run already continues because of a Stop hook.
    pub stop_hook_active: bool,
}

#[derive(Debug, Clone)]
pub struct SessionEndContext {
    pub common: HookCommon,
    pub reason: RunStatus,
}
