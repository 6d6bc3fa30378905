//! The search root and the file walk shared by `Glob` and `Grep`:
//! gitignore-aware (also outside a git repository), hidden files included,
//! `.git` itself always skipped, files the read guard refuses left out.
//!
//! The root is checked against the workspace boundary and walked where it
//! really is; results are shown under the path as the model named it. The
//! `ignore` crate's parallel walker proposes names; every name is then
//! verified (and every file opened) through directory descriptors opened
//! from the root with `O_NOFOLLOW` (see [`parallel`]), so a folder swapped for
//! a symlink mid-walk cannot yield a name or a line from outside. It never
//! follows a symlink and never lists a FIFO, socket or device.

mod parallel;

pub use parallel::FoundFile;

use super::access::{self, AccessError};
use crate::context::safe_open;
use crate::Workspace;
use ignore::overrides::Override;
use ignore::types::Types;
use ignore::{WalkBuilder, WalkParallel};
use std::path::{Path, PathBuf};
use thiserror::Error;
use tokio_util::sync::CancellationToken;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SearchRootError {
    #[error(transparent)]
    Access(#[from] AccessError),
    #[error("search path does not exist: {}", path.display())]
    Missing { path: PathBuf },
    #[error("search path {} is not a directory", path.display())]
    NotADirectory { path: PathBuf },
    #[error("cannot open the search path {}: {message}", path.display())]
    Unopenable { path: PathBuf, message: String },
}

/// Where a search starts: checked against the workspace boundary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchRoot {
    /// The path as named (joined to the workspace root, cleaned): what results are shown under.
    pub shown: PathBuf,
    /// Where it really is, every symlink resolved: what is walked.
    real: PathBuf,
}

impl SearchRoot {
    /// Checks a tool's `path` argument (`.` when it gave none).
    pub fn check(workspace: &Workspace, path: Option<&str>) -> Result<Self, SearchRootError> {
        let resolved = access::check(workspace, path.unwrap_or("."))?;
        Ok(SearchRoot {
            shown: resolved.lexical,
            real: resolved.real,
        })
    }

    /// Checks that the root is an existing directory.
    pub fn require_directory(&self) -> Result<(), SearchRootError> {
        match std::fs::symlink_metadata(&self.real) {
            Err(_) => Err(SearchRootError::Missing {
                path: self.shown.clone(),
            }),
            Ok(metadata) if !metadata.is_dir() => Err(SearchRootError::NotADirectory {
                path: self.shown.clone(),
            }),
            Ok(_) => Ok(()),
        }
    }

    /// Walks the root in parallel (see [`parallel`]) and returns what
    /// `visit` made of each verified file, in no particular order.
    pub fn walk<S: Send, T: Send>(
        &self,
        workspace: &Workspace,
        filters: WalkFilters,
        state: impl Fn() -> S + Sync,
        visit: impl Fn(&mut S, FoundFile<'_, '_>) -> Option<T> + Sync,
    ) -> Result<Vec<T>, SearchRootError> {
        let dir = safe_open::open_dir(&workspace.roots(), &self.real).map_err(|error| {
            SearchRootError::Unopenable {
                path: self.shown.clone(),
                message: error.to_string(),
            }
        })?;
        let walk = parallel::Walk {
            root: self,
            root_dir: &dir,
            workspace,
            cancel: filters.cancel.clone(),
        };
        Ok(walk.run(walker(&self.real, filters), state, visit))
    }

    /// Where the root really is (every symlink resolved).
    pub fn real(&self) -> &Path {
        &self.real
    }

    /// A shown path relative to the root (as patterns are matched).
    pub fn relative<'a>(&self, shown: &'a Path) -> &'a Path {
        shown.strip_prefix(&self.shown).unwrap_or(shown)
    }
}

/// What narrows a walk besides the ignore files: `glob` overrides and file
/// types (as ripgrep's `--glob` and `--type`), and the run's cancellation.
#[derive(Default, Clone)]
pub struct WalkFilters {
    /// Globs that select (or with `!`, exclude) files, as ripgrep's `--glob`.
    pub overrides: Option<Override>,
    /// File types to keep, as ripgrep's `--type`.
    pub types: Option<Types>,
    /// When it fires, the walk stops.
    pub cancel: Option<CancellationToken>,
}

/// The parallel walk of everything under `root` that `.gitignore`, `.ignore`
/// and git's exclude files keep: hidden files included, `.git` skipped, no
/// link followed.
fn walker(root: &Path, filters: WalkFilters) -> WalkParallel {
    let mut builder = WalkBuilder::new(root);
    builder
        .hidden(false)
        .require_git(false)
        .follow_links(false)
        .threads(0)
        .filter_entry(|entry| entry.file_name() != ".git");
    if let Some(overrides) = filters.overrides {
        builder.overrides(overrides);
    }
    if let Some(types) = filters.types {
        builder.types(types);
    }
    builder.build_parallel()
}

#[cfg(test)]
#[path = "walk_tests.rs"]
mod tests;
