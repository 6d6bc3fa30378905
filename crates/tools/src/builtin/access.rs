//! How the built-in file tools get at a file: the [`Workspace`]'s boundary
//! check for a clear, typed refusal, then its no-follow open, and the one
//! translation of what can go wrong into a message that names the path and why.
//!
//! This module never opens, lists or stats a file by itself: every open goes
//! through the `Workspace`, so a path swapped for a symlink after the check
//! still cannot lead outside.

use crate::{BoundaryError, ResolvedPath, ToolError, Workspace};
use std::io;
use std::path::PathBuf;
use thiserror::Error;

/// Why a file tool could not get at a path, whatever the tool.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum AccessError {
    /// The argument itself is unusable (NUL byte, control character, too long).
    #[error("invalid path {path:?}: {reason}")]
    Invalid { path: String, reason: BoundaryError },
    /// Outside the workspace, through a link to outside, a link loop: the
    /// text names the path and the roots.
    #[error("{0}")]
    Boundary(BoundaryError),
    /// The `Workspace` refused at open time (a permission rule, hard links, a
    /// workspace root, a recheck that failed): its text names the path and why.
    #[error("{0}")]
    Refused(String),
    /// A component became a symbolic link between the check and the open.
    #[error("{} was replaced by a symbolic link after the workspace check; the link was not followed", path.display())]
    SwappedForLink { path: PathBuf },
}

impl From<AccessError> for ToolError {
    fn from(error: AccessError) -> Self {
        ToolError::new(error.to_string())
    }
}

/// Checks a tool's path argument against the workspace boundary.
pub fn check(workspace: &Workspace, path: &str) -> Result<ResolvedPath, AccessError> {
    workspace.check_inside(path).map_err(|reason| match reason {
        BoundaryError::Outside { .. }
        | BoundaryError::LinkOutside { .. }
        | BoundaryError::LinkLoop(_)
        | BoundaryError::Io { .. } => AccessError::Boundary(reason),
        BoundaryError::Empty
        | BoundaryError::Nul
        | BoundaryError::NoHome(_)
        | BoundaryError::ControlCharacter(_)
        | BoundaryError::InvisibleCharacter(_)
        | BoundaryError::TooLong { .. }
        | BoundaryError::ComponentTooLong { .. } => AccessError::Invalid {
            path: path.to_owned(),
            reason,
        },
    })
}

/// What an open (or write) through the `Workspace` failed with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpenFailure {
    Access(AccessError),
    /// No such file, or a parent that is missing.
    Missing,
    IsDirectory,
    /// A parent of the path is a file, not a folder.
    ParentNotDirectory,
    /// Anything else the operating system said.
    Other(String),
}

/// Sorts an error from `Workspace::open_*`, `read_bytes` or `write_bytes` on
/// the path shown as `shown`. Errors the `Workspace` made itself carry no OS
/// error code and already say what was refused; `ELOOP` can only mean a link
/// that appeared after the check, since the check resolves every link.
pub fn classify(error: &io::Error, shown: &std::path::Path) -> OpenFailure {
    match error.raw_os_error() {
        None => OpenFailure::Access(AccessError::Refused(error.to_string())),
        Some(libc::ELOOP) => OpenFailure::Access(AccessError::SwappedForLink {
            path: shown.to_path_buf(),
        }),
        Some(libc::ENOENT) => OpenFailure::Missing,
        Some(libc::EISDIR) => OpenFailure::IsDirectory,
        Some(libc::ENOTDIR) => OpenFailure::ParentNotDirectory,
        Some(_) => OpenFailure::Other(error.to_string()),
    }
}

/// Runs blocking file work off the async threads. File tools block in
/// `openat`, `read` and `fsync`, for as long as the file is large or the disk
/// slow, so they never run on the runtime's worker threads.
pub async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ToolError> + Send + 'static,
) -> Result<T, ToolError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|error| ToolError::new(format!("the tool stopped unexpectedly: {error}")))?
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn a_nul_byte_is_an_invalid_path_naming_the_argument() {
        let workspace = Workspace::new("/w/proj");
        assert_eq!(
            check(&workspace, "a\0b").map_err(|error| error.to_string()),
            Err("invalid path \"a\\0b\": the path contains a NUL byte".to_owned())
        );
    }

    #[test]
    fn an_error_the_workspace_made_is_kept_as_its_refusal() {
        let error = io::Error::new(io::ErrorKind::PermissionDenied, "/w/.env is denied");
        assert_eq!(
            classify(&error, Path::new("/w/.env")),
            OpenFailure::Access(AccessError::Refused("/w/.env is denied".to_owned()))
        );
    }

    #[test]
    fn eloop_means_the_path_was_swapped_for_a_link() {
        let error = io::Error::from_raw_os_error(libc::ELOOP);
        assert_eq!(
            classify(&error, Path::new("/w/a")),
            OpenFailure::Access(AccessError::SwappedForLink {
                path: PathBuf::from("/w/a")
            })
        );
    }
}
