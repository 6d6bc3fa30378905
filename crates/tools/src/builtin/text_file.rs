//! Opening a file as text, shared by `Read` and `Edit`, with one clear error
//! per way it can fail; reading it whole (for `Edit`, up to a size limit). It never guesses an encoding: a file that is not
//! valid UTF-8 (or holds a NUL byte) is refused as binary.

use super::access::{self, AccessError, OpenFailure};
use crate::{ToolError, Workspace};
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TextFileError {
    #[error(transparent)]
    Access(#[from] AccessError),
    #[error("file does not exist: {}", path.display())]
    Missing { path: PathBuf },
    #[error("{} is a directory, not a file (use Glob to list its files)", path.display())]
    Directory { path: PathBuf },
    #[error("{} is not a UTF-8 text file (it looks binary); only text files can be read or edited", path.display())]
    Binary { path: PathBuf },
    #[error("cannot read {}: {message}", path.display())]
    Unreadable { path: PathBuf, message: String },
    #[error("reading {} stopped: the run was cancelled", path.display())]
    Cancelled { path: PathBuf },
    #[error("{} is {size} bytes, more than the {MAX_TEXT_BYTES} an edit may hold in memory; change it with Bash (sed, a script) instead", path.display())]
    TooLarge { path: PathBuf, size: u64 },
}

impl From<TextFileError> for ToolError {
    fn from(error: TextFileError) -> Self {
        ToolError::new(error.to_string())
    }
}

/// The most [`read_text`] reads: Edit holds the file (and its edited copy)
/// in memory, so a larger file is refused instead.
pub const MAX_TEXT_BYTES: u64 = 16 * 1024 * 1024;

/// Opens the file a tool's `file_path` names, through the workspace's
/// checked, no-follow, non-blocking open: a folder, a FIFO, a socket or a
/// device is refused, checked on the opened descriptor. The path was named to
/// the permission check, so the search guard does not apply. Returns the path
/// as shown and the file. Blocking: call it from [`access::blocking`].
pub fn open_text(workspace: &Workspace, file_path: &str) -> Result<(PathBuf, File), TextFileError> {
    let path = access::check(workspace, file_path)?.lexical;
    let file = workspace
        .open_named_for_read(file_path)
        .map_err(|error| open_error(&path, &error))?;
    let metadata = file.metadata().map_err(|error| unreadable(&path, &error))?;
    if metadata.is_dir() {
        return Err(TextFileError::Directory { path });
    }
    Ok((path, file))
}

/// Reads the file a tool's `file_path` names as UTF-8 text (see
/// [`open_text`]), refusing one over [`MAX_TEXT_BYTES`]. Blocking.
pub fn read_text(workspace: &Workspace, file_path: &str) -> Result<String, TextFileError> {
    let (path, file) = open_text(workspace, file_path)?;
    let size = file
        .metadata()
        .map_err(|error| unreadable(&path, &error))?
        .len();
    if size > MAX_TEXT_BYTES {
        return Err(TextFileError::TooLarge { path, size });
    }
    let mut bytes = Vec::new();
    file.take(MAX_TEXT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| unreadable(&path, &error))?;
    if bytes.len() as u64 > MAX_TEXT_BYTES {
        return Err(TextFileError::TooLarge {
            path,
            size: bytes.len() as u64,
        });
    }
    if bytes.contains(&0) {
        return Err(TextFileError::Binary { path });
    }
    String::from_utf8(bytes).map_err(|_| TextFileError::Binary { path })
}

fn open_error(path: &Path, error: &std::io::Error) -> TextFileError {
    match access::classify(error, path) {
        OpenFailure::Access(refusal) => TextFileError::Access(refusal),
        OpenFailure::Missing | OpenFailure::ParentNotDirectory => TextFileError::Missing {
            path: path.to_path_buf(),
        },
        OpenFailure::IsDirectory => TextFileError::Directory {
            path: path.to_path_buf(),
        },
        OpenFailure::Other(message) => TextFileError::Unreadable {
            path: path.to_path_buf(),
            message,
        },
    }
}

/// The error for a failed read of `path`.
pub fn unreadable(path: &Path, error: &std::io::Error) -> TextFileError {
    TextFileError::Unreadable {
        path: path.to_path_buf(),
        message: error.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_in(dir: &tempfile::TempDir, name: &str) -> Result<String, TextFileError> {
        read_text(&Workspace::new(dir.path()), name)
    }

    #[test]
    fn a_text_file_is_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        std::fs::write(&path, "héllo\n").unwrap();
        assert_eq!(read_in(&dir, "a.txt"), Ok("héllo\n".to_owned()));
    }

    #[test]
    fn a_missing_file_is_reported_as_missing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nope.txt");
        assert_eq!(
            read_in(&dir, "nope.txt"),
            Err(TextFileError::Missing { path })
        );
    }

    #[test]
    fn a_directory_is_refused_as_a_directory() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().to_path_buf();
        assert_eq!(read_in(&dir, "."), Err(TextFileError::Directory { path }));
    }

    #[test]
    fn invalid_utf8_is_refused_as_binary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.bin");
        std::fs::write(&path, [0xff, 0xfe, b'a']).unwrap();
        assert_eq!(read_in(&dir, "b.bin"), Err(TextFileError::Binary { path }));
    }

    #[test]
    fn a_file_over_the_size_limit_is_refused_without_being_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.txt");
        let file = std::fs::File::create(&path).unwrap();
        file.set_len(MAX_TEXT_BYTES + 1).unwrap();
        assert_eq!(
            read_in(&dir, "big.txt"),
            Err(TextFileError::TooLarge {
                path,
                size: MAX_TEXT_BYTES + 1
            })
        );
    }

    #[test]
    fn a_nul_byte_is_refused_as_binary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("n.bin");
        std::fs::write(&path, b"a\0b").unwrap();
        assert_eq!(read_in(&dir, "n.bin"), Err(TextFileError::Binary { path }));
    }
}
