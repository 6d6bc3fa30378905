//! Opening a checked path without following anything: the root directory is
//! opened, then every component below it with `openat(…, O_NOFOLLOW)`, so a
//! directory or file swapped for a symlink between the permission check and
//! the open makes the open fail (`ELOOP`/`ENOTDIR`) instead of escaping.
//!
//! This module must never open a path by its full string below the root: the
//! only full-path open is of the root itself, which the harness chose.

use super::descriptors::{make_dir_at, open_dir_at, open_readable_at, open_writable_at};
use std::ffi::OsStr;
use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Component, Path, PathBuf};

/// Whether [`crate::Workspace::open_for_write`] creates missing directories.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Parents {
    /// Missing directories are created (each one beneath the last, no link followed).
    Create,
    /// A missing directory is an error.
    MustExist,
}

pub fn open_read(roots: &[PathBuf], real: &Path) -> io::Result<File> {
    let (root, names) = split_under_root(roots, real)?;
    let Some((last, dirs)) = names.split_last() else {
        return open_root(&root);
    };
    let dir = walk(open_root(&root)?, dirs, Parents::MustExist)?;
    open_readable_at(&dir, last, real)
}

/// Opens a checked directory (a search root) with no symlink followed below
/// the workspace root: the descriptor every walk resolves names against.
pub fn open_dir(roots: &[PathBuf], real: &Path) -> io::Result<File> {
    let (root, names) = split_under_root(roots, real)?;
    walk(open_root(&root)?, &names, Parents::MustExist)
}

pub fn open_write(roots: &[PathBuf], real: &Path, parents: Parents) -> io::Result<File> {
    let (root, names) = split_under_root(roots, real)?;
    let Some((last, dirs)) = names.split_last() else {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} is a workspace root, not a file", root.display()),
        ));
    };
    let dir = walk(open_root(&root)?, dirs, parents)?;
    let file = open_writable_at(&dir, last, real)?;
    let metadata = file.metadata()?;
    if metadata.nlink() > 1 {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!(
                "{} has {} hard links; writing through it would change the other names too",
                real.display(),
                metadata.nlink()
            ),
        ));
    }
    file.set_len(0)?;
    Ok(file)
}

/// The canonical root `real` lies under (the deepest, if roots nest), and the
/// names below it.
fn split_under_root<'a>(
    roots: &[PathBuf],
    real: &'a Path,
) -> io::Result<(PathBuf, Vec<&'a OsStr>)> {
    let root = roots
        .iter()
        .map(|root| super::boundary::canonical_root(root))
        .filter(|root| real.starts_with(root))
        .max_by_key(|root| root.components().count())
        .ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::PermissionDenied,
                format!("{} is outside the workspace", real.display()),
            )
        })?;
    let mut names = Vec::new();
    for component in real.components().skip(root.components().count()) {
        match component {
            Component::Normal(name) => names.push(name),
            _ => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("{} is not a resolved path", real.display()),
                ))
            }
        }
    }
    Ok((root, names))
}

fn open_root(root: &Path) -> io::Result<File> {
    OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_DIRECTORY | libc::O_CLOEXEC)
        .open(root)
}

/// Opens the directories `names` one beneath the other from `dir`.
pub fn walk(mut dir: File, names: &[&OsStr], parents: Parents) -> io::Result<File> {
    for name in names {
        dir = match open_dir_at(&dir, name) {
            Err(error) if error.kind() == io::ErrorKind::NotFound && parents == Parents::Create => {
                make_dir_at(&dir, name)?;
                open_dir_at(&dir, name)?
            }
            other => other?,
        };
    }
    Ok(dir)
}

#[cfg(test)]
#[path = "safe_open_tests.rs"]
mod tests;
