//! Rules that hold only while something is in use (contract §20): a loaded
//! skill's `allowed-tools` for the rest of the session, a custom command's
//! `allowed-tools` for its one prompt in the interactive session. Each is a
//! policy — the session's own with those rules added as allow rules — and
//! an in-process PermissionRequest hook asks the policies of what is active.
//!
//! A PermissionRequest hook only ever answers an ask, so this can never
//! lift a deny; it answers allow only when an active policy allows the
//! call, so deny and ask rules, the workspace boundary and protected paths
//! still hold. It must never grant for anything not active.

use agenthub_hooks::{HookRegistry, PermissionRequestContext, PermissionRequestResult};
use agenthub_policy::{PermissionPolicy, PermissionRequest, PolicyEngine};
use agenthub_protocol::PermissionEffect;
use agenthub_tools::Workspace;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

/// The names (skills, commands) whose rules hold now.
#[derive(Debug, Clone, Default)]
pub struct Active(Arc<Mutex<BTreeSet<String>>>);

impl Active {
    /// `name`'s rules hold from now on.
    pub(crate) fn mark(&self, name: &str) {
        self.set().insert(name.to_owned());
    }

    /// `name`'s rules hold until the returned guard is dropped.
    pub fn during(&self, name: &str) -> ActiveGuard {
        self.mark(name);
        ActiveGuard {
            active: self.clone(),
            name: name.to_owned(),
        }
    }

    fn names(&self) -> Vec<String> {
        self.set().iter().cloned().collect()
    }

    fn set(&self) -> std::sync::MutexGuard<'_, BTreeSet<String>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Ends one [`Active::during`] when dropped.
#[derive(Debug)]
pub struct ActiveGuard {
    active: Active,
    name: String,
}

impl Drop for ActiveGuard {
    fn drop(&mut self) {
        self.active.set().remove(&self.name);
    }
}

/// A name (skill, command), the file its rules are written in, the rules.
#[derive(Debug)]
pub(crate) struct Granted {
    pub name: String,
    pub file: PathBuf,
    pub rules: Vec<String>,
}

/// Builds the session's policy with `rules`, written in `file`, added as
/// allow rules (a last permissions layer, so errors and audit lines name
/// that file); the error says why they cannot apply.
pub type WithRules<'a> = &'a dyn Fn(&Path, &[String]) -> Result<Arc<PolicyEngine>, String>;

/// Each name's policy: the session's with the name's rules added as allow
/// rules (`with_rules` builds it). A name whose rules do not parse gets no
/// policy; the warning says why (`what` names the kind, e.g. `skill`).
pub(crate) fn policies(
    granted: Vec<Granted>,
    with_rules: WithRules<'_>,
    what: &str,
) -> (BTreeMap<String, Arc<PolicyEngine>>, Vec<String>) {
    let mut policies = BTreeMap::new();
    let mut warnings = Vec::new();
    // A plugin's command is loaded under two names from one file: one warning.
    let mut warned = std::collections::BTreeSet::new();
    for Granted { name, file, rules } in granted.into_iter().filter(|g| !g.rules.is_empty()) {
        match with_rules(&file, &rules) {
            Ok(engine) => {
                policies.insert(name, engine);
            }
            Err(error) => {
                if warned.insert(file.clone()) {
                    warnings.push(format!(
                        "{what} {name}: its allowed-tools are not applied: {error}"
                    ));
                }
            }
        }
    }
    (policies, warnings)
}

/// The policies of names that may become active, and which are.
pub(crate) struct Grants {
    /// Name → the session's policy plus the name's allow rules.
    pub policies: BTreeMap<String, Arc<PolicyEngine>>,
    /// Which names hold now.
    pub active: Active,
    /// The workspace the policies judge paths against.
    pub workspace: Workspace,
}

impl Grants {
    /// The PermissionRequest hook named `hook_name` answering asks for what
    /// is active; no hook when there is no policy.
    pub(crate) fn into_hooks(self, hook_name: &str) -> HookRegistry {
        if self.policies.is_empty() {
            return HookRegistry::new();
        }
        let grants = Arc::new(self);
        HookRegistry::new().permission_request(hook_name, move |context| {
            let answer = grants.answer(&context);
            async move { Ok(answer) }
        })
    }

    /// Allow when an active policy allows the call; otherwise no answer.
    fn answer(&self, context: &PermissionRequestContext) -> PermissionRequestResult {
        let request = PermissionRequest {
            call: &context.call,
            suggestion: None,
            workspace: &self.workspace,
        };
        let allowed = self
            .active
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_active_until_its_guard_is_dropped() {
        let active = Active::default();
        active.mark("skill");
        let during = active.during("command");
        let while_held = active.names();
        drop(during);
        assert_eq!(
            (while_held, active.names()),
            (
                vec!["command".to_owned(), "skill".to_owned()],
                vec!["skill".to_owned()]
            )
        );
    }
}
