//! Event contexts: each carries only its event's data (contract §3 table).

use agenthub_protocol::{CompactionTrigger, ErrorCode, Message, RunStatus};
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
    /// The run's session id (command hooks' `session_id`), to correlate a
    /// hook's events with each other and with the transcript.
    pub session_id: String,
    /// The workspace root (command hooks' `cwd`); tool paths are resolved
    /// against it.
    pub workspace: PathBuf,
    /// Where the run's transcript is written, when it is.
    pub transcript_path: Option<PathBuf>,
    /// The permission mode's settings name (`default`, `plan`, `acceptEdits`, …).
    pub permission_mode: String,
    /// Cancelled when the run is: a long-running hook should stop early.
    pub cancel: CancellationToken,
    /// The subagent whose run fired the event (contract §17): command hooks get
    /// its `agent_id` and `agent_type`. `None` for the session's own run.
    pub agent: Option<SubagentIdentity>,
}

/// Which subagent a hook event belongs to: every hook of a subagent's run
/// is told, so one script can govern parent and child alike.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubagentIdentity {
    /// Unique within the session: names the subagent's records in the
    /// transcript and its hook payloads (`agent_id`).
    pub agent_id: String,
    /// The definition it was started from, e.g. `general-purpose` (`agent_type`).
    pub agent_type: String,
}

/// What a SubagentStart hook sees: a subagent is about to get its prompt.
/// `common.agent` names it.
#[derive(Debug, Clone)]
pub struct SubagentStartContext {
    /// What every event carries; `agent` is the subagent starting.
    pub common: HookCommon,
    /// What the parent asked it to do (the Task call's `description`).
    pub description: String,
}

/// What a SubagentStop hook sees: the subagent answered without tool calls.
/// It is Stop's context (the subagent's history, its candidate answer,
/// `stop_hook_active`) with `common.agent` naming the subagent, and a
/// SubagentStop hook may force one continuation exactly as a Stop hook does.
pub type SubagentStopContext = StopContext;

/// Why a session starts; SessionStart hooks (and their matchers) tell a fresh
/// session from a resumed one by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionSource {
    /// A new session.
    Startup,
    /// A session continued from an earlier one.
    Resume,
    /// A session whose history was just compacted.
    Compact,
}

impl SessionSource {
    /// The protocol's name for it (`startup`, `resume`, `compact`): the `source` field of
    /// a command hook's stdin and what a SessionStart matcher is matched against.
    pub fn as_str(self) -> &'static str {
        match self {
            SessionSource::Startup => "startup",
            SessionSource::Resume => "resume",
            SessionSource::Compact => "compact",
        }
    }
}

/// What a SessionStart hook sees: the session is about to begin, nothing has
/// been asked yet.
#[derive(Debug, Clone)]
pub struct SessionStartContext {
    /// What every event carries.
    pub common: HookCommon,
    /// Whether the session is new or resumed.
    pub source: SessionSource,
    /// The model the run talks to, when the embedding application named it.
    pub model: Option<String>,
}

/// What a UserPromptSubmit hook sees: the user's prompt, before the first
/// model request.
#[derive(Debug, Clone)]
pub struct UserPromptSubmitContext {
    /// What every event carries.
    pub common: HookCommon,
    /// The prompt as the user gave it; hooks can add context or block it,
    /// never rewrite it.
    pub prompt: String,
}

/// A prepared call: known tool, input valid for its schema. `call.input()` is
/// the input as rewritten by the hooks before this one.
#[derive(Debug, Clone)]
pub struct PreToolUseContext {
    /// What every event carries.
    pub common: HookCommon,
    /// The call about to go to permission; return a rewrite with
    /// [`PreparedCall::with_input`].
    pub call: PreparedCall,
}

/// What the handler returned. `output` is the text that will enter history, as
/// rewritten by the hooks before this one; a failed tool's own error is kept as
/// data in `failure`, so no one parses it back out of the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolOutcome {
    /// The text that will enter history (for a failed tool, its
    /// `Error [tool_error]: …` line).
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
    /// How long the handler ran (command hooks' `duration_ms`).
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

