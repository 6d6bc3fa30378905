//! The descriptor calls every open below a workspace root is made of:
//! `openat` with `O_NOFOLLOW` (a symlink is never followed), `O_NONBLOCK` on
//! the last component (opening a FIFO returns at once instead of waiting for a
//! writer), `fstatat` without following, and the check that what was opened
//! is a regular file or a folder, made on the opened descriptor itself.
//!
//! This module must never take a path with more than one component: every
//! name is resolved relative to a directory descriptor already verified.

use std::ffi::{CString, OsStr};
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// What a descriptor or directory entry is, by its `st_mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A regular file.
    Regular,
    /// A directory.
    Directory,
    /// Anything a file tool refuses: its name for the error (`a FIFO (named pipe)`).
    Special(&'static str),
}

impl FileKind {
    /// The kind of an `st_mode`.
    pub fn of(mode: libc::mode_t) -> FileKind {
        match mode & libc::S_IFMT {
            libc::S_IFREG => FileKind::Regular,
            libc::S_IFDIR => FileKind::Directory,
            libc::S_IFIFO => FileKind::Special("a FIFO (named pipe)"),
            libc::S_IFSOCK => FileKind::Special("a socket"),
            libc::S_IFCHR => FileKind::Special("a character device"),
            libc::S_IFBLK => FileKind::Special("a block device"),
            libc::S_IFLNK => FileKind::Special("a symbolic link"),
            _ => FileKind::Special("not a regular file"),
        }
    }
}

/// The error a file tool gives for a special file at `path`; it carries no OS
/// error code, so it reaches the model as the workspace's own refusal.
pub fn special_file_error(path: &Path, what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "{} is {what}, not a regular file; file tools only read and write regular files",
            path.display()
        ),
    )
}

/// `fstat` of an open descriptor.
pub fn stat(file: &File) -> io::Result<libc::stat> {
    // SAFETY: an all-zero `stat` is a valid value of this plain C struct.
    let mut out: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: `file` is open for the whole call and `out` is a valid, writable struct.
    if unsafe { libc::fstat(file.as_raw_fd(), &mut out) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(out)
}

/// `fstatat(dir, name, AT_SYMLINK_NOFOLLOW)`: what `name` in `dir` is, a link
/// reported as a link.
pub fn stat_at(dir: &File, name: &OsStr) -> io::Result<libc::stat> {
    let name = c_name(name)?;
    // SAFETY: as in `stat`.
    let mut out: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: `dir` is open, `name` is NUL-terminated and `out` is writable.
    let result = unsafe {
        libc::fstatat(
            dir.as_raw_fd(),
            name.as_ptr(),
            &mut out,
            libc::AT_SYMLINK_NOFOLLOW,
        )
    };
    if result < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(out)
}

/// Opens the directory `name` in `dir`, refusing a symlink (`ELOOP`) or a
/// non-directory (`ENOTDIR`).
pub fn open_dir_at(dir: &File, name: &OsStr) -> io::Result<File> {
    open_at(dir, name, libc::O_RDONLY | libc::O_DIRECTORY, 0)
}

/// Opens `name` in `dir` for reading without following a link and without
/// blocking on a FIFO, then refuses (on the descriptor) anything that is
/// neither a regular file nor a folder. `shown` names it in the error.
pub fn open_readable_at(dir: &File, name: &OsStr, shown: &Path) -> io::Result<File> {
    let flags = libc::O_RDONLY | libc::O_NONBLOCK | libc::O_NOCTTY;
    let file = open_at(dir, name, flags, 0).map_err(|error| explain(dir, name, shown, error))?;
    match FileKind::of(stat(&file)?.st_mode) {
        FileKind::Special(what) => Err(special_file_error(shown, what)),
        FileKind::Regular | FileKind::Directory => Ok(file),
    }
}

/// Opens `name` in `dir` for reading as [`open_readable_at`] does, but
/// refuses a folder too: what a walk searches must be a regular file.
pub fn open_regular_at(dir: &File, name: &OsStr, shown: &Path) -> io::Result<File> {
    let flags = libc::O_RDONLY | libc::O_NONBLOCK | libc::O_NOCTTY;
    let file = open_at(dir, name, flags, 0).map_err(|error| explain(dir, name, shown, error))?;
    match FileKind::of(stat(&file)?.st_mode) {
        FileKind::Regular => Ok(file),
        FileKind::Directory => Err(io::Error::from_raw_os_error(libc::EISDIR)),
        FileKind::Special(what) => Err(special_file_error(shown, what)),
    }
}

/// Opens (creating if missing) `name` in `dir` for writing, without following
/// a link and without blocking on a FIFO (which fails with `ENXIO` when nobody
/// reads it, or is refused on the descriptor when someone does).
pub fn open_writable_at(dir: &File, name: &OsStr, shown: &Path) -> io::Result<File> {
    let flags = libc::O_WRONLY | libc::O_CREAT | libc::O_NONBLOCK | libc::O_NOCTTY;
    let file =
        open_at(dir, name, flags, 0o666).map_err(|error| explain(dir, name, shown, error))?;
    match FileKind::of(stat(&file)?.st_mode) {
        FileKind::Regular => Ok(file),
        FileKind::Directory => Err(io::Error::from_raw_os_error(libc::EISDIR)),
        FileKind::Special(what) => Err(special_file_error(shown, what)),
    }
}

/// `ENXIO` (a socket, or a FIFO with nobody at the other end) said as what
/// the name is; any other error as it is.
fn explain(dir: &File, name: &OsStr, shown: &Path, error: io::Error) -> io::Error {
    if error.raw_os_error() != Some(libc::ENXIO) {
        return error;
    }
    match stat_at(dir, name).map(|stat| FileKind::of(stat.st_mode)) {
        Ok(FileKind::Special(what)) => special_file_error(shown, what),
        _ => error,
    }
}

fn c_name(name: &OsStr) -> io::Result<CString> {
    CString::new(name.as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "the path contains a NUL byte"))
}

/// `openat(dir, name, flags | O_NOFOLLOW | O_CLOEXEC, mode)`.
pub fn open_at(
    dir: &File,
    name: &OsStr,
    flags: libc::c_int,
    mode: libc::c_uint,
) -> io::Result<File> {
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
pub fn make_dir_at(dir: &File, name: &OsStr) -> io::Result<()> {
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
