//! Restoring a checkpoint (contract §24): the workspace's files become those
//! of one checkpoint of its shadow store — files the checkpoint lacks are
//! removed, the others written back byte for byte with their executable bit,
//! never through a symbolic link: a folder replaced by a link gets the link
//! removed (not what it points to) and comes back as a folder. Only files the store's checkpoints hold are
//! touched: ignored and skipped files stay as they are.

use super::git::Git;
use super::store::{nul_list, ShadowStore};
use super::CheckpointError;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// What a restore changed in the workspace.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Restored {
    /// Files written back (changed or deleted since), relative.
    pub written: Vec<String>,
    /// Files removed (created since), relative.
    pub removed: Vec<String>,
}

impl ShadowStore {
    /// Makes the workspace's files those of checkpoint `to`, given that
    /// they are now those of checkpoint `now` (taken just before): files
    /// `to` lacks are removed, the others written back byte for byte with
    /// their executable bit (symbolic links as links).
    pub fn restore(&self, now: &str, to: &str) -> Result<Restored, CheckpointError> {
        let _lock = self.lock()?;
        let listed = self.git().run_str(&[
            "diff-tree",
            "-r",
            "-z",
            "--no-renames",
            "--name-status",
            now,
            to,
        ])?;
        let mut fields = listed
            .split(|byte| *byte == 0)
            .filter(|field| !field.is_empty());
        let mut restored = Restored::default();
        let mut write = Vec::new();
        while let (Some(status), Some(path)) = (fields.next(), fields.next()) {
            let text = String::from_utf8_lossy(path).into_owned();
            if status == b"D" {
                self.remove(path)?;
                restored.removed.push(text);
            } else {
                write.push(path.to_vec());
                restored.written.push(text);
            }
        }
        if !write.is_empty() {
            for path in &write {
                self.remove_link_on_the_way(Path::new(OsStr::from_bytes(path)))?;
            }
            let kept = self.modes_now(&write);
            self.check_out(to, &write)?;
            self.keep_modes(kept)?;
        }
        Ok(restored)
    }

    /// The permission bits of those of `paths` that are regular files now.
    fn modes_now(&self, paths: &[Vec<u8>]) -> Vec<(PathBuf, u32)> {
        paths
            .iter()
            .map(|path| self.workspace.join(OsStr::from_bytes(path)))
            .filter_map(|full| {
                let meta = std::fs::symlink_metadata(&full).ok()?;
                meta.is_file()
                    .then(|| (full, meta.permissions().mode() & 0o7777))
            })
            .collect()
    }

    /// Gives files written back the permission bits they had before (git
    /// keeps only the executable bit, which comes from the checkpoint).
    fn keep_modes(&self, kept: Vec<(PathBuf, u32)>) -> Result<(), CheckpointError> {
        for (full, before) in kept {
            let Ok(meta) = std::fs::symlink_metadata(&full) else {
                continue;
            };
            if !meta.is_file() {
                continue;
            }
            let executable = meta.permissions().mode() & 0o100 != 0;
            let mode = match executable {
                true => before | ((before & 0o444) >> 2),
                false => before & !0o111,
            };
            std::fs::set_permissions(&full, std::fs::Permissions::from_mode(mode))
                .map_err(CheckpointError::io("set the mode of", &full))?;
        }
        Ok(())
    }

    /// Removes one file a checkpoint does not hold, then its folders left
    /// empty; never through a symbolic link to a folder.
    fn remove(&self, path: &[u8]) -> Result<(), CheckpointError> {
        let relative = Path::new(OsStr::from_bytes(path));
        if self.crosses_a_link(relative) {
            return Ok(());
        }
        let full = self.workspace.join(relative);
        match std::fs::remove_file(&full) {
            Ok(()) => {}
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => return Err(CheckpointError::io("remove", &full)(error)),
        }
        let mut folder = full.parent();
        while let Some(dir) = folder.filter(|dir| *dir != self.workspace) {
            if std::fs::remove_dir(dir).is_err() {
                break;
            }
            folder = dir.parent();
        }
        Ok(())
    }

    /// Removes the symbolic link (only the link) that stands where a folder
    /// on the way to `relative` belongs, so the file is written into a
    /// real folder and never through the link.
    fn remove_link_on_the_way(&self, relative: &Path) -> Result<(), CheckpointError> {
        let mut at = self.workspace.clone();
        for part in relative.parent().into_iter().flat_map(Path::components) {
            at.push(part);
            match std::fs::symlink_metadata(&at) {
                Ok(meta) if meta.file_type().is_symlink() => {
                    return std::fs::remove_file(&at).map_err(CheckpointError::io("remove", &at));
                }
                Ok(_) => {}
                Err(_) => return Ok(()),
            }
        }
        Ok(())
    }

