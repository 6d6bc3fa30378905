//! The file walk shared by `Glob` and `Grep`: gitignore-aware (also outside a
//! git repository), hidden files included, `.git` itself always skipped. It
//! only lists files; it never reads them and never follows symlinks.

use ignore::WalkBuilder;
use std::path::{Path, PathBuf};
use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SearchRootError {
    #[error("search path does not exist: {}", path.display())]
    Missing { path: PathBuf },
    #[error("search path {} is not a directory", path.display())]
    NotADirectory { path: PathBuf },
}

/// Checks that `root` is an existing directory.
pub fn require_directory(root: &Path) -> Result<(), SearchRootError> {
    if !root.exists() {
        return Err(SearchRootError::Missing {
            path: root.to_path_buf(),
        });
    }
    if !root.is_dir() {
        return Err(SearchRootError::NotADirectory {
            path: root.to_path_buf(),
        });
    }
    Ok(())
}

/// Every file under `root` that `.gitignore`, `.ignore` and git's exclude files
/// do not exclude. Entries that cannot be read are skipped.
pub fn files_under(root: &Path) -> impl Iterator<Item = PathBuf> {
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

    #[test]
    fn a_missing_root_is_reported() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nope");
        assert_eq!(
            require_directory(&path),
            Err(SearchRootError::Missing { path })
        );
    }

    #[test]
    fn a_file_root_is_not_a_directory() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, "").unwrap();
        assert_eq!(
            require_directory(&path),
            Err(SearchRootError::NotADirectory { path })
        );
    }
}
