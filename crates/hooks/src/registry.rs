//! The registry: per-event ordered lists. Registration order = execution order =
//! processing order (contract §3).

use crate::context::*;
use crate::observed::*;
use crate::result::*;
use crate::{HookEntry, HookError, HookEvent};
use std::future::Future;

/// Every registered hook, per event, in registration order.
///
/// ```
/// use agenthub_hooks::{HookRegistry, PreToolUseResult};
/// let hooks = HookRegistry::new().pre_tool_use("no-rm", |ctx| async move {
///     let command = ctx.call.input()["command"].as_str().unwrap_or_default().to_owned();
///     Ok(if command.contains("rm -rf") {
///         PreToolUseResult::block("rm -rf is not allowed here")
///     } else {
///         PreToolUseResult::default()
///     })
/// });
/// assert_eq!(hooks.len(), 1);
/// ```
#[derive(Debug, Clone, Default)]
pub struct HookRegistry {
    /// Run once before the prompt is handled.
    pub session_start: Vec<HookEntry<SessionStartContext, SessionStartResult>>,
    /// Run once on the user's prompt, before the first model request.
    pub user_prompt_submit: Vec<HookEntry<UserPromptSubmitContext, UserPromptSubmitResult>>,
    /// Run on every prepared call, before permission.
    pub pre_tool_use: Vec<HookEntry<PreToolUseContext, PreToolUseResult>>,
    /// Run by the approver wrapper (`agenthub_core::HookApprover`) when the
    /// policy answers `ask`, before anyone is prompted.
    pub permission_request: Vec<HookEntry<PermissionRequestContext, PermissionRequestResult>>,
    /// Run on every call whose handler ran (PostToolUseFailure command hooks
    /// included), before its result enters history.
    pub post_tool_use: Vec<HookEntry<PostToolUseContext, PostToolUseResult>>,
    /// Run on every candidate final answer.
    pub stop: Vec<HookEntry<StopContext, StopResult>>,
    /// Run before a subagent gets its prompt; may add context to it.
    pub subagent_start: Vec<HookEntry<SubagentStartContext, SubagentStartResult>>,
    /// Run on a subagent's candidate final answer, as `stop` is on the session's.
    pub subagent_stop: Vec<HookEntry<SubagentStopContext, SubagentStopResult>>,
    /// Run before the history is compacted; may cancel a manual compaction.
    pub pre_compact: Vec<HookEntry<PreCompactContext, PreCompactResult>>,
    /// Run when the session waits for the person, as observers.
    pub notification: Vec<HookEntry<NotificationContext, NotificationResult>>,
    /// Run once when the run is over, as observers.
    pub session_end: Vec<HookEntry<SessionEndContext, SessionEndResult>>,
    /// Run when the run ends on a model or provider error, as observers.
    pub stop_failure: Vec<HookEntry<StopFailureContext, ObservedResult>>,
    /// Run when permission refused a call, as observers.
    pub permission_denied: Vec<HookEntry<PermissionDeniedContext, ObservedResult>>,
    /// Run after the history was compacted, as observers.
    pub post_compact: Vec<HookEntry<PostCompactContext, ObservedResult>>,
    /// Run for each memory file loaded into the system prompt, as observers.
    pub instructions_loaded: Vec<HookEntry<InstructionsLoadedContext, ObservedResult>>,
    /// Run after every call of one assistant message has its result.
    pub post_tool_batch: Vec<HookEntry<PostToolBatchContext, PostToolBatchResult>>,
    /// Run when a slash command is about to be expanded into a prompt.
    pub user_prompt_expansion: Vec<HookEntry<UserPromptExpansionContext, UserPromptSubmitResult>>,
}

macro_rules! builder {
    ($method:ident, $field:ident, $event:expr, $context:ty, $result:ty) => {
        #[doc = concat!("Registers an in-process `", stringify!($event), "` hook after the ones already registered.")]
        pub fn $method<F, Fut>(mut self, name: impl Into<String>, hook: F) -> Self
        where
            F: Fn($context) -> Fut + Send + Sync + 'static,
            Fut: Future<Output = Result<$result, HookError>> + Send + 'static,
        {
            self.$field.push(HookEntry::new($event, name, hook));
            self
        }
    };
}

impl HookRegistry {
    /// A registry with no hooks: nothing objects to anything (which is not
    /// the same as permission having been checked).
    pub fn new() -> Self {
        HookRegistry::default()
    }

    builder!(
        session_start,
        session_start,
        HookEvent::SessionStart,
        SessionStartContext,
        SessionStartResult
    );
    builder!(
        user_prompt_submit,
        user_prompt_submit,
        HookEvent::UserPromptSubmit,
        UserPromptSubmitContext,
        UserPromptSubmitResult
    );
    builder!(
        pre_tool_use,
        pre_tool_use,
        HookEvent::PreToolUse,
        PreToolUseContext,
        PreToolUseResult
    );
    builder!(
        permission_request,
        permission_request,
        HookEvent::PermissionRequest,
        PermissionRequestContext,
        PermissionRequestResult
    );
    builder!(
        post_tool_use,
        post_tool_use,
        HookEvent::PostToolUse,
        PostToolUseContext,
        PostToolUseResult
    );
    builder!(stop, stop, HookEvent::Stop, StopContext, StopResult);
    builder!(
        subagent_start,
        subagent_start,
        HookEvent::SubagentStart,
        SubagentStartContext,
        SubagentStartResult
    );

