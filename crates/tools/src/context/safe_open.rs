//! Opening a checked path without following anything: the root directory is
//! opened, then every component below it with `openat(…, O_NOFOLLOW)`, so a
//! directory or file swapped for a symlink between the permission check and
//! the open makes the open fail (`ELOOP`/`ENOTDIR`) instead of escaping.
//!
//! This module must never open a path by its full string below the root: the
//! only full-path open is of the root itself, which the harness chose.

use std::ffi::{CString, OsStr};
use std::fs::{File, OpenOptions};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
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

/// What the final `openat` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Intent {
    Read,
    Write,
}

pub fn open_read(roots: &[PathBuf], real: &Path) -> io::Result<File> {
    let (root, names) = split_under_root(roots, real)?;
    let Some((last, dirs)) = names.split_last() else {
        return open_root(&root);
    };
    let dir = walk(open_root(&root)?, dirs, Parents::MustExist)?;
    open_last(&dir, last, Intent::Read)
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
    let file = open_last(&dir, last, Intent::Write)?;
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} is not a regular file", real.display()),
        ));
    }
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

fn walk(mut dir: File, names: &[&OsStr], parents: Parents) -> io::Result<File> {
    for name in names {
        dir = match open_at(&dir, name, libc::O_RDONLY | libc::O_DIRECTORY, 0) {
            Err(error) if error.kind() == io::ErrorKind::NotFound && parents == Parents::Create => {
                make_dir_at(&dir, name)?;
                open_at(&dir, name, libc::O_RDONLY | libc::O_DIRECTORY, 0)?
            }
            other => other?,
        };
    }
    Ok(dir)
}

fn open_last(dir: &File, name: &OsStr, intent: Intent) -> io::Result<File> {
    match intent {
        Intent::Read => open_at(dir, name, libc::O_RDONLY, 0),
        Intent::Write => open_at(dir, name, libc::O_WRONLY | libc::O_CREAT, 0o666),
    }
}

fn c_name(name: &OsStr) -> io::Result<CString> {
    CString::new(name.as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "the path contains a NUL byte"))
}

/// `openat(dir, name, flags | O_NOFOLLOW | O_CLOEXEC, mode)`.
fn open_at(dir: &File, name: &OsStr, flags: libc::c_int, mode: libc::c_uint) -> io::Result<File> {
    let name = c_name(name)?;
    let flags = flags | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    // SAFETY: `dir` is an open descriptor for the whole call and `name` is a
    // NUL-terminated string that outlives it; openat does not retain either.
    let fd = unsafe { libc::openat(dir.as_raw_fd(), name.as_ptr(), flags, mode) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` was just returned by a successful openat; nothing else owns it.
    Ok(File::from(unsafe { OwnedFd::from_raw_fd(fd) }))
}

/// `mkdirat(dir, name, 0o777)`; a directory created meanwhile by someone else is fine.
fn make_dir_at(dir: &File, name: &OsStr) -> io::Result<()> {
    let name = c_name(name)?;
    // SAFETY: as in `open_at`: a live descriptor and a NUL-terminated name.
    let result = unsafe { libc::mkdirat(dir.as_raw_fd(), name.as_ptr(), 0o777) };
    if result < 0 {
        let error = io::Error::last_os_error();
        if error.kind() != io::ErrorKind::AlreadyExists {
            return Err(error);
        }
    }
    Ok(())
}

#[cfg(test)]
#[path = "safe_open_tests.rs"]
mod tests;
