//! Protected names at any depth below the writable roots (contract §11, §26):
//! `.git`, `.cargo`, `.envrc`, shell rc files… wherever they are, a nested
//! repository's `sub/.git` included. Before a command runs, [`Snapshot::take`]
//! lists the ones that exist, so the sandbox binds each read-only; after it
//! ran, [`Snapshot::remove_new`] takes away every one that was not there
//! before (or is no longer the same file), so a name the command created —
//! where no mount could stand, since it did not exist — never outlives the call.
//!
//! A name with a `/` (`.github/workflows`) is a folder named by its last
//! components: `workflows` directly inside `.github`, at any depth.
//!
//! The walk follows no symbolic link and does not descend into a protected
//! entry (it is read-only as a whole). It must never remove an entry the
//! snapshot before the call holds, nor anything outside the roots.

use std::collections::HashSet;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// The protected entries below some roots at one moment, each with the
/// identity (device, inode) of what stood there.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Snapshot {
    entries: Vec<(PathBuf, (u64, u64))>,
}

impl Snapshot {
    /// The protected entries below `roots` (the roots themselves excepted):
    /// each of `names` matched case-insensitively, as the permission layer does.
    pub fn take(roots: &[PathBuf], names: &[String]) -> Snapshot {
        let names = Names::new(names);
        let mut entries = Vec::new();
        for root in roots {
            walk(root, "", &names, &mut entries);
        }
        Snapshot { entries }
    }

    /// The entries' paths, in walk order.
    pub fn paths(&self) -> Vec<PathBuf> {
        self.entries.iter().map(|(path, _)| path.clone()).collect()
    }

    /// Removes the protected entries below `roots` that this snapshot does
    /// not hold (new, or another file under an old name) and returns them;
    /// one that cannot be removed is returned too, with why.
    pub fn remove_new(&self, roots: &[PathBuf], names: &[String]) -> Vec<Removal> {
        Snapshot::take(roots, names)
            .entries
            .into_iter()
            .filter(|entry| !self.entries.contains(entry))
            .map(|(path, _)| {
                let result = remove(&path);
                Removal {
                    path,
                    error: result.err().map(|error| error.to_string()),
                }
            })
            .collect()
    }
}

/// A protected entry the command created, and why it could not be removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Removal {
    /// Where it was.
    pub path: PathBuf,
    /// `None` when it is gone.
    pub error: Option<String>,
}

/// The protected names, lower-case: single ones, and pairs (`parent/name`).
struct Names {
    single: HashSet<String>,
    pairs: HashSet<(String, String)>,
}

impl Names {
    fn new(names: &[String]) -> Names {
        let mut single = HashSet::new();
        let mut pairs = HashSet::new();
        for name in names.iter().map(|name| name.to_lowercase()) {
            match name.split_once('/') {
                Some((parent, last)) => pairs.insert((parent.to_owned(), last.to_owned())),
                None => single.insert(name),
            };
        }
        Names { single, pairs }
    }

    /// Whether `name`, inside a folder named `parent`, is protected.
    fn contains(&self, parent: &str, name: &str) -> bool {
        self.single.contains(name) || self.pairs.contains(&(parent.to_owned(), name.to_owned()))
    }
}

/// Lists the protected entries below `dir`, whose own name (lower-case) is `dir_name`.
fn walk(dir: &Path, dir_name: &str, names: &Names, found: &mut Vec<(PathBuf, (u64, u64))>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|entry| entry.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().to_lowercase();
        let Ok(meta) = entry.path().symlink_metadata() else {
            continue;
        };
        if names.contains(dir_name, &name) {
            found.push((entry.path(), (meta.dev(), meta.ino())));
        } else if meta.is_dir() {
            walk(&entry.path(), &name, names, found);
        }
    }
}

fn remove(path: &Path) -> std::io::Result<()> {
    let meta = path.symlink_metadata()?;
    if meta.is_dir() {
        std::fs::remove_dir_all(path)
    } else {
        std::fs::remove_file(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        [".git", ".envrc", ".bashrc", ".github/workflows"]
            .iter()
            .map(|name| name.to_string())
            .collect()
    }

    #[test]
    fn protected_entries_are_found_at_any_depth_without_descending_into_them() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        std::fs::create_dir_all(root.join(".git/hooks")).unwrap();
        std::fs::create_dir_all(root.join("sub/deeper/.GIT")).unwrap();
        std::fs::write(root.join("sub/.bashrc"), "").unwrap();
        std::fs::write(root.join("sub/plain"), "").unwrap();
        assert_eq!(
            Snapshot::take(std::slice::from_ref(&root), &names()).paths(),
            vec![
                root.join(".git"),
                root.join("sub/.bashrc"),
                root.join("sub/deeper/.GIT")
            ]
        );
    }

    #[test]
    fn a_two_component_name_is_found_only_where_both_components_stand_together() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        std::fs::create_dir_all(root.join(".github/workflows")).unwrap();
        std::fs::create_dir_all(root.join("pkg/.GitHub/Workflows")).unwrap();
        std::fs::create_dir_all(root.join("docs/workflows")).unwrap();
        std::fs::create_dir_all(root.join(".github/other/workflows")).unwrap();
        assert_eq!(
            Snapshot::take(std::slice::from_ref(&root), &names()).paths(),
            vec![
                root.join(".github/workflows"),
                root.join("pkg/.GitHub/Workflows")
            ]
        );
    }

    #[test]
    fn only_entries_that_were_not_there_before_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        std::fs::create_dir(root.join(".git")).unwrap();
        let roots = vec![root.clone()];
        let before = Snapshot::take(&roots, &names());
        std::fs::create_dir_all(root.join("sub/.git/hooks")).unwrap();
        std::fs::write(root.join("sub/.envrc"), "eval evil").unwrap();
        let removed = before.remove_new(&roots, &names());
        assert_eq!(
            (removed, Snapshot::take(&roots, &names()).paths()),
            (
                vec![
                    Removal {
                        path: root.join("sub/.envrc"),
                        error: None
                    },
                    Removal {
                        path: root.join("sub/.git"),
                        error: None
                    }
                ],
                vec![root.join(".git")]
            )
        );
    }
}