/// What a PostToolUse hook sees: a call whose handler ran (successfully or
/// not) and its result, before the result enters history.
#[derive(Debug, Clone)]
pub struct PostToolUseContext {
    /// What every event carries.
    pub common: HookCommon,
    /// The call as it ran (with any PreToolUse rewrite).
    pub call: PreparedCall,
    /// What the handler returned, as rewritten by the hooks before this one.
    pub result: ToolOutcome,
}

/// A call the permission policy answered with `ask`, before anyone is prompted.
#[derive(Debug, Clone)]
pub struct PermissionRequestContext {
    /// What every event carries.
    pub common: HookCommon,
    /// The call the policy asks about, exactly as it would run.
    pub call: PreparedCall,
    /// Why the policy asks.
    pub reason: String,
}

/// What a Stop hook sees: the model answered without tool calls, and the
/// answer is only a candidate until the Stop hooks let it stand.
#[derive(Debug, Clone)]
pub struct StopContext {
    /// What every event carries.
    pub common: HookCommon,
    /// The whole conversation so far, to judge whether the task is done.
    pub history: Arc<[Message]>,
    /// The candidate final answer.
    pub last_assistant_message: String,
    /// True when the run already continues because of a Stop hook.
    pub stop_hook_active: bool,
}

/// What a SessionEnd hook sees: the run is over; hooks can only observe
/// (clean up, log, notify).
#[derive(Debug, Clone)]
pub struct SessionEndContext {
    /// What every event carries.
    pub common: HookCommon,
    /// How the run ended.
    pub reason: RunStatus,
    /// Why the session ends, in Claude Code's words (the payload's `reason`).
    pub exit: SessionEndReason,
}

/// Why a session ends (SessionEnd's `reason`; a SessionEnd matcher sees it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SessionEndReason {
    /// `/clear`: the person started a new session.
    Clear,
    /// `/resume`: the person switched to an earlier session.
    Resume,
    /// The person logged out (Claude Code's `/logout`; AgentHub has no
    /// login, so only embedding applications use it).
    Logout,
    /// The person left the interactive session (`/exit`, Ctrl-D).
    PromptInputExit,
    /// Anything else: a headless run that ended on its own.
    #[default]
    Other,
}

impl SessionEndReason {
    /// Every reason, in Claude Code's order.
    pub const ALL: [SessionEndReason; 5] = [
        SessionEndReason::Clear,
        SessionEndReason::Resume,
        SessionEndReason::Logout,
        SessionEndReason::PromptInputExit,
        SessionEndReason::Other,
    ];

    /// The protocol's name: `clear`, `resume`, `logout`,
    /// `prompt_input_exit` or `other`.
    pub fn as_str(self) -> &'static str {
        match self {
            SessionEndReason::Clear => "clear",
            SessionEndReason::Resume => "resume",
            SessionEndReason::Logout => "logout",
            SessionEndReason::PromptInputExit => "prompt_input_exit",
            SessionEndReason::Other => "other",
        }
    }
}

/// What a Notification hook sees: the session waits for the person.
#[derive(Debug, Clone)]
pub struct NotificationContext {
    /// What every event carries.
    pub common: HookCommon,
    /// What the person is told (`AgentHub needs your permission to use Bash`).
    pub message: String,
    /// What it waits for: `permission_prompt` or `idle_prompt`.
    pub notification_type: String,
}

/// What a PreCompact hook sees: the history is about to be summarised.
#[derive(Debug, Clone)]
pub struct PreCompactContext {
    /// What every event carries.
    pub common: HookCommon,
    /// Whether the user asked (`manual`) or the budget did (`auto`).
    pub trigger: CompactionTrigger,
    /// What the user asked the summary to focus on (manual only; empty otherwise).
    pub custom_instructions: String,
}
