//! Variables for the processes tools start (Bash): the settings' `env`, and
//! the shell text SessionStart hooks write to `CLAUDE_ENV_FILE`, which bash
//! runs before each command (contract §21). One store per session, shared by the
//! hooks that fill it and the tools that read it, so what a hook exports
//! reaches every later Bash call.
//!
//! It only holds names and values; it never changes AgentHub's own environment.

use std::collections::BTreeMap;
use std::sync::{Arc, PoisonError, RwLock};

/// A shared, cloneable set of variables; every clone sees every change.
#[derive(Debug, Clone, Default)]
pub struct ProcessEnv(Arc<RwLock<Store>>);

#[derive(Debug, Default)]
struct Store {
    vars: BTreeMap<String, String>,
    /// The env file's text, run by bash before each command.
    prelude: Option<String>,
}

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
            .vars
            .extend(vars);
    }

    /// Sets the shell text (`CLAUDE_ENV_FILE`'s) bash runs before each
    /// command: `export PATH="…:$PATH"` and `declare -x` lines work as in
    /// a shell, since a shell runs them. Empty text is none.
    pub fn set_prelude(&self, text: String) {
        let text = (!text.trim().is_empty()).then_some(text);
        self.0
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .prelude = text;
    }

    /// The shell text to run before each command, when a hook wrote one.
    pub fn prelude(&self) -> Option<String> {
        self.0
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .prelude
            .clone()
    }

    /// Every variable, sorted by name.
    pub fn vars(&self) -> Vec<(String, String)> {
        self.0
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .vars
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

    #[test]
    fn a_prelude_is_seen_by_every_clone_and_blank_text_is_none() {
        let store = ProcessEnv::default();
        store.clone().set_prelude("export A=1\n".to_owned());
        let set = store.prelude();
        store.set_prelude(" \n".to_owned());
        assert_eq!(
            (set, store.prelude()),
            (Some("export A=1\n".to_owned()), None)
        );
    }
}
