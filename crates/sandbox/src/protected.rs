//! Protected names at any depth below the writable roots (contract §11, §26,
//! §29), judged by [`ProtectedNames`]: `.envrc`, `.cargo`, shell rc files…
//! wherever they are, and inside each `.git` (a nested repository's
//! `sub/.git` included), `.claude` and `.agenthub` every entry but the
//! writable ones. Before a command runs, [`Snapshot::take`] lists the ones
//! that exist, so the sandbox binds each protected entry read-only and each
//! judged folder onto itself (a mount point cannot be renamed or removed, so
//! the folder cannot be swapped for another); after it ran,
//! [`Snapshot::remove_new`] takes away every protected entry that was not
//! there before (or is no longer the same file), so a name the command
//! created — where no mount could stand, since it did not exist — never
//! outlives the call. A judged folder the command created stays (its
//! protected entries go) unless its rule says it is protected when new.
//!
//! The walk follows no symbolic link and does not descend into a protected
//! entry (it is read-only as a whole); below a writable entry of a judged
//! folder (`.git/refs`) it only looks for symbolic links, each protected. It must never
//! remove an entry the snapshot before the call holds, nor anything outside
//! the roots.

use crate::names::{Judgement, ProtectedNames, Within};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// What stood at a path: device and inode.
type Identity = (u64, u64);

/// What a protected entry is to the sandbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Bound read-only; removed when new.
    Protected,
    /// A judged folder, bound onto itself; removed when new only if its
    /// rule says it is protected when new.
    Folder { created_whole: bool },
}

/// The protected entries below some roots at one moment, each with the
/// identity of what stood there.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Snapshot {
    entries: Vec<(PathBuf, Identity, Kind)>,
}

/// What a sandbox binds for a snapshot: judged folders onto themselves
/// (writable, so they cannot be swapped), then protected entries read-only.
/// Two are equal only when the same files stand at the same paths.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Found {
    /// Judged folders, parents before children.
    pub pinned: Vec<PathBuf>,
    /// Protected entries.
    pub read_only: Vec<PathBuf>,
    pub(crate) identities: Vec<Identity>,
}

impl Snapshot {
    /// The protected entries below `roots` (the roots themselves excepted).
    pub fn take(roots: &[PathBuf], names: &ProtectedNames) -> Snapshot {
        let mut entries = Vec::new();
        for root in roots {
            walk(root, Within::Plain(""), names, &mut entries);
        }
        Snapshot { entries }
    }

    /// What to bind, in walk order.
    pub fn found(&self) -> Found {
        let mut found = Found::default();
        for (path, identity, kind) in &self.entries {
            match kind {
                Kind::Protected => found.read_only.push(path.clone()),
                Kind::Folder { .. } => found.pinned.push(path.clone()),
            }
            found.identities.push(*identity);
        }
        found
    }

    /// Removes the protected entries below `roots` that this snapshot does
    /// not hold (new, or another file under an old name) and returns them;
    /// one that cannot be removed is returned too, with why.
    pub fn remove_new(&self, roots: &[PathBuf], names: &ProtectedNames) -> Vec<Removal> {
        let mut removed: Vec<Removal> = Vec::new();
        for entry in Snapshot::take(roots, names).entries {
            let (path, _, kind) = &entry;
            let kept = matches!(
                kind,
                Kind::Folder {
                    created_whole: false
                }
            );
            if kept
                || self.entries.contains(&entry)
                || removed.iter().any(|gone| path.starts_with(&gone.path))
            {
                continue;
            }
            removed.push(Removal {
                path: path.clone(),
                error: remove(path).err().map(|error| error.to_string()),
            });
        }
        removed
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

/// Lists the protected entries below `dir`, which stands `within` its parent.
fn walk(
    dir: &Path,
    within: Within<'_>,
    names: &ProtectedNames,
    found: &mut Vec<(PathBuf, Identity, Kind)>,
) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|entry| entry.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().to_lowercase();
        let path = entry.path();
        let Ok(meta) = path.symlink_metadata() else {
            continue;
        };
        let identity = (meta.dev(), meta.ino());
        match names.judge(within, &name) {
            Judgement::Protected(_) => found.push((path, identity, Kind::Protected)),
            Judgement::Folder(rule) if meta.is_dir() => {
                let kind = Kind::Folder {
                    created_whole: rule.created_whole,
                };
                found.push((path.clone(), identity, kind));
                walk(&path, Within::Folder(rule), names, found);
            }
            Judgement::Folder(_) => found.push((path, identity, Kind::Protected)),
            Judgement::Open if meta.is_symlink() => found.push((path, identity, Kind::Protected)),
            Judgement::Open if meta.is_dir() => links_below(&path, found),
            Judgement::Open => {}
            Judgement::Plain if meta.is_dir() => walk(&path, Within::Plain(&name), names, found),
            Judgement::Plain => {}
        }
    }
}

