//! AgentHub's shared vocabulary: chat messages in the OpenAI shape, tool calls,
//! the failure codes of tool results, run outcomes, token usage and transcript
//! records.
//!
//! This crate is pure data. It must never do IO, spawn tasks or know about
//! terminals: every other crate depends on it, and it must stay cheap to build
//! and trivial to test.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod claude_line;
mod error_code;
mod hook_event;
mod hook_record;
mod journal;
mod mcp_name;
mod message;
mod outcome;
mod pairing;
mod permission;
mod permission_mode;
mod reminder;
mod stop_reason;
mod tool_spec;
mod transcript;
mod usage;

pub use error_code::{not_run, ErrorCode, ToolResultText, NOT_RUN};
pub use hook_event::{FailurePolicy, HookEvent, MatcherTarget};
pub use hook_record::{HookDecision, HookOutcomeKind, HookRecord, RecordedEvent, ToolResultKind};
pub use journal::{StepError, StepFuture, StepJournal, StepKind};
pub use mcp_name::{
    is_tool_of_mcp_server, mcp_name_rest, mcp_server_of, mcp_tool_name, MCP_TOOL_PREFIX,
};
pub use message::{CallOrigin, FunctionCall, Message, ToolCall};
pub use outcome::RunStatus;
pub use pairing::{answer_unanswered, check_pairing, PairingError};
pub use permission::PermissionSuggestion;
pub use permission::{PermissionEffect, PermissionSource};
pub use permission_mode::{PermissionMode, UnknownMode};
pub use reminder::{typed_prompt, with_reminder, REMINDER_CLOSE, REMINDER_OPEN};
pub use stop_reason::StopReason;
pub use tool_spec::ToolSpec;
pub use transcript::{
    CheckpointRecord, CompactionRecord, CompactionTrigger, OutcomeRecord, PermissionModeRecord,
    PermissionRecord, RewindRecord, RewindScope, SessionRecord, TranscriptRecord, UsageRecord,
};
pub use usage::Usage;
