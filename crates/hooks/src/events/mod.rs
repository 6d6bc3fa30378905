//! The lifecycle events, one module each. A module holds everything that is
//! particular to its event and nothing else: what its hooks are given (the
//! context), what they may return (the result), how several results become
//! one verdict (its `EventFold` and the
//! `HookRegistry::run_<event>` method), and how the event is spoken on Claude
//! Code's wire — its stdin JSON, the output fields it accepts, how a run's
//! answer reads as its result, and what a settings hook's matcher is compared
//! with. `EventSpec` is the one trait that ties these together; the engine
//! (`crate::engine`) and the Claude Code adapter (`crate::command`) are
//! generic over it and never name an event.
//!
//! Adding an event: a module here implementing `EventSpec` (and an
//! `EventFold` unless it only observes), one line in the registry's list
//! (`registry.rs`), one arm in `for_event` below (its name → its module),
//! and its documentation (ARCHITECTURE.md, docs/hooks.md).

pub mod input;
pub mod instructions_loaded;
pub mod notification;
pub mod permission_denied;
pub mod permission_request;
pub mod post_compact;
pub mod post_tool_batch;
pub mod post_tool_use;
pub mod pre_compact;
pub mod pre_tool_use;
pub mod sample;
pub mod session_end;
pub mod session_start;
pub mod stop;
pub mod stop_failure;
pub mod subagent_start;
pub mod subagent_stop;
pub mod user_prompt_expansion;
pub mod user_prompt_submit;

pub use input::CommonInput;
pub use instructions_loaded::{InstructionsLoaded, InstructionsLoadedContext};
pub use notification::{Notification, NotificationContext, NotificationResult};
pub use permission_denied::{PermissionDenied, PermissionDeniedContext};
pub use permission_request::{
    PermissionBehavior, PermissionRequest, PermissionRequestContext, PermissionRequestResult,
    PermissionRequestVerdict,
};
pub use post_compact::{PostCompact, PostCompactContext};
pub use post_tool_batch::{
    BatchedCall, PostToolBatch, PostToolBatchContext, PostToolBatchResult, PostToolBatchVerdict,
};
pub use post_tool_use::{
    PostToolUse, PostToolUseContext, PostToolUseFailure, PostToolUseResult, PostToolUseVerdict,
    ToolOutcome,
};
pub use pre_compact::{PreCompact, PreCompactContext, PreCompactResult, PreCompactVerdict};
pub use pre_tool_use::{PreToolUse, PreToolUseContext, PreToolUseResult, PreToolUseVerdict};
pub use session_end::{SessionEnd, SessionEndContext, SessionEndReason, SessionEndResult};
pub use session_start::{
    SessionSource, SessionStart, SessionStartContext, SessionStartResult, SessionStartVerdict,
};
pub use stop::{Stop, StopContext, StopDecision, StopResult, StopVerdict};
pub use stop_failure::{StopFailure, StopFailureContext};
pub use subagent_start::{
    SubagentStart, SubagentStartContext, SubagentStartResult, SubagentStartVerdict,
};
pub use subagent_stop::{SubagentStop, SubagentStopContext, SubagentStopResult};
pub use user_prompt_expansion::{UserPromptExpansion, UserPromptExpansionContext};
pub use user_prompt_submit::{
    UserPromptSubmit, UserPromptSubmitContext, UserPromptSubmitResult, UserPromptSubmitVerdict,
};

use crate::command::decision::{Decision, WireDecision, BLOCK};
use crate::command::{RawRun, ReadAs};
use crate::{ExecutionError, HookCommon, HookEntry, HookError, HookEvent, HookRegistry, HookRun};
use agenthub_tools::PreparedCall;
use sample::{SampleEnv, SampleError};
use serde::{de::DeserializeOwned, Serialize};
use serde_json::Value;

/// One lifecycle event: its name, what its hooks are given and may return,
/// the verdict its fold ends with, and its side of Claude Code's wire.
pub(crate) trait EventSpec: Send + Sync + 'static {
    /// The event's name: in records, settings keys and `hook_event_name`.
    const EVENT: HookEvent;
    /// The output fields a Claude Code hook of this event may write.
    const WIRE: WireContract = WireContract::COMMON_ONLY;

    /// What each hook is given.
    type Context: Clone + Send + Sync + 'static;
    /// What each hook may return.
    type Result: Default + Send + 'static;
    /// What the event's hooks decide together.
    type Verdict;

    /// The fields every event carries.
    fn common(context: &Self::Context) -> &HookCommon;

    /// A command hook's stdin (docs/hooks.md "stdin JSON") as one serde
    /// type: [`CommonInput`] flattened with the event's own fields, named as
    /// Claude Code names them. The engine serializes it ([`stdin`]); a sample
    /// is read back through it.
    type Input: Serialize + DeserializeOwned;

    /// This firing's stdin.
    fn input(context: &Self::Context) -> Self::Input;

    /// A sample firing's context from its stdin, as a run would have built
    /// it (`agenthub hooks test`, see [`sample`]).
    fn sample(input: Self::Input, env: &SampleEnv<'_>) -> Result<Self::Context, SampleError>;

    /// Runs `registry`'s hooks of the event on `context`, as a run would.
    async fn try_run(registry: &HookRegistry, context: Self::Context) -> HookRun<Self::Verdict>;

    /// What `verdict` would mean for a run, in words (`agenthub hooks test`).
    fn explain(_verdict: Self::Verdict) -> Vec<String> {
        vec![format!("{} hooks only observe", Self::EVENT)]
    }

    /// What a settings hook's `matcher` (and `if`) is compared with.
    fn subject(context: &Self::Context) -> MatcherSubject<'_>;

    /// What a command hook's run (exit code, stdout, stderr) says, as this
    /// event's result; an `Err` is the hook's failure or contract break.
    fn read(
        run: &RawRun,
        as_: ReadAs<'_>,
        context: &Self::Context,
    ) -> Result<Self::Result, HookError>;
}

