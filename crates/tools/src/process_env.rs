//! Variables for the processes tools start (Bash): the settings' `env`, and
//! the shell text SessionStart hooks write to `CLAUDE_ENV_FILE`, which bash
//! runs before each command (contract §21). One store per session, shared by the
//! hooks that fill it and the tools that read it, so what a hook exports
//! reaches every later Bash call.
//!
//! It also holds the session's `CLAUDE_ENV_FILE` ([`crate::env_file`]),
//! made on first use and removed when the session ends or the last handle
//! is dropped. It only holds names and values; it never changes AgentHub's
//! own environment.

use crate::env_file::{EnvFile, EnvFileError};
use std::collections::BTreeMap;
use std::future::Future;
use std::path::PathBuf;
use std::sync::{Arc, PoisonError, RwLock};

tokio::task_local! {
    /// Variables for the processes started while one future runs (a
    /// plugin command's inline shell: `CLAUDE_PLUGIN_ROOT`).
    static CALL_VARS: Vec<(String, String)>;
}

/// A shared, cloneable set of variables; every clone sees every change.
#[derive(Debug, Clone, Default)]
pub struct ProcessEnv(Arc<RwLock<Store>>);

#[derive(Debug, Default)]
struct Store {
    vars: BTreeMap<String, String>,
    /// The env file's text, run by bash before each command.
    prelude: Option<String>,
    /// The session's env file, once a hook needed one.
    env_file: Option<EnvFile>,
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

    /// Every variable, sorted by name, then those of the
    /// [`Self::with_call_vars`] the caller runs in, if any (a later value
    /// for a name wins).
    pub fn vars(&self) -> Vec<(String, String)> {
        let mut vars: Vec<(String, String)> = self
            .0
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .vars
            .iter()
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect();
        let _ = CALL_VARS.try_with(|call_vars| vars.extend(call_vars.iter().cloned()));
        vars
    }

    /// Runs `future` with `vars` added to the variables of every process a
    /// tool starts inside it (on the same task), and only there: a plugin
    /// command's inline shell gets its plugin's variables, other calls not.
    pub async fn with_call_vars<T>(
        vars: Vec<(String, String)>,
        future: impl Future<Output = T>,
    ) -> T {
        CALL_VARS.scope(vars, future).await
    }

    /// The session's `CLAUDE_ENV_FILE`: made (empty, private) on first use,
    /// the same file after that until [`Self::end_session`].
    pub fn env_file(&self) -> Result<PathBuf, EnvFileError> {
        let mut store = self.0.write().unwrap_or_else(PoisonError::into_inner);
        if let Some(env_file) = &store.env_file {
            return Ok(env_file.file().to_path_buf());
        }
        let env_file = EnvFile::create()?;
        let file = env_file.file().to_path_buf();
        store.env_file = Some(env_file);
        Ok(file)
    }

    /// The private folder of the session's env file, when one was made:
    /// what the sandbox keeps read-only for Bash.
    pub fn env_folder(&self) -> Option<PathBuf> {
        self.0
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .env_file
            .as_ref()
            .map(|env_file| env_file.folder().to_path_buf())
    }

    /// The session ended: its env file and folder are removed and its text
    /// no longer runs before commands; a next session gets a new file.
    pub fn end_session(&self) {
        let mut store = self.0.write().unwrap_or_else(PoisonError::into_inner);
        store.env_file = None;
        store.prelude = None;
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
    fn the_env_file_is_made_once_per_session_and_a_new_session_gets_a_new_one() {
        let store = ProcessEnv::default();
        let first = store.env_file().unwrap();
        let again = store.clone().env_file().unwrap();
        store.set_prelude("export A=1\n".to_owned());
        let folder = store.env_folder();
        store.end_session();
        let gone = (first.exists(), store.env_folder(), store.prelude());
        let next = store.env_file().unwrap();
        assert_eq!(
            (again == first, folder, gone, next != first),
            (
                true,
                first.parent().map(PathBuf::from),
                (false, None, None),
                true
            )
        );
    }

    #[tokio::test]
    async fn call_vars_reach_only_what_runs_inside_their_scope() {
        let store = ProcessEnv::from_vars([("A".to_owned(), "1".to_owned())]);
        let call = ("CLAUDE_PLUGIN_ROOT".to_owned(), "/p".to_owned());
        let inside = ProcessEnv::with_call_vars(vec![call.clone()], async { store.vars() }).await;
        assert_eq!(
            (inside, store.vars()),
            (
                vec![("A".to_owned(), "1".to_owned()), call],
                vec![("A".to_owned(), "1".to_owned())]
            )
        );
    }

    #[test]
    fn dropping_the_last_handle_removes_the_env_file_and_its_folder() {
        let store = ProcessEnv::default();
        let file = store.env_file().unwrap();
        let clone = store.clone();
        drop(store);
        let kept = file.exists();
        drop(clone);
        assert_eq!((kept, file.parent().unwrap().exists()), (true, false));
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
