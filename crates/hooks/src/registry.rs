//! The registry: per-event ordered lists. Registration order = execution order =
//! processing order (contract §3). The one list of events below (`hook_lists!`)
//! gives the registry its fields, its in-process builders, `len`, `extend` and
//! each event's place (`Listed`): registering a new event is one line there.

use crate::events::*;
use crate::{HookEntry, HookError, ObservedResult};
use std::future::Future;

/// The registry's struct (one list per event, in the order of the list
/// below), the in-process builder of each event, and `Listed` for each event.
macro_rules! hook_lists {
    ($($(#[doc = $doc:literal])* $field:ident: $event:ident($context:ty, $result:ty),)*) => {
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
            $(
                $(#[doc = $doc])*
                pub $field: Vec<HookEntry<$context, $result>>,
            )*
        }

        $(
            impl Listed for $event {
                fn entries(registry: &HookRegistry) -> &[HookEntry<Self::Context, Self::Result>] {
                    &registry.$field
                }

                fn entries_mut(
                    registry: &mut HookRegistry,
                ) -> &mut Vec<HookEntry<Self::Context, Self::Result>> {
                    &mut registry.$field
                }
            }
        )*

        impl HookRegistry {
            $(
                #[doc = concat!("Registers an in-process `", stringify!($event), "` hook after the ones already registered.")]
                pub fn $field<F, Fut>(self, name: impl Into<String>, hook: F) -> Self
                where
                    F: Fn($context) -> Fut + Send + Sync + 'static,
                    Fut: Future<Output = Result<$result, HookError>> + Send + 'static,
                {
                    self.in_process::<$event, F, Fut>(name, hook)
                }
            )*

            /// How many hooks are registered over all events.
            pub fn len(&self) -> usize {
                0 $(+ self.$field.len())*
            }

            /// Where each hook is kept and the event its records name, in
            /// list order (for tests that every event is registered where it belongs).
            #[cfg(test)]
            pub(crate) fn placements(&self) -> Vec<(&'static str, crate::HookEvent)> {
                let mut placed = Vec::new();
                $(
                    for entry in &self.$field {
                        let event = entry.recorded_as.unwrap_or(<$event as EventSpec>::EVENT);
                        placed.push((stringify!($field), event));
                    }
                )*
                placed
            }

            /// Appends every hook of `other` after this registry's own, event by event.
            pub fn extend(&mut self, other: HookRegistry) {
                $(self.$field.extend(other.$field);)*
            }
        }
    };
}

hook_lists! {
    /// Run once before the prompt is handled.
    session_start: SessionStart(SessionStartContext, SessionStartResult),
    /// Run once on the user's prompt, before the first model request.
    user_prompt_submit: UserPromptSubmit(UserPromptSubmitContext, UserPromptSubmitResult),
    /// Run on every prepared call, before permission.
    pre_tool_use: PreToolUse(PreToolUseContext, PreToolUseResult),
    /// Run by the approver wrapper (`agenthub_core::HookApprover`) when the
    /// policy answers `ask`, before anyone is prompted.
    permission_request: PermissionRequest(PermissionRequestContext, PermissionRequestResult),
    /// Run on every call whose handler ran (PostToolUseFailure command hooks
    /// included), before its result enters history.
    post_tool_use: PostToolUse(PostToolUseContext, PostToolUseResult),
    /// Run on every candidate final answer.
    stop: Stop(StopContext, StopResult),
    /// Run before a subagent gets its prompt; may add context to it.
    subagent_start: SubagentStart(SubagentStartContext, SubagentStartResult),
    /// Run on a subagent's candidate final answer, as `stop` is on the session's.
    subagent_stop: SubagentStop(SubagentStopContext, SubagentStopResult),
    /// Run before the history is compacted; may cancel a manual compaction.
    pre_compact: PreCompact(PreCompactContext, PreCompactResult),
    /// Run when the session waits for the person, as observers.
    notification: Notification(NotificationContext, NotificationResult),
    /// Run once when the run is over, as observers.
    session_end: SessionEnd(SessionEndContext, SessionEndResult),
    /// Run when the run ends on a model or provider error, as observers.
    stop_failure: StopFailure(StopFailureContext, ObservedResult),
    /// Run when permission refused a call, as observers.
    permission_denied: PermissionDenied(PermissionDeniedContext, ObservedResult),
    /// Run after the history was compacted, as observers.
    post_compact: PostCompact(PostCompactContext, ObservedResult),
    /// Run for each memory file loaded into the system prompt, as observers.
    instructions_loaded: InstructionsLoaded(InstructionsLoadedContext, ObservedResult),
    /// Run after every call of one assistant message has its result.
    post_tool_batch: PostToolBatch(PostToolBatchContext, PostToolBatchResult),
    /// Run when a slash command is about to be expanded into a prompt.
    user_prompt_expansion: UserPromptExpansion(UserPromptExpansionContext, UserPromptSubmitResult),
}

impl HookRegistry {
    /// A registry with no hooks: nothing objects to anything (which is not
    /// the same as permission having been checked).
    pub fn new() -> Self {
        HookRegistry::default()
    }

    /// Whether no hook is registered for any event.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Appends `entry` to event `E`'s hooks, its records naming `E`.
    pub(crate) fn push<E: Listed>(&mut self, entry: HookEntry<E::Context, E::Result>) {
        E::entries_mut(self).push(entry.recorded_as(E::EVENT));
    }

    fn in_process<E, F, Fut>(mut self, name: impl Into<String>, hook: F) -> Self
    where
        E: Listed,
        F: Fn(E::Context) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<E::Result, HookError>> + Send + 'static,
    {
        self.push::<E>(HookEntry::new(E::EVENT, name, hook));
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
}
