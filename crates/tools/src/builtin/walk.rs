//! The search root and the file walk shared by `Glob` and `Grep`:
//! gitignore-aware (also outside a git repository), hidden files included,
//! `.git` itself always skipped, files the read guard refuses left out.
//!
//! The root is checked against the workspace boundary and walked where it
//! really is; results are shown under the path as the model named it. It only
//! lists files; it never reads them and never follows symlinks.

use super::access::{self, AccessError};
use crate::Workspace;
use ignore::WalkBuilder;
use std::path::{Path, PathBuf};
use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SearchRootError {
    #[error(transparent)]
    Access(#[from] AccessError),
    #[error("search path does not exist: {}", path.display())]
    Missing { path: PathBuf },
    #[error("search path {} is not a directory", path.display())]
    NotADirectory { path: PathBuf },
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

    /// Whether the root is a regular file (the checked path has no links left).
    pub fn is_file(&self) -> bool {
        std::fs::symlink_metadata(&self.real).is_ok_and(|metadata| metadata.is_file())
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

    /// Every file below the root that the ignore files keep and the read
    /// guard allows (both as walked and as shown), as shown paths.
    pub fn files<'a>(&'a self, workspace: &'a Workspace) -> impl Iterator<Item = PathBuf> + 'a {
        files_under(&self.real)
            .filter(|real| workspace.may_read(real))
            .filter_map(|real| {
                let below = real.strip_prefix(&self.real).ok()?;
                Some(self.shown.join(below))
            })
            .filter(|shown| workspace.may_read(shown))
    }

    /// A shown path relative to the root (as patterns are matched).
    pub fn relative<'a>(&self, shown: &'a Path) -> &'a Path {
        shown.strip_prefix(&self.shown).unwrap_or(shown)
    }
}

/// Every file under `root` that `.gitignore`, `.ignore` and git's exclude files
/// do not exclude. Entries that cannot be read are skipped.
fn files_under(root: &Path) -> impl Iterator<Item = PathBuf> {
    WalkBuilder::new(root)
        .hidden(false)
        .require_git(false)
        .follow_links(false)
        .filter_entry(|entry| entry.file_name() != ".git")
        .build()
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_some_and(|kind| kind.is_file()))
        .map(ignore::DirEntry::into_path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed(root: &Path) -> Vec<String> {
        let mut names: Vec<String> = files_under(root)
            .map(|path| {
                path.strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        names.sort();
        names
    }

    #[test]
    fn gitignored_files_and_the_git_folder_are_skipped_without_a_repository() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join(".gitignore"), "target/\n*.log\n").unwrap();
        std::fs::create_dir_all(root.join("target")).unwrap();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::write(root.join("target/out.rs"), "").unwrap();
        std::fs::write(root.join(".git/config"), "").unwrap();
        std::fs::write(root.join("debug.log"), "").unwrap();
        std::fs::write(root.join("src/main.rs"), "").unwrap();
        std::fs::write(root.join(".env"), "").unwrap();
        assert_eq!(listed(root), vec![".env", ".gitignore", "src/main.rs"]);
    }

    fn search_root(dir: &tempfile::TempDir, path: &str) -> Result<SearchRoot, SearchRootError> {
        SearchRoot::check(&Workspace::new(dir.path()), Some(path))
    }

    #[test]
    fn a_missing_root_is_reported() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nope");
        assert_eq!(
            search_root(&dir, "nope").unwrap().require_directory(),
            Err(SearchRootError::Missing { path })
        );
    }

    #[test]
    fn a_file_root_is_not_a_directory() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, "").unwrap();
        assert_eq!(
            search_root(&dir, "f").unwrap().require_directory(),
            Err(SearchRootError::NotADirectory { path })
        );
    }

    #[test]
    fn files_the_read_guard_refuses_are_not_listed() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(".env"), "").unwrap();
        std::fs::write(dir.path().join("a.txt"), "").unwrap();
        let guard: crate::ReadGuard = std::sync::Arc::new(|path: &Path| !path.ends_with(".env"));
        let workspace = Workspace::new(dir.path()).with_read_guard(guard);
        let root = SearchRoot::check(&workspace, None).unwrap();
        assert_eq!(
            root.files(&workspace).collect::<Vec<_>>(),
            vec![dir.path().join("a.txt")]
        );
    }
}
