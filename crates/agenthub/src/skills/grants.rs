//! A skill's `allowed-tools` (contract §20): once the `Skill` tool has
//! loaded a skill in this agent's session, the calls its rules allow run
//! without asking. It is an in-process PermissionRequest hook, so it only
//! ever answers an ask — never a deny, a rule's or the mode's — and it
//! answers allow only when the policy with the skill's rules added as allow
//! rules would allow the call: deny and ask rules, the workspace boundary
//! and protected paths still hold. It must never grant for a skill the
//! model has not loaded.

use agenthub_hooks::{HookRegistry, PermissionRequestContext, PermissionRequestResult};
use agenthub_policy::{PermissionPolicy, PermissionRequest, PolicyEngine};
use agenthub_protocol::PermissionEffect;
use agenthub_tools::Workspace;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex, PoisonError};

/// The name the hook runs under in hook records.
const HOOK_NAME: &str = "skill allowed-tools";

/// The skills the `Skill` tool has loaded in this agent's session.
#[derive(Debug, Clone, Default)]
pub(crate) struct InUse(Arc<Mutex<BTreeSet<String>>>);

impl InUse {
    /// Records that the skill `name` is in use from now on.
    pub(crate) fn mark(&self, name: &str) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(name.to_owned());
    }

    fn names(&self) -> Vec<String> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .cloned()
            .collect()
    }
}

/// Each skill's policy with its `allowed-tools` added, and which are in use.
pub(crate) struct SkillGrants {
    /// Skill name → the session's policy plus the skill's allow rules.
    pub policies: BTreeMap<String, Arc<PolicyEngine>>,
    /// Filled by the `Skill` tool.
    pub in_use: InUse,
    /// The workspace the policies judge paths against.
    pub workspace: Workspace,
}

impl SkillGrants {
    /// The PermissionRequest hook answering asks for skills in use; no hook
    /// when no skill has `allowed-tools`.
    pub(crate) fn into_hooks(self) -> HookRegistry {
        if self.policies.is_empty() {
            return HookRegistry::new();
        }
        let grants = Arc::new(self);
        HookRegistry::new().permission_request(HOOK_NAME, move |context| {
            let answer = grants.answer(&context);
            async move { Ok(answer) }
        })
    }

    /// Allow when a skill in use allows the call; otherwise no answer.
    fn answer(&self, context: &PermissionRequestContext) -> PermissionRequestResult {
        let request = PermissionRequest {
            call: &context.call,
            suggestion: None,
            workspace: &self.workspace,
        };
        let allowed = self
            .in_use
            .names()
            .iter()
            .filter_map(|name| self.policies.get(name))
            .any(|policy| {
                policy
                    .decide(&request)
                    .is_ok_and(|decision| decision.effect == PermissionEffect::Allow)
            });
        match allowed {
            true => PermissionRequestResult::allow(),
            false => PermissionRequestResult::default(),
        }
    }
}
