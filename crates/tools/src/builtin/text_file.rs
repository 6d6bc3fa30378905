//! Reading a file as UTF-8 text, shared by `Read` and `Edit`, with one clear
//! error per way it can fail. It never guesses an encoding: a file that is not
//! valid UTF-8 (or holds a NUL byte) is refused as binary.

use crate::ToolError;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TextFileError {
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

/// Reads `path` as UTF-8 text.
pub async fn read_text(path: &Path) -> Result<String, TextFileError> {
    let metadata = tokio::fs::metadata(path)
        .await
        .map_err(|error| io_error(path, &error))?;
    if metadata.is_dir() {
        return Err(TextFileError::Directory {
            path: path.to_path_buf(),
        });
    }
    let bytes = tokio::fs::read(path)
        .await
        .map_err(|error| io_error(path, &error))?;
    if bytes.contains(&0) {
        return Err(TextFileError::Binary {
            path: path.to_path_buf(),
        });
    }
    String::from_utf8(bytes).map_err(|_| TextFileError::Binary {
        path: path.to_path_buf(),
    })
}

fn io_error(path: &Path, error: &std::io::Error) -> TextFileError {
    match error.kind() {
        ErrorKind::NotFound => TextFileError::Missing {
            path: path.to_path_buf(),
        },
        _ => TextFileError::Unreadable {
            path: path.to_path_buf(),
            message: error.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_text_file_is_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        std::fs::write(&path, "héllo\n").unwrap();
        assert_eq!(read_text(&path).await, Ok("héllo\n".to_owned()));
    }

    #[tokio::test]
    async fn a_missing_file_is_reported_as_missing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nope.txt");
        assert_eq!(read_text(&path).await, Err(TextFileError::Missing { path }));
    }

    #[tokio::test]
    async fn a_directory_is_refused_as_a_directory() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().to_path_buf();
        assert_eq!(
            read_text(&path).await,
            Err(TextFileError::Directory { path })
        );
    }

    #[tokio::test]
    async fn invalid_utf8_is_refused_as_binary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.bin");
        std::fs::write(&path, [0xff, 0xfe, b'a']).unwrap();
        assert_eq!(read_text(&path).await, Err(TextFileError::Binary { path }));
    }

    #[tokio::test]
    async fn a_nul_byte_is_refused_as_binary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("n.bin");
        std::fs::write(&path, b"a\0b").unwrap();
        assert_eq!(read_text(&path).await, Err(TextFileError::Binary { path }));
    }
}