/// Lists every symbolic link below a writable folder of a judged one
/// (`.git/logs`): git, run later outside the sandbox, would write through
/// it (`logs/HEAD` is appended to, `COMMIT_EDITMSG` rewritten in place), so
/// a link planted there could land a commit message in `~/.bashrc`. Git
/// never makes one; each is protected.
fn links_below(dir: &Path, found: &mut Vec<(PathBuf, Identity, Kind)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|entry| entry.file_name());
    for entry in entries {
        let path = entry.path();
        let Ok(meta) = path.symlink_metadata() else {
            continue;
        };
        if meta.is_symlink() {
            found.push((path, (meta.dev(), meta.ino()), Kind::Protected));
        } else if meta.is_dir() {
            links_below(&path, found);
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
    use crate::names::{Content, FolderRule};

    fn names() -> ProtectedNames {
        ProtectedNames {
            whole: vec![".envrc".into(), ".bashrc".into()],
            nested: vec![(".github".into(), "workflows".into())],
            folders: vec![
                FolderRule {
                    name: ".git".into(),
                    created_whole: true,
                    content: Content::ProtectedExcept(vec!["head".into(), "objects".into()]),
                },
                FolderRule {
                    name: ".claude".into(),
                    created_whole: false,
                    content: Content::WritableExcept(vec!["settings.json".into(), "hooks".into()]),
                },
            ],
        }
    }

    fn tree(files: &[&str]) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        for file in files {
            let path = root.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            if file.ends_with('/') {
                std::fs::create_dir_all(&path).unwrap();
            } else {
                std::fs::write(&path, "").unwrap();
            }
        }
        (dir, root)
    }

    #[test]
    fn protected_entries_are_found_at_any_depth_without_descending_into_them() {
        let (_dir, root) = tree(&[
            ".git/hooks/pre-commit",
            ".git/HEAD",
            ".git/objects/ab/cd",
            "sub/deeper/.GIT/config",
            "sub/.bashrc",
            "sub/plain",
            ".claude/settings.json",
            ".claude/ralph.local.md",
            ".claude/data/.envrc",
        ]);
        let found = Snapshot::take(std::slice::from_ref(&root), &names()).found();
        assert_eq!(
            (found.pinned, found.read_only),
            (
                vec![
                    root.join(".claude"),
                    root.join(".git"),
                    root.join("sub/deeper/.GIT")
                ],
                vec![
                    root.join(".claude/data/.envrc"),
                    root.join(".claude/settings.json"),
                    root.join(".git/hooks"),
                    root.join("sub/.bashrc"),
                    root.join("sub/deeper/.GIT/config"),
                ]
            )
        );
    }

    #[test]
    fn a_two_component_name_is_found_only_where_both_components_stand_together() {
        let (_dir, root) = tree(&[
            ".github/workflows/",
            "pkg/.GitHub/Workflows/",
            "docs/workflows/",
            ".github/other/workflows/",
        ]);
        assert_eq!(
            Snapshot::take(std::slice::from_ref(&root), &names())
                .found()
                .read_only,
            vec![
                root.join(".github/workflows"),
                root.join("pkg/.GitHub/Workflows")
            ]
        );
    }

    #[test]
    fn only_protected_entries_that_were_not_there_before_are_removed() {
        let (_dir, root) = tree(&[".git/HEAD", ".git/config"]);
        let roots = vec![root.clone()];
        let before = Snapshot::take(&roots, &names());
        std::fs::create_dir_all(root.join("sub/.git/hooks")).unwrap();
        std::fs::write(root.join("sub/.git/HEAD"), "ref").unwrap();
        std::fs::write(root.join("sub/.envrc"), "eval evil").unwrap();
        std::fs::write(root.join(".git/HEAD"), "new head").unwrap();
        std::fs::write(root.join(".git/objects"), "written").unwrap();
        std::fs::write(root.join(".git/config.lock"), "x").unwrap();
        let removed = before.remove_new(&roots, &names());
        assert_eq!(
            (
                removed,
                Snapshot::take(&roots, &names()).found().read_only,
                root.join(".git/objects").exists()
            ),
            (
                vec![
                    Removal {
                        path: root.join(".git/config.lock"),
                        error: None
                    },
                    Removal {
                        path: root.join("sub/.envrc"),
                        error: None
                    },
                    Removal {
                        path: root.join("sub/.git"),
                        error: None
                    }
                ],
                vec![root.join(".git/config")],
                true
            )
        );
    }

    #[test]
    fn a_symbolic_link_planted_among_what_git_writes_is_undone() {
        let (_dir, root) = tree(&[".git/HEAD", ".git/objects/ab/cd"]);
        let roots = vec![root.clone()];
        let before = Snapshot::take(&roots, &names());
        std::os::unix::fs::symlink("/root/.bashrc", root.join(".git/objects/ab/ef")).unwrap();
        std::fs::remove_file(root.join(".git/HEAD")).unwrap();
        std::os::unix::fs::symlink("/root/.bashrc", root.join(".git/HEAD")).unwrap();
        let removed: Vec<PathBuf> = before
            .remove_new(&roots, &names())
            .into_iter()
            .map(|removal| removal.path)
            .collect();
        assert_eq!(
            (removed, root.join(".git/objects/ab/cd").exists()),
            (
                vec![root.join(".git/HEAD"), root.join(".git/objects/ab/ef")],
                true
            )
        );
    }

    #[test]
    fn a_new_claude_folder_keeps_its_state_and_loses_its_protected_entries() {
        let (_dir, root) = tree(&["src/a.rs"]);
        let roots = vec![root.clone()];
        let before = Snapshot::take(&roots, &names());
        std::fs::create_dir_all(root.join(".claude/hooks")).unwrap();
        std::fs::write(root.join(".claude/ralph.local.md"), "state").unwrap();
        std::fs::write(root.join(".claude/settings.json"), "{}").unwrap();
        let removed: Vec<PathBuf> = before
            .remove_new(&roots, &names())
            .into_iter()
            .map(|removal| removal.path)
            .collect();
        assert_eq!(
            (removed, root.join(".claude/ralph.local.md").exists()),
            (
                vec![
                    root.join(".claude/hooks"),
                    root.join(".claude/settings.json")
                ],
                true
            )
        );
    }
}
