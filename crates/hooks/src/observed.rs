//! The events added with contract §21: StopFailure, PermissionDenied, PostCompact
//! and InstructionsLoaded, whose hooks only observe (they may only tell the
//! user something), and PostToolBatch, whose hooks may also add context for
//! the model, and UserPromptExpansion, whose hooks may block a command as
//! UserPromptSubmit hooks block a prompt. Each context carries only its event's data; a failing hook is
//! recorded while the run goes on. Nothing here decides.

use crate::HookCommon;
use agenthub_protocol::CompactionTrigger;
use serde_json::Value;
use std::path::PathBuf;

/// What a StopFailure hook sees: the run ends on a model or provider error.
#[derive(Debug, Clone)]
pub struct StopFailureContext {
    /// What every event carries.
    pub common: HookCommon,
    /// The error, as the run's outcome says it.
    pub error: String,
}

/// What a PermissionDenied hook sees: permission refused a call.
#[derive(Debug, Clone)]
pub struct PermissionDeniedContext {
    /// What every event carries.
    pub common: HookCommon,
    /// The tool the call asked for.
    pub tool_name: String,
    /// The call's input, as the model gave it (after PreToolUse rewrites).
    pub tool_input: Value,
    /// The call's id.
    pub tool_use_id: String,
    /// Why it was refused, as the model is told.
    pub reason: String,
}

/// What a PostCompact hook sees: the history was compacted.
#[derive(Debug, Clone)]
pub struct PostCompactContext {
    /// What every event carries.
    pub common: HookCommon,
    /// Whether the user asked (`manual`) or the budget did (`auto`).
    pub trigger: CompactionTrigger,
    /// The summary that now stands for the older history.
    pub compact_summary: String,
}

/// What an InstructionsLoaded hook sees: one memory file was loaded.
#[derive(Debug, Clone)]
pub struct InstructionsLoadedContext {
    /// What every event carries.
    pub common: HookCommon,
    /// The memory file, absolute.
    pub file_path: PathBuf,
    /// Why it was loaded: `session_start` (or `compact` when a compacted
    /// history is rebuilt), Claude Code's values.
    pub load_reason: String,
}

/// What an observing hook can do: tell the user something.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ObservedResult {
    /// A warning shown to the user, never to the model.
    pub system_message: Option<String>,
}

/// One call of a PostToolBatch batch, as hooks see it.
#[derive(Debug, Clone, PartialEq)]
pub struct BatchedCall {
    /// The tool the call asked for.
    pub tool_name: String,
    /// The call's id.
    pub tool_use_id: String,
    /// The call's input as the model gave it (its raw text when not JSON).
    pub tool_input: Value,
    /// Whether its result is an error (failed, denied, blocked, not run).
    pub is_error: bool,
}

/// What a PostToolBatch hook sees: every call of one assistant message,
/// each with its result's kind, after all of them have a result.
#[derive(Debug, Clone)]
pub struct PostToolBatchContext {
    /// What every event carries.
    pub common: HookCommon,
    /// The calls, in the message's order.
    pub tool_calls: Vec<BatchedCall>,
}

/// What a PostToolBatch hook may say: context for the model, a warning.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PostToolBatchResult {
    /// Text for the model, added as a system message after the batch's results.
    pub additional_context: Option<String>,
    /// A warning shown to the user, never to the model.
    pub system_message: Option<String>,
}

/// What a UserPromptExpansion hook sees: a slash command (or skill) is about
/// to be expanded into a prompt (contract §20).
#[derive(Debug, Clone)]
pub struct UserPromptExpansionContext {
    /// What every event carries.
    pub common: HookCommon,
    /// What is expanded: `slash_command` or `skill`.
    pub expansion_type: String,
    /// The command's name, without the slash (matchers match it).
    pub command_name: String,
    /// The text after the command's name.
    pub command_args: String,
    /// The prompt as typed.
    pub prompt: String,
}
