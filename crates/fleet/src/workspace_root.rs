//! Where a worker's tasks may work (contract §28): `agenthub worker
//! --workspace-root DIR`, by default `$XDG_STATE_HOME/agenthub/fleet/workspaces`
//! (`~/.local/state/…` without `XDG_STATE_HOME`). A task's `workspace.path`
//! must lie inside it; the check itself is [`crate::task_settings`]'s.
//!
//! Paths are compared as the file system resolves them: symbolic links
//! followed, `..` taken away, so neither a link inside the root pointing out
//! nor `ROOT/../x` counts as inside. It must never treat a path as inside
//! because its text starts with the root's.

use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};
use thiserror::Error;

/// Which folders a task's `path` workspace may name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum WorkspaceRoot {
    /// Any folder: the local batch, whose task list is the user's own file.
    #[default]
    Anywhere,
    /// Only folders inside this one (canonical): a worker's `--workspace-root`.
    Inside(PathBuf),
}

/// A workspace root that cannot be used.
#[derive(Debug, Error)]
pub enum WorkspaceRootError {
    /// Neither `XDG_STATE_HOME` nor `HOME` is set, and no root was given.
    #[error("no default workspace root: set XDG_STATE_HOME or HOME, or give --workspace-root DIR")]
    NoDefault,
    /// The root cannot be created or resolved.
    #[error("workspace root {}: {error}", path.display())]
    Unusable {
        /// The root as given.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
}

impl WorkspaceRoot {
    /// The root `dir` (the default when `None`), created if missing and
    /// resolved, so that tasks are compared with the folder itself.
    pub fn open(dir: Option<&Path>) -> Result<WorkspaceRoot, WorkspaceRootError> {
        let dir = match dir {
            Some(dir) => dir.to_path_buf(),
            None => default_dir(std::env::var_os("XDG_STATE_HOME"), std::env::var_os("HOME"))
                .ok_or(WorkspaceRootError::NoDefault)?,
        };
        let unusable = |error| WorkspaceRootError::Unusable {
            path: dir.clone(),
            error,
        };
        std::fs::create_dir_all(&dir).map_err(unusable)?;
        let canonical = dir.canonicalize().map_err(unusable)?;
        Ok(WorkspaceRoot::Inside(canonical))
    }
}

/// `$XDG_STATE_HOME/agenthub/fleet/workspaces`, else
/// `$HOME/.local/state/agenthub/fleet/workspaces`; an empty variable counts
/// as unset.
pub fn default_dir(xdg_state_home: Option<OsString>, home: Option<OsString>) -> Option<PathBuf> {
    let set = |value: Option<OsString>| value.filter(|value| !value.is_empty()).map(PathBuf::from);
    set(xdg_state_home)
        .or_else(|| set(home).map(|home| home.join(".local/state")))
        .map(|state| state.join("agenthub/fleet/workspaces"))
}

/// `path` as the file system would resolve it: its deepest existing
/// ancestor canonicalized (links followed), then the rest of its
/// components; `None` when the rest climbs with `..` (it could leave any
/// folder) or nothing of it exists.
pub(crate) fn resolve(path: &Path) -> Option<PathBuf> {
    let mut existing = path;
    let mut rest = Vec::new();
    loop {
        if let Ok(canonical) = existing.canonicalize() {
            let mut resolved = canonical;
            for component in rest.iter().rev() {
                match component {
                    Component::Normal(name) => resolved.push(name),
                    Component::CurDir => {}
                    _ => return None,
                }
            }
            return Some(resolved);
        }
        rest.push(existing.components().next_back()?);
        existing = existing.parent()?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_root_is_under_xdg_state_home() {
        assert_eq!(
            default_dir(Some("/state".into()), Some("/home/u".into())),
            Some(PathBuf::from("/state/agenthub/fleet/workspaces"))
        );
    }

    #[test]
    fn without_xdg_state_home_the_default_root_is_under_local_state() {
        assert_eq!(
            default_dir(Some("".into()), Some("/home/u".into())),
            Some(PathBuf::from(
                "/home/u/.local/state/agenthub/fleet/workspaces"
            ))
        );
    }

    #[test]
    fn without_either_variable_there_is_no_default_root() {
        assert_eq!(default_dir(None, None), None);
    }

    #[test]
    fn a_missing_path_resolves_through_its_existing_ancestor() {
        let dir = tempfile::tempdir().unwrap();
        let canonical = dir.path().canonicalize().unwrap();
        assert_eq!(
            resolve(&dir.path().join("new/./task")),
            Some(canonical.join("new/task"))
        );
    }

    #[test]
    fn a_missing_path_that_climbs_does_not_resolve() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(resolve(&dir.path().join("new/../../x")), None);
    }

    #[test]
    fn opening_a_root_creates_and_resolves_it() {
        let dir = tempfile::tempdir().unwrap();
        let root = WorkspaceRoot::open(Some(&dir.path().join("a/../b"))).unwrap();
        assert_eq!(
            (root, dir.path().join("b").is_dir()),
            (
                WorkspaceRoot::Inside(dir.path().canonicalize().unwrap().join("b")),
                true
            )
        );
    }
}
