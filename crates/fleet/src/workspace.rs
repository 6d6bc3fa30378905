//! A task's workspace, made ready: a `path` is used as it is; a `git`
//! workspace is cloned fresh (`git clone`, then `git checkout REF`) into a
//! temporary folder that [`PreparedWorkspace`] owns and removes when dropped —
//! after the task's result is written — unless it is kept (`--keep`).
//!
//! It must never reuse or clean a folder it did not create: a `path`
//! workspace is only checked, never changed, and never removed.

use crate::task::TaskWorkspace;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use tempfile::TempDir;
use thiserror::Error;
use tokio::process::Command;

/// A workspace that cannot be made ready.
#[derive(Debug, Error)]
pub enum WorkspaceError {
    /// A `path` workspace that is not a folder.
    #[error("workspace {}: {problem}", path.display())]
    Folder {
        /// The folder as the task gives it.
        path: PathBuf,
        /// What is wrong with it.
        problem: String,
    },
    /// The temporary folder for a clone cannot be created.
    #[error("cannot create a folder for the clone: {0}")]
    TempDir(std::io::Error),
    /// `git` could not be started.
    #[error("cannot run git: {0}")]
    Git(std::io::Error),
    /// A ref that git would read as an option (`--orphan=x`).
    #[error("workspace ref {0:?} starts with '-': git would read it as an option")]
    OptionLikeRef(String),
    /// `git clone` or `git checkout` failed.
    #[error("git {step} {what} failed: {stderr}")]
    GitStep {
        /// `clone` or `checkout`.
        step: &'static str,
        /// The URL or the ref.
        what: String,
        /// What git said.
        stderr: String,
    },
}

/// A task's workspace, ready for its session; a clone is removed on drop
/// unless kept.
#[derive(Debug)]
pub struct PreparedWorkspace {
    path: PathBuf,
    clone: Option<TempDir>,
    keep: bool,
}

impl PreparedWorkspace {
    /// The folder the session works in.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the folder is a fresh clone (removed on drop unless kept).
    pub fn is_clone(&self) -> bool {
        self.clone.is_some()
    }
}

impl Drop for PreparedWorkspace {
    fn drop(&mut self) {
        if let (Some(clone), true) = (self.clone.take(), self.keep) {
            let _kept = clone.keep();
        }
    }
}

/// Makes `workspace` ready for the task `id`; a clone is kept after the
/// task when `keep` is true.
pub async fn prepare_workspace(
    workspace: &TaskWorkspace,
    id: &str,
    keep: bool,
) -> Result<PreparedWorkspace, WorkspaceError> {
    match workspace {
        TaskWorkspace::Path { path } => folder(path),
        TaskWorkspace::Git { git, reference } => clone(git, reference, id, keep).await,
    }
}

fn folder(path: &Path) -> Result<PreparedWorkspace, WorkspaceError> {
    let problem = |problem: String| WorkspaceError::Folder {
        path: path.to_path_buf(),
        problem,
    };
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => Ok(PreparedWorkspace {
            path: path.to_path_buf(),
            clone: None,
            keep: false,
        }),
        Ok(_) => Err(problem("is not a folder".to_owned())),
        Err(error) => Err(problem(error.to_string())),
    }
}

async fn clone(
    url: &str,
    reference: &str,
    id: &str,
    keep: bool,
) -> Result<PreparedWorkspace, WorkspaceError> {
    if reference.starts_with('-') {
        return Err(WorkspaceError::OptionLikeRef(reference.to_owned()));
    }
    let dir = tempfile::Builder::new()
        .prefix(&format!("agenthub-task-{}-", safe_name(id)))
        .tempdir()
        .map_err(WorkspaceError::TempDir)?;
    let path = dir.path().to_path_buf();
    git(&["clone", "--quiet", "--", url, "."], &path, "clone", url).await?;
    git(
        &["checkout", "--quiet", reference, "--"],
        &path,
        "checkout",
        reference,
    )
    .await?;
    Ok(PreparedWorkspace {
        path,
        clone: Some(dir),
        keep,
    })
}

/// `git` in `dir` as AgentHub runs it: never waiting for a password
/// (`GIT_TERMINAL_PROMPT=0`, no stdin), its stderr captured, killed when its
/// future is dropped (a cancelled task).
pub(crate) fn git_command(dir: &Path) -> Command {
    let mut command = Command::new("git");
    command
        .current_dir(dir)
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    command
}

/// Runs one git step in `dir`; its stderr is the error when it fails. The
/// process is killed if the task is cancelled (the future dropped).
async fn git(
    args: &[&str],
    dir: &Path,
    step: &'static str,
    what: &str,
) -> Result<(), WorkspaceError> {
    let output = git_command(dir)
        .args(args)
        .stdout(Stdio::null())
        .output()
        .await
        .map_err(WorkspaceError::Git)?;
    if output.status.success() {
        return Ok(());
    }
    Err(WorkspaceError::GitStep {
        step,
        what: what.to_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).trim().to_owned(),
    })
}

/// The task id as a file-name part: letters, digits, `-` and `_` kept, the
/// rest replaced, at most 40 characters.
pub(crate) fn safe_name(id: &str) -> String {
    id.chars()
        .take(40)
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
#[path = "workspace_tests.rs"]
mod tests;
