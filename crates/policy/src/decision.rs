//! The decision type and the policy trait.

use crate::{CallView, HowToAllow};
use agenthub_protocol::{PermissionEffect, PermissionMode, PermissionSuggestion};
use agenthub_tools::{PreparedCall, Workspace};
use thiserror::Error;

/// What the policy is asked about one call.
#[derive(Debug, Clone, Copy)]
pub struct PermissionRequest<'a> {
    /// The call exactly as it would run (after any PreToolUse rewrite).
    pub call: &'a PreparedCall,
    /// The PreToolUse hooks' merged suggestion, if any hook made one.
    pub suggestion: Option<&'a PermissionSuggestion>,
    /// The run's workspace: the boundary file paths are checked against.
    pub workspace: &'a Workspace,
}

/// Who decided: the participant whose verdict won the merge. It lives in
/// protocol because the transcript's [`PermissionRecord`](agenthub_protocol::PermissionRecord) records it.
pub use agenthub_protocol::PermissionSource as Source;

/// Who may answer an `ask` (contract §28: what no grant can answer).
///
/// Decided once, by the policy's merge ([`crate::engine::verdict::merge`]):
/// an ask that a protected path, or a written path that may be protected or
/// may leave the workspace, took part in is [`AskScope::ThisCallOnly`]. Session
/// grants ([`crate::SessionGrants`]) and the allow rules of a command's or
/// skill's `allowed-tools` never answer such an ask; only the person, for
/// that one call, or a PermissionRequest hook of a trusted layer does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum AskScope {
    /// Any answer counts: the person, a hook, a grant given for the session.
    #[default]
    Grantable,
    /// Only the person for this one call (or a trusted PermissionRequest
    /// hook): never a session grant, an `allowed-tools` rule or an allow rule.
    ThisCallOnly,
}

/// One explainable verdict: what, who decided, which rule (its text and
/// where it came from), why, and who may answer it when it asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// Allow, ask or deny.
    pub effect: PermissionEffect,
    /// The participant whose verdict won.
    pub source: Source,
    /// `Bash(rm *) (/w/.agenthub/settings.json)`, when a rule decided.
    pub rule: Option<String>,
    /// Why, for the audit line and (on a deny) the model.
    pub reason: String,
    /// Who may answer it when it asks.
    pub scope: AskScope,
}

impl Decision {
    /// A decision no rule made (a boundary, a mode, a default, …).
    pub fn new(effect: PermissionEffect, source: Source, reason: impl Into<String>) -> Self {
        Decision {
            effect,
            source,
            rule: None,
            reason: reason.into(),
            scope: AskScope::Grantable,
        }
    }

    /// Whether a session grant may answer this decision's ask (see [`AskScope`]).
    pub fn grantable(&self) -> bool {
        self.scope == AskScope::Grantable
    }

    /// The same decision, naming the rule that made it.
    pub fn with_rule(mut self, rule: impl Into<String>) -> Self {
        self.rule = Some(rule.into());
        self
    }
}

/// The policy could not decide; the call is then not run
/// (`Error [permission_evaluation_error]`), never allowed by default.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PolicyError {
    /// Something needed to decide is missing or unreadable (what, in words).
    #[error("permission could not be evaluated: {0}")]
    Evaluation(String),
}

/// Decides whether a prepared call may run.
pub trait PermissionPolicy: Send + Sync {
    /// Allow, ask or deny for one call, with who decided and why. An error
    /// keeps the call from running.
    fn decide(&self, request: &PermissionRequest<'_>) -> Result<Decision, PolicyError>;

    /// The permission mode in force, as hooks see it (`permission_mode`).
    fn mode(&self) -> PermissionMode {
        PermissionMode::Default
    }

    /// What would have let `call` run without asking, when `decision` asked
    /// and nobody could answer (see [`HowToAllow::for_ask`]).
    fn how_to_allow(&self, call: &PreparedCall, decision: &Decision) -> HowToAllow {
        HowToAllow::for_ask(CallView::from(call), decision)
    }
}

/// A policy that allows every call unless a hook suggests something stricter.
/// Never a default: an embedder (or a test) must choose it explicitly, e.g. for
/// a sandbox of its own where the tools can do no harm.
#[derive(Debug, Clone, Copy, Default)]
pub struct PassthroughPolicy;

impl PermissionPolicy for PassthroughPolicy {
    fn decide(&self, request: &PermissionRequest<'_>) -> Result<Decision, PolicyError> {
        let default = Decision::new(
            PermissionEffect::Allow,
            Source::Default,
            format!(
                "{} is allowed: no permission policy is configured",
                request.call.name()
            ),
        );
        Ok(match request.suggestion {
            Some(suggestion) if suggestion.effect > PermissionEffect::Allow => Decision::new(
                suggestion.effect,
                Source::Hook,
                suggestion.reason.clone().unwrap_or_else(|| {
                    format!("hook {} said {}", suggestion.hook, suggestion.effect)
                }),
            ),
            _ => default,
        })
    }
}
