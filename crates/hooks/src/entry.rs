//! One registered hook: a name, where it came from, what its failure means, an
//! optional matcher, and the async function itself.

use crate::HookError;
pub use agenthub_protocol::{FailurePolicy, HookEvent};
use futures::future::BoxFuture;
use std::fmt;
use std::future::Future;
use std::sync::Arc;

/// Where a hook was registered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookOrigin {
    /// Registered in code by the embedding application.
    InProcess,
    /// A command hook from a settings file, with its index among that file's hooks.
    Settings {
        /// The settings file that lists the hook.
        file: String,
        /// Its position among that file's hooks, counting from 0.
        index: usize,
    },
}

type Handler<C, R> = Arc<dyn Fn(C) -> BoxFuture<'static, Result<R, HookError>> + Send + Sync>;
type Filter<C> = Arc<dyn Fn(&C) -> bool + Send + Sync>;

/// A registered hook for an event with context `C` and result `R`.
pub struct HookEntry<C, R> {
    /// How the hook is named in records, audits and messages.
    pub name: String,
    /// Where it was registered, to point a person at its definition.
    pub origin: HookOrigin,
    /// What the run does when the hook fails or breaks its contract.
    pub on_failure: FailurePolicy,
    /// The event named in this hook's records when it differs from the list it
    /// is in (a `PostToolUseFailure` command hook sits in the PostToolUse list).
    pub recorded_as: Option<HookEvent>,
    /// Entries with the same identity that match one firing of an event run
    /// once: the same command hook listed in two settings files.
    pub identity: Option<String>,
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
            identity: self.identity.clone(),
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
            identity: None,
            filter: None,
            handler: Arc::new(move |context| Box::pin(hook(context))),
        }
    }

    /// Runs the hook only for contexts the matcher accepts.
    pub fn with_matcher(mut self, matcher: impl Fn(&C) -> bool + Send + Sync + 'static) -> Self {
        self.filter = Some(Arc::new(matcher));
        self
    }

    /// Says where the hook was registered (command hooks: their settings file).
    pub fn with_origin(mut self, origin: HookOrigin) -> Self {
        self.origin = origin;
        self
    }

    /// Marks entries that are the same hook: see [`HookEntry::identity`].
    pub fn with_identity(mut self, identity: impl Into<String>) -> Self {
        self.identity = Some(identity.into());
        self
    }

    /// Overrides the event's default failure policy (a command hook's `onFailure`).
    pub fn with_failure_policy(mut self, policy: FailurePolicy) -> Self {
        self.on_failure = policy;
        self
    }

    /// Names `event` in this hook's records instead of the list's own event.
    pub fn recorded_as(mut self, event: HookEvent) -> Self {
        self.recorded_as = Some(event);
        self
    }

    /// Whether the hook runs for `context`: true without a matcher.
    pub fn matches(&self, context: &C) -> bool {
        self.filter.as_ref().is_none_or(|filter| filter(context))
    }

    /// Runs the hook itself. The engine calls it only when [`Self::matches`]
    /// holds, and applies its failure policy to an error.
    pub async fn call(&self, context: C) -> Result<R, HookError> {
        (self.handler)(context).await
    }
}
