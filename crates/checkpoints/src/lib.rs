//! Checkpoints and rewind (contract §24). Before each tool round with a call
//! that may write, the workspace's files are committed to a shadow git store
//! of the workspace under `$XDG_STATE_HOME/agenthub/checkpoints/` (the
//! [`Checkpointer`], reaching the loop through its one seam,
//! [`BeforeWrites`](agenthub_core::BeforeWrites)); the transcript gets a
//! `checkpoint` record. [`rewind`] restores the files to the state before a
//! prompt and/or ends the conversation there (a `rewind` record), after a
//! checkpoint of its own so that it can be undone; [`rewind_points`] lists
//! the prompts a session can go back to.
//!
//! The store is the git binary's (measured against `gix`: see the README's
//! "Checkpoints and rewind"); without git a session runs without checkpoints
//! and says so once. Nothing here ever touches the workspace's own `.git`.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod checkpointer;
mod git;
mod points;
mod restore;
mod rewind;
mod store;

pub use checkpointer::Checkpointer;
pub use points::{rewind_points, ListedPoint, PointKind};
pub use restore::Restored;
pub use rewind::{rewind, RewindDone, RewindError};
pub use store::{ShadowStore, Skipped, Snapshot, MAX_FILE_BYTES};

use std::path::{Path, PathBuf};
use thiserror::Error;

/// `$XDG_STATE_HOME/agenthub/checkpoints` (`~/.local/state/…` without it):
/// one shadow store per workspace.
pub fn checkpoints_dir() -> PathBuf {
    agenthub_settings::xdg::state_folder().join("agenthub/checkpoints")
}

/// Why a checkpoint or a restore could not be made.
#[derive(Debug, Error)]
pub enum CheckpointError {
    /// There is no `git` on the `PATH`.
    #[error("git was not found (checkpoints need the git binary on the PATH)")]
    GitMissing,
    /// `git` exists but cannot be started.
    #[error("git cannot be started: {0}")]
    GitUnusable(String),
    /// A git command of the store failed.
    #[error("git {command} failed: {stderr}")]
    Git {
        /// The command's arguments.
        command: String,
        /// What git said.
        stderr: String,
    },
    /// A file of the store or the workspace could not be used.
    #[error("cannot {action} {}: {error}", path.display())]
    Io {
        /// What was being done (`create`, `remove`, …).
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        error: std::io::Error,
    },
}

impl CheckpointError {
    /// A maker of [`CheckpointError::Io`] for `action` on `path`.
    pub(crate) fn io(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.to_path_buf();
        move |error| CheckpointError::Io {
            action,
            path,
            error,
        }
    }
}
