//! One registered hook: a name, where it came from, what its failure means, an
//! optional matcher, and the async function itself.

use crate::HookError;
use futures::future::BoxFuture;
use std::fmt;
use std::future::Future;
use std::sync::Arc;

/// The lifecycle events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HookEvent {
    SessionStart,
    UserPromptSubmit,
    PreToolUse,
    PermissionRequest,
    PostToolUse,
    /// PostToolUse hooks that only run when the tool failed (command hooks
    /// registered under Claude Code's `PostToolUseFailure`).
    PostToolUseFailure,
    Stop,
    SessionEnd,
}

impl HookEvent {
    pub const ALL: [HookEvent; 8] = [
        HookEvent::SessionStart,
        HookEvent::UserPromptSubmit,
        HookEvent::PreToolUse,
        HookEvent::PermissionRequest,
        HookEvent::PostToolUse,
        HookEvent::PostToolUseFailure,
        HookEvent::Stop,
        HookEvent::SessionEnd,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            HookEvent::SessionStart => "SessionStart",
            HookEvent::UserPromptSubmit => "UserPromptSubmit",
            HookEvent::PreToolUse => "PreToolUse",
            HookEvent::PermissionRequest => "PermissionRequest",
            HookEvent::PostToolUse => "PostToolUse",
            HookEvent::PostToolUseFailure => "PostToolUseFailure",
            HookEvent::Stop => "Stop",
            HookEvent::SessionEnd => "SessionEnd",
        }
    }

    /// Gates fail closed: a gate whose check could not complete blocks.
    pub fn default_failure_policy(self) -> FailurePolicy {
        match self {
            HookEvent::UserPromptSubmit
            | HookEvent::PreToolUse
            | HookEvent::PermissionRequest
            | HookEvent::Stop => FailurePolicy::Block,
            HookEvent::SessionStart
            | HookEvent::PostToolUse
            | HookEvent::PostToolUseFailure
            | HookEvent::SessionEnd => FailurePolicy::Continue,
        }
    }
}

impl fmt::Display for HookEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a failing hook means for the action it guards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailurePolicy {
    /// The action does not happen (PreToolUse: the call is not run; UserPromptSubmit, Stop: the run fails).
    Block,
    /// The failure is reported and the action goes on.
    Continue,
}

/// Where a hook was registered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookOrigin {
    /// Registered in code by the embedding application.
    InProcess,
    /// A command hook from a settings file, with its index among that file's hooks.
    Settings { file: String, index: usize },
}

type Handler<C, R> = Arc<dyn Fn(C) -> BoxFuture<'static, Result<R, HookError>> + Send + Sync>;
type Filter<C> = Arc<dyn Fn(&C) -> bool + Send + Sync>;

/// A registered hook for an event with context `C` and result `R`.
pub struct HookEntry<C, R> {
    pub name: String,
    pub origin: HookOrigin,
    pub on_failure: FailurePolicy,
    /// The event named in this hook's records when it differs from the list it
    /// is in (a `PostToolUseFailure` command hook sits in the PostToolUse list).
    pub recorded_as: Option<HookEvent>,
    filter: Option<Filter<C>>,
    handler: Handler<C, R>,
}

impl<C, R> Clone for HookEntry<C, R> {
    fn clone(&self) -> Self {
        HookEntry {
            name: self.name.clone(),
            origin: self.origin.clone(),
            on_failure: self.on_failure,
            recorded_as: self.recorded_as,
            filter: self.filter.clone(),
            handler: self.handler.clone(),
        }
    }
}

impl<C, R> fmt::Debug for HookEntry<C, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HookEntry")
            .field("name", &self.name)
            .field("origin", &self.origin)
            .field("on_failure", &self.on_failure)
            .finish_non_exhaustive()
    }
}

impl<C: Send + 'static, R: Send + 'static> HookEntry<C, R> {
    /// An in-process hook with the event's default failure policy.
    pub fn new<F, Fut>(event: HookEvent, name: impl Into<String>, hook: F) -> Self
    where
        F: Fn(C) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, HookError>> + Send + 'static,
    {
        HookEntry {
            name: name.into(),
            origin: HookOrigin::InProcess,
            on_failure: event.default_failure_policy(),
            recorded_as: None,
            filter: None,
            handler: Arc::new(move |context| Box::pin(hook(context))),
        }
    }

    /// Runs the hook only for contexts the matcher accepts.
    pub fn with_matcher(mut self, matcher: impl Fn(&C) -> bool + Send + Sync + 'static) -> Self {
        self.filter = Some(Arc::new(matcher));
        self
    }

    pub fn with_origin(mut self, origin: HookOrigin) -> Self {
        self.origin = origin;
        self
    }

    pub fn with_failure_policy(mut self, policy: FailurePolicy) -> Self {
        self.on_failure = policy;
        self
    }

    /// Names `event` in this hook's records instead of the list's own event.
    pub fn recorded_as(mut self, event: HookEvent) -> Self {
        self.recorded_as = Some(event);
        self
    }

    pub fn matches(&self, context: &C) -> bool {
        self.filter.as_ref().is_none_or(|filter| filter(context))
    }

    pub async fn call(&self, context: C) -> Result<R, HookError> {
        (self.handler)(context).await
    }
}