    /// Registers an in-process `SubagentStop` hook after the ones already registered.
    pub fn subagent_stop<F, Fut>(mut self, name: impl Into<String>, hook: F) -> Self
    where
        F: Fn(SubagentStopContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<SubagentStopResult, HookError>> + Send + 'static,
    {
        let entry = HookEntry::new(HookEvent::SubagentStop, name, hook);
        self.subagent_stop
            .push(entry.recorded_as(HookEvent::SubagentStop));
        self
    }

    /// The hooks a subagent's run consults (contract §17): the tool hooks
    /// (PreToolUse, PermissionRequest, PostToolUse) and PreCompact as they
    /// are, the SubagentStop hooks in Stop's place; no session-level events
    /// (the subagent is not a session of its own) and no SubagentStart (a
    /// subagent cannot start one).
    pub fn for_subagent(&self) -> HookRegistry {
        HookRegistry {
            pre_tool_use: self.pre_tool_use.clone(),
            permission_request: self.permission_request.clone(),
            post_tool_use: self.post_tool_use.clone(),
            permission_denied: self.permission_denied.clone(),
            post_tool_batch: self.post_tool_batch.clone(),
            stop: self.subagent_stop.clone(),
            pre_compact: self.pre_compact.clone(),
            ..HookRegistry::default()
        }
    }
    builder!(
        pre_compact,
        pre_compact,
        HookEvent::PreCompact,
        PreCompactContext,
        PreCompactResult
    );
    builder!(
        notification,
        notification,
        HookEvent::Notification,
        NotificationContext,
        NotificationResult
    );
    builder!(
        session_end,
        session_end,
        HookEvent::SessionEnd,
        SessionEndContext,
        SessionEndResult
    );
    builder!(
        stop_failure,
        stop_failure,
        HookEvent::StopFailure,
        StopFailureContext,
        ObservedResult
    );
    builder!(
        permission_denied,
        permission_denied,
        HookEvent::PermissionDenied,
        PermissionDeniedContext,
        ObservedResult
    );
    builder!(
        post_compact,
        post_compact,
        HookEvent::PostCompact,
        PostCompactContext,
        ObservedResult
    );
    builder!(
        post_tool_batch,
        post_tool_batch,
        HookEvent::PostToolBatch,
        PostToolBatchContext,
        PostToolBatchResult
    );
    builder!(
        user_prompt_expansion,
        user_prompt_expansion,
        HookEvent::UserPromptExpansion,
        UserPromptExpansionContext,
        UserPromptSubmitResult
    );
    builder!(
        instructions_loaded,
        instructions_loaded,
        HookEvent::InstructionsLoaded,
        InstructionsLoadedContext,
        ObservedResult
    );

    /// How many hooks are registered over all events.
    pub fn len(&self) -> usize {
        self.session_start.len()
            + self.user_prompt_submit.len()
            + self.pre_tool_use.len()
            + self.permission_request.len()
            + self.post_tool_use.len()
            + self.stop.len()
            + self.subagent_start.len()
            + self.subagent_stop.len()
            + self.pre_compact.len()
            + self.notification.len()
            + self.session_end.len()
            + self.stop_failure.len()
            + self.permission_denied.len()
            + self.post_compact.len()
            + self.instructions_loaded.len()
            + self.post_tool_batch.len()
            + self.user_prompt_expansion.len()
    }

    /// Whether no hook is registered for any event.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Appends every hook of `other` after this registry's own, event by event.
    pub fn extend(&mut self, other: HookRegistry) {
        self.session_start.extend(other.session_start);
        self.user_prompt_submit.extend(other.user_prompt_submit);
        self.pre_tool_use.extend(other.pre_tool_use);
        self.permission_request.extend(other.permission_request);
        self.post_tool_use.extend(other.post_tool_use);
        self.stop.extend(other.stop);
        self.subagent_start.extend(other.subagent_start);
        self.subagent_stop.extend(other.subagent_stop);
        self.pre_compact.extend(other.pre_compact);
        self.notification.extend(other.notification);
        self.session_end.extend(other.session_end);
        self.stop_failure.extend(other.stop_failure);
        self.permission_denied.extend(other.permission_denied);
        self.post_compact.extend(other.post_compact);
        self.instructions_loaded.extend(other.instructions_loaded);
        self.post_tool_batch.extend(other.post_tool_batch);
        self.user_prompt_expansion
            .extend(other.user_prompt_expansion);
    }
}
