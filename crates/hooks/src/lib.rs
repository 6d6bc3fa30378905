//! Lifecycle hooks (contract §3): one context type and one result type per event, so
//! that a hook cannot write a field its event does not allow; a registry that keeps
//! hooks per event in registration order; and the rules that combine the results
//! of several hooks (pipelines, short circuits, strictest-wins, ordered context).
//!
//! This crate decides what the hooks *said*. It never runs a tool, never decides
//! a permission and never writes history: `agenthub-core` acts on the verdicts.

#![warn(missing_docs)]

pub mod command;
mod context;
mod engine;
mod entry;
mod error;
mod observed;
mod registry;
mod result;

pub use command::{
    CallCondition, CommandHookError, CommandHooks, CommandRunReport, ConditionCompiler,
    ConditionError, HookServices, McpHookCallError, McpToolCaller, RunLog,
};
pub use context::{
    HookCommon, NotificationContext, PermissionRequestContext, PostToolUseContext,
    PreCompactContext, PreToolUseContext, SessionEndContext, SessionEndReason, SessionSource,
    SessionStartContext, StopContext, SubagentIdentity, SubagentStartContext, SubagentStopContext,
    ToolOutcome, UserPromptSubmitContext,
};
pub use engine::PostToolBatchVerdict;
pub use engine::{
    HookRun, PermissionRequestVerdict, PostToolUseVerdict, PreCompactVerdict, PreToolUseVerdict,
    SessionStartVerdict, StopDecision, StopVerdict, SubagentStartVerdict, UserPromptSubmitVerdict,
};
pub use entry::{FailurePolicy, HookEntry, HookEvent, HookOrigin};
pub use error::HookError;
pub use observed::{
    BatchedCall, InstructionsLoadedContext, ObservedResult, PermissionDeniedContext,
    PostCompactContext, PostToolBatchContext, PostToolBatchResult, StopFailureContext,
    UserPromptExpansionContext,
};
pub use registry::HookRegistry;
pub use result::{
    NotificationResult, PermissionBehavior, PermissionRequestResult, PostToolUseResult,
    PreCompactResult, PreToolUseResult, SessionEndResult, SessionStartResult, StopResult,
    SubagentStartResult, SubagentStopResult, UserPromptSubmitResult,
};
