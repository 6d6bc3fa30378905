//! The effect of a permission verdict, shared by hooks (which suggest one) and
//! the policy (which decides one), and who decided it (recorded in the transcript).

use serde::{Deserialize, Serialize};
use std::fmt;

/// What a permission verdict does to a tool call.
///
/// Ordered by strictness: `Allow < Ask < Deny`, so `max` is the strictest-wins merge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PermissionEffect {
    /// The call may run without asking anyone.
    Allow,
    /// The call runs only if the person approves it.
    Ask,
    /// The call is not run.
    Deny,
}

impl PermissionEffect {
    /// The settings and transcript spelling: `allow`, `ask` or `deny`.
    pub fn as_str(self) -> &'static str {
        match self {
            PermissionEffect::Allow => "allow",
            PermissionEffect::Ask => "ask",
            PermissionEffect::Deny => "deny",
        }
    }

    /// Strictest-wins merge: deny > ask > allow.
    pub fn strictest(self, other: PermissionEffect) -> PermissionEffect {
        self.max(other)
    }
}

impl fmt::Display for PermissionEffect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Who decided: the participant whose verdict won the merge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PermissionSource {
    /// A file tool's path lands outside the workspace roots (never overridden).
    WorkspaceBoundary,
    /// A write to `.git/`, `.agenthub/`, `.claude/`, shell rc files and the like.
    ProtectedPath,
    /// An allow, ask or deny rule from settings or the command line.
    Rule,
    /// What the shell analysis found (a construct never allowed by a rule, a
    /// command that does not parse, one too long to analyse).
    ShellAnalysis,
    /// The permission mode.
    Mode,
    /// The PreToolUse hooks' merged suggestion.
    Hook,
    /// The tool's default: read-only tools allow, others ask.
    Default,
    /// The person (or the absence of one) answering an ask.
    Approval,
    /// A call that asks to run outside the OS sandbox (always asks).
    Sandbox,
    /// A shell command every part of which is on the built-in read-only
    /// list, reading only inside the workspace (contract §29).
    #[serde(rename = "read-only command")]
    ReadOnlyCommand,
}

impl PermissionSource {
    /// The name audit lines and the transcript use (`workspace-boundary`, `rule`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            PermissionSource::WorkspaceBoundary => "workspace-boundary",
            PermissionSource::ProtectedPath => "protected-path",
            PermissionSource::Rule => "rule",
            PermissionSource::ShellAnalysis => "shell-analysis",
            PermissionSource::Mode => "mode",
            PermissionSource::Hook => "hook",
            PermissionSource::Default => "default",
            PermissionSource::Approval => "approval",
            PermissionSource::Sandbox => "sandbox",
            PermissionSource::ReadOnlyCommand => "read-only command",
        }
    }
}

impl fmt::Display for PermissionSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::PermissionEffect::*;

    #[test]
    fn a_source_is_written_as_its_audit_name() {
        use super::PermissionSource;
        for source in [
            PermissionSource::WorkspaceBoundary,
            PermissionSource::ProtectedPath,
            PermissionSource::Rule,
            PermissionSource::ShellAnalysis,
            PermissionSource::Mode,
            PermissionSource::Hook,
            PermissionSource::Default,
            PermissionSource::Approval,
            PermissionSource::Sandbox,
            PermissionSource::ReadOnlyCommand,
        ] {
            let written = serde_json::to_value(source).unwrap();
            assert_eq!(written, serde_json::json!(source.as_str()));
            assert_eq!(
                serde_json::from_value::<PermissionSource>(written).unwrap(),
                source
            );
        }
    }

    #[test]
    fn strictest_merge_orders_deny_over_ask_over_allow() {
        assert_eq!(Allow.strictest(Ask), Ask);
        assert_eq!(Ask.strictest(Deny), Deny);
        assert_eq!(Deny.strictest(Allow), Deny);
        assert_eq!(Allow.strictest(Allow), Allow);
    }
}

/// A PreToolUse hook's suggestion to the permission policy, merged across hooks
/// strictest-wins. A suggestion, never an authorisation (contract §4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PermissionSuggestion {
    /// The effect the hook suggests.
    pub effect: PermissionEffect,
    /// Why, in the hook's words, when it gave any; shown with the decision.
    pub reason: Option<String>,
    /// The hook whose suggestion this is (the strictest one after a merge).
    pub hook: String,
}

impl PermissionSuggestion {
    /// Keeps the stricter of two suggestions; on a tie the earlier one stays.
    pub fn merge(self, later: PermissionSuggestion) -> PermissionSuggestion {
        if later.effect > self.effect {
            later
        } else {
            self
        }
    }
}