    /// Whether a folder on the way to `relative` is a symbolic link.
    pub(super) fn crosses_a_link(&self, relative: &Path) -> bool {
        let mut at = self.workspace.clone();
        let Some(parent) = relative.parent() else {
            return false;
        };
        parent.components().any(|part| {
            at.push(part);
            std::fs::symlink_metadata(&at).is_ok_and(|meta| meta.file_type().is_symlink())
        })
    }

    /// Writes `paths` as checkpoint `commit` holds them, through a
    /// temporary index (the persistent one stays the workspace's cache).
    fn check_out(&self, commit: &str, paths: &[Vec<u8>]) -> Result<(), CheckpointError> {
        let temporary = self.dir().join("restore-index");
        let git = Git {
            index: &temporary,
            ..self.git()
        };
        let result = git
            .run_str(&["read-tree", commit])
            .and_then(|_| git.feed(&["checkout-index", "-f", "-z", "--stdin"], &nul_list(paths)));
        let _ = std::fs::remove_file(&temporary);
        result.map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::super::store::tests::place;
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_restore_removes_created_files_and_brings_back_changed_and_deleted_ones_with_their_modes() {
        let place = place();
        place.write("keep/exec.sh", b"#!/bin/sh\n");
        let exec = place.workspace.join("keep/exec.sh");
        std::fs::set_permissions(&exec, std::fs::Permissions::from_mode(0o755)).unwrap();
        place.write("changed.txt", b"before\r\n");
        std::os::unix::fs::symlink("changed.txt", place.workspace.join("link")).unwrap();
        let store = place.store();
        let before = store.snapshot("before").unwrap();
        std::fs::remove_file(&exec).unwrap();
        std::fs::remove_file(place.workspace.join("link")).unwrap();
        place.write("changed.txt", b"after");
        place.write("new/deep/file.txt", b"new");
        let now = store.snapshot("now").unwrap();
        let restored = store.restore(&now.commit, &before.commit).unwrap();
        let mode = std::fs::metadata(&exec).unwrap().permissions().mode() & 0o777;
        assert_eq!(
            (
                restored,
                std::fs::read(place.workspace.join("changed.txt")).unwrap(),
                std::fs::read_link(place.workspace.join("link")).unwrap(),
                mode,
                place.workspace.join("new").exists()
            ),
            (
                Restored {
                    written: vec!["changed.txt".into(), "keep/exec.sh".into(), "link".into()],
                    removed: vec!["new/deep/file.txt".into()],
                },
                b"before\r\n".to_vec(),
                PathBuf::from("changed.txt"),
                0o755,
                false
            )
        );
    }

    #[test]
    fn a_folder_replaced_by_a_link_comes_back_as_a_folder_and_the_links_target_is_untouched() {
        let place = place();
        place.write("dir/a.txt", b"a");
        let store = place.store();
        let before = store.snapshot("before").unwrap();
        let outside = place.workspace.parent().unwrap().join("outside");
        std::fs::create_dir(&outside).unwrap();
        std::fs::write(outside.join("a.txt"), b"theirs").unwrap();
        std::fs::write(outside.join("mine.txt"), b"mine").unwrap();
        std::fs::remove_dir_all(place.workspace.join("dir")).unwrap();
        std::os::unix::fs::symlink(&outside, place.workspace.join("dir")).unwrap();
        let now = store.snapshot("now").unwrap();
        store.restore(&now.commit, &before.commit).unwrap();
        let dir = std::fs::symlink_metadata(place.workspace.join("dir")).unwrap();
        let mut outside_files: Vec<_> = std::fs::read_dir(&outside)
            .unwrap()
            .map(|entry| {
                let entry = entry.unwrap();
                (entry.file_name(), std::fs::read(entry.path()).unwrap())
            })
            .collect();
        outside_files.sort();
        assert_eq!(
            (
                dir.is_dir(),
                std::fs::read(place.workspace.join("dir/a.txt")).unwrap(),
                outside_files,
            ),
            (
                true,
                b"a".to_vec(),
                vec![
                    ("a.txt".into(), b"theirs".to_vec()),
                    ("mine.txt".into(), b"mine".to_vec())
                ]
            )
        );
    }
}
