//! The agent loop (contract §2) and the single pipeline that takes one tool call from
//! prepare to result: lookup and validation, PreToolUse hooks, permission,
//! approval, handler, PostToolUse hooks.
//!
//! Invariants this crate owns: every tool call passes through one pipeline
//! (the private `pipeline` module) and gets exactly one result; the history
//! passes the pairing check before every model request; nothing here prints —
//! what happens is told to [`Observer`]s, and the CLI decides what to show.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod agent;
mod agent_builder;
mod answer_schema;
mod approved_input;
mod before_writes;
mod budget;
mod clock;
mod compaction;
pub mod console;
mod cut_reply;
mod durable;
mod expansion;
mod hook_approver;
mod hook_context;
mod loop_guard;
mod observer;
mod observing_hooks;
mod one_call;
mod pipeline;
mod round;
mod run;
mod saved_session;
mod session;
mod subagent;
pub mod system_prompt;
mod tally;
mod timeline;
mod transcript;
mod transcript_file;
mod transcript_lines;

pub use agent::{Agent, RunReport, DEFAULT_MAX_PARALLEL_AGENTS, DEFAULT_MAX_TURNS};
pub use agent_builder::AgentBuilder;
pub use answer_schema::{AnswerMismatch, AnswerSchema, AnswerSchemaError, MAX_SCHEMA_RETRIES};
pub use before_writes::{BeforeWrites, WritingRound};
pub use budget::{
    estimate_message_tokens, estimate_tokens, known_context_window, ContextBudget, PromptTooLarge,
    DEFAULT_AUTO_COMPACT_THRESHOLD, DEFAULT_CONTEXT_WINDOW,
};
pub use clock::{utc_now, utc_time};
pub use compaction::{
    compacted, kept_suffix, kept_within, leading_system, summary_message, CompactionError,
    KEEP_LATEST, SUMMARY_HEADER, SUMMARY_INSTRUCTION,
};
pub use console::ConsoleObserver;
pub use durable::INTERRUPTED;
pub use expansion::{CommandPrompt, SLASH_COMMAND_EXPANSION};
pub use hook_approver::HookApprover;
pub use loop_guard::LoopGuardLimits;
pub use observer::{AgentEvent, NoopObserver, Observer, ObserverError, Observers};
pub use one_call::CallReport;
pub use saved_session::{read_session, read_session_record, SavedSession, SavedSessionError};
pub use session::{Carried, Session};
pub use subagent::{
    AgentDefinition, AgentDefinitions, DefinitionError, ModelResolver, SubagentHooks, SubagentInfo,
    TaskInput, TaskTool, GENERAL_PURPOSE, TASK_TOOL,
};
pub use system_prompt::{PromptSources, SystemPrompt};
pub use tally::PermissionDenial;
pub use timeline::{CheckpointPoint, PromptPoint, RewindPoint, Timeline};
pub use transcript::TranscriptWriter;
pub use transcript_file::{TranscriptFile, TranscriptFileError};
pub use transcript_lines::LineChain;