/// A command hook's stdin JSON for one firing of event `E`.
pub(crate) fn stdin<E: EventSpec>(context: &E::Context) -> Result<Value, HookError> {
    serde_json::to_value(E::input(context)).map_err(|error| {
        HookError::Execution(ExecutionError::Stdin {
            event: E::EVENT,
            message: error.to_string(),
        })
    })
}

/// Where an event's hooks are kept in a [`HookRegistry`]. The registry's list
/// (`registry.rs`) implements it for every event that has a list of its own.
pub(crate) trait Listed: EventSpec {
    /// The event's hooks, in registration order.
    fn entries(registry: &HookRegistry) -> &[HookEntry<Self::Context, Self::Result>];
    /// The list a new hook of the event is appended to.
    fn entries_mut(registry: &mut HookRegistry)
        -> &mut Vec<HookEntry<Self::Context, Self::Result>>;
}

/// Something done with one event's module, chosen by the event's name.
pub(crate) trait ForEvent {
    /// What it gives.
    type Output;
    /// Does it with event `E`.
    fn on<E: Listed>(self) -> Self::Output;
}

/// Does `job` with `event`'s module: the one place that maps an event's name
/// to its module (the match is exhaustive, so a new event is asked for here).
pub(crate) fn for_event<J: ForEvent>(event: HookEvent, job: J) -> J::Output {
    match event {
        HookEvent::SessionStart => job.on::<SessionStart>(),
        HookEvent::UserPromptSubmit => job.on::<UserPromptSubmit>(),
        HookEvent::UserPromptExpansion => job.on::<UserPromptExpansion>(),
        HookEvent::PreToolUse => job.on::<PreToolUse>(),
        HookEvent::PermissionRequest => job.on::<PermissionRequest>(),
        HookEvent::PermissionDenied => job.on::<PermissionDenied>(),
        HookEvent::PostToolUse => job.on::<PostToolUse>(),
        HookEvent::PostToolUseFailure => job.on::<PostToolUseFailure>(),
        HookEvent::PostToolBatch => job.on::<PostToolBatch>(),
        HookEvent::Stop => job.on::<Stop>(),
        HookEvent::StopFailure => job.on::<StopFailure>(),
        HookEvent::SubagentStart => job.on::<SubagentStart>(),
        HookEvent::SubagentStop => job.on::<SubagentStop>(),
        HookEvent::PreCompact => job.on::<PreCompact>(),
        HookEvent::PostCompact => job.on::<PostCompact>(),
        HookEvent::Notification => job.on::<Notification>(),
        HookEvent::SessionEnd => job.on::<SessionEnd>(),
        HookEvent::InstructionsLoaded => job.on::<InstructionsLoaded>(),
    }
}

/// What a settings hook's matcher (and a tool event's `if`) is compared with
/// for one firing of an event.
pub(crate) enum MatcherSubject<'a> {
    /// The event has no matcher: every hook of it runs.
    Everything,
    /// The firing is not this event's on the wire (a PostToolUse hook when
    /// the tool failed: that is PostToolUseFailure's): no hook of it runs.
    Nothing,
    /// A tool call: the matcher is compared with the tool's name, `if` with the call.
    Call(&'a PreparedCall),
    /// One value (a source, a trigger, an agent type, a command name…).
    Value(&'a str),
    /// Two values; the hook runs when the matcher matches either.
    EitherValue(&'a str, &'a str),
}

/// The output fields a Claude Code hook of one event may write beyond the
/// common ones (`continue`, `stopReason`, `systemMessage`, `suppressOutput`);
/// any other `decision` or `hookSpecificOutput` key is a contract error.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WireContract {
    /// The top-level `decision` spellings the event reads, each with what it
    /// means (`"approve"` or `"block"`); other spellings let the action go
    /// on. Empty: `decision` and `reason` are not fields of its output.
    pub decisions: &'static [(WireDecision, Decision)],
    /// The `hookSpecificOutput` keys the event acts on.
    pub specific: &'static [&'static str],
    /// Claude Code keys the event accepts and does nothing with.
    pub accepted_unused: &'static [&'static str],
}

impl WireContract {
    /// Only the common fields.
    pub const COMMON_ONLY: WireContract = WireContract {
        decisions: &[],
        specific: &[],
        accepted_unused: &[],
    };

    /// `decision: "block"` (with its `reason`) and `additionalContext`.
    pub const BLOCK_WITH_CONTEXT: WireContract = WireContract {
        decisions: BLOCK,
        specific: &["additionalContext"],
        accepted_unused: &[],
    };

    /// `additionalContext` alone.
    pub const CONTEXT: WireContract = WireContract {
        decisions: &[],
        specific: &["additionalContext"],
        accepted_unused: &[],
    };
}
