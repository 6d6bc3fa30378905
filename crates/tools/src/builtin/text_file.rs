//! Reading a file as UTF-8 text, shared by `Read` and `Edit`, with one clear
//! error per way it can fail. It never guesses an encoding: a file that is not
//! valid UTF-8 (or holds a NUL byte) is refused as binary.

use super::access::{self, AccessError, OpenFailure};
use crate::{ToolError, Workspace};
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
}

impl From<TextFileError> for ToolError {
    fn from(error: TextFileError) -> Self {
        ToolError::new(error.to_string())
    }
}

/// Reads the file a tool's `file_path` names as UTF-8 text, through the
/// workspace's checked, no-follow open. The path was named to the permission
/// check, so the search guard does not apply. Blocking: call it from
/// [`access::blocking`].
pub fn read_text(workspace: &Workspace, file_path: &str) -> Result<String, TextFileError> {
    let path = access::check(workspace, file_path)?.lexical;
    let mut file = workspace
        .open_named_for_read(file_path)
        .map_err(|error| open_error(&path, &error))?;
    let metadata = file.metadata().map_err(|error| unreadable(&path, &error))?;
    if metadata.is_dir() {
        return Err(TextFileError::Directory { path });
    }
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)
        .map_err(|error| unreadable(&path, &error))?;
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

fn unreadable(path: &Path, error: &std::io::Error) -> TextFileError {
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
    fn a_nul_byte_is_refused_as_binary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("n.bin");
        std::fs::write(&path, b"a\0b").unwrap();
        assert_eq!(read_in(&dir, "n.bin"), Err(TextFileError::Binary { path }));
    }
}
