//! The effect of a permission verdict, shared by hooks (which suggest one) and
//! the policy (which decides one).

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

#[cfg(test)]
mod tests {
    use super::PermissionEffect::*;

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
