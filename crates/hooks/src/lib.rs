//! Lifecycle hooks (contract §3): one context type and one result type per event, so
//! that a hook cannot write a field its event does not allow; a registry that keeps
//! hooks per event in registration order; and the rules that combine the results
//! of several hooks (pipelines, short circuits, strictest-wins, ordered context).
//!
//! Three parts, each ignorant of the others' particulars:
//! - `events/` — one module per event: its context, result, verdict and fold,
//!   and its side of Claude Code's wire (stdin JSON, accepted output, matcher
//!   subject), tied together by one trait, `EventSpec`.
//! - `engine/` — the one hook chain every event runs through, and the records
//!   of each hook run; it never names an event.
//! - [`command`] — the Claude Code adapter: settings entries become registry
//!   entries, run as a command, an HTTP POST, a model prompt, an agent, an
//!   MCP tool call or a callback of the embedding application, and their
//!   output is read against the event's contract.
//!
//! This crate decides what the hooks *said*. It never runs a tool, never decides
//! a permission and never writes history: `agenthub-core` acts on the verdicts.

#![warn(missing_docs)]

pub mod command;
mod common;
mod engine;
mod entry;
mod error;
pub mod events;
mod registry;

pub use command::{
    CallCondition, CommandHookError, CommandHooks, CommandRunReport, ConditionCompiler,
    ConditionError, HookCallbackCaller, HookCallbackError, HookServices, McpHookCallError,
    McpToolCaller, RunLog,
};
pub use common::{HookCommon, SubagentIdentity};
pub use engine::{HookRun, ObservedResult};
pub use entry::{FailurePolicy, HookEntry, HookEvent, HookOrigin};
pub use error::{ContractError, ExecutionError, HookError};
pub use events::sample::{run_sample, SampleEnv, SampleError, SampleRun};
pub use events::{
    BatchedCall, InstructionsLoadedContext, NotificationContext, NotificationResult,
    PermissionBehavior, PermissionDeniedContext, PermissionRequestContext, PermissionRequestResult,
    PermissionRequestVerdict, PostCompactContext, PostToolBatchContext, PostToolBatchResult,
    PostToolBatchVerdict, PostToolUseContext, PostToolUseResult, PostToolUseVerdict,
    PreCompactContext, PreCompactResult, PreCompactVerdict, PreToolUseContext, PreToolUseResult,
    PreToolUseVerdict, SessionEndContext, SessionEndReason, SessionEndResult, SessionSource,
    SessionStartContext, SessionStartResult, SessionStartVerdict, StopContext, StopDecision,
    StopFailureContext, StopResult, StopVerdict, SubagentStartContext, SubagentStartResult,
    SubagentStartVerdict, SubagentStopContext, SubagentStopResult, ToolOutcome,
    UserPromptExpansionContext, UserPromptSubmitContext, UserPromptSubmitResult,
    UserPromptSubmitVerdict,
};
pub use registry::HookRegistry;
