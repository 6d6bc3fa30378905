//! The decision type and the policy trait.

use agenthub_protocol::{PermissionEffect, PermissionSuggestion};
use agenthub_tools::{PreparedCall, Workspace};
use thiserror::Error;

/// What the policy is asked about one call.
#[derive(Debug, Clone, Copy)]
pub struct PermissionRequest<'a> {
    pub call: &'a PreparedCall,
    /// The PreToolUse hooks' merged suggestion, if any hook made one.
    pub suggestion: Option<&'a PermissionSuggestion>,
    pub workspace: &'a Workspace,
}

/// One explainable verdict: what, who decided, which rule, why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub effect: PermissionEffect,
    /// `default`, `rule`, `workspace-boundary`, `mode`, `hook`, `approval`.
    pub source: String,
    pub rule: Option<String>,
    pub reason: String,
}

impl Decision {
    pub fn new(
        effect: PermissionEffect,
        source: impl Into<String>,
        reason: impl Into<String>,
    ) -> Self {
        Decision {
            effect,
            source: source.into(),
            rule: None,
            reason: reason.into(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PolicyError {
    #[error("permission could not be evaluated: {0}")]
    Evaluation(String),
}

/// Decides whether a prepared call may run.
pub trait PermissionPolicy: Send + Sync {
    fn decide(&self, request: &PermissionRequest<'_>) -> Result<Decision, PolicyError>;

    /// The permission mode's name as hooks see it (`permission_mode`).
    fn mode_name(&self) -> &str {
        "default"
    }
}

/// The policy an embedding application gets before it configures one: every
/// tool allows by default, and a hook's stricter suggestion wins over that.
#[derive(Debug, Clone, Copy, Default)]
pub struct PassthroughPolicy;

impl PermissionPolicy for PassthroughPolicy {
    fn decide(&self, request: &PermissionRequest<'_>) -> Result<Decision, PolicyError> {
        let default = Decision::new(
            PermissionEffect::Allow,
            "default",
            format!(
                "{} is allowed: no permission policy is configured",
                request.call.name()
            ),
        );
        Ok(match request.suggestion {
            Some(suggestion) if suggestion.effect > PermissionEffect::Allow => Decision::new(
                suggestion.effect,
                "hook",
                suggestion.reason.clone().unwrap_or_else(|| {
                    format!("hook {} said {}", suggestion.hook, suggestion.effect)
                }),
            ),
            _ => default,
        })
    }
}
