//! Variables for the processes tools start (Bash): the settings' `env` and
//! what SessionStart hooks export through `CLAUDE_ENV_FILE`. One store per
//! session, shared by the hooks that fill it and the tools that read it, so
//! a variable a hook exports reaches every later Bash call.
//!
//! It only holds names and values; it never changes AgentHub's own environment.

use std::collections::BTreeMap;
use std::sync::{Arc, PoisonError, RwLock};

/// A shared, cloneable set of variables; every clone sees every change.
#[derive(Debug, Clone, Default)]
pub struct ProcessEnv(Arc<RwLock<BTreeMap<String, String>>>);

impl ProcessEnv {
    /// A store holding `vars`.
    pub fn from_vars(vars: impl IntoIterator<Item = (String, String)>) -> Self {
        let store = ProcessEnv::default();
        store.extend(vars);
        store
    }

    /// Sets each of `vars` (a later value for a name wins).
    pub fn extend(&self, vars: impl IntoIterator<Item = (String, String)>) {
        self.0
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .extend(vars);
    }

    /// Every variable, sorted by name.
    pub fn vars(&self) -> Vec<(String, String)> {
        self.0
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect()
    }

    /// Whether both handles are the same store.
    pub fn same_store(&self, other: &ProcessEnv) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_through_one_clone_is_seen_by_every_clone() {
        let store = ProcessEnv::from_vars([("A".to_owned(), "1".to_owned())]);
        let clone = store.clone();
        clone.extend([
            ("A".to_owned(), "2".to_owned()),
            ("B".to_owned(), "3".to_owned()),
        ]);
        assert_eq!(
            store.vars(),
            vec![
                ("A".to_owned(), "2".to_owned()),
                ("B".to_owned(), "3".to_owned())
            ]
        );
    }
}
