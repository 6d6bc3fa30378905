//! Git workspace checkpoints (contract §18): after every tool round the worker
//! commits the workspace's files to `refs/agenthub/sessions/<id>` and pushes
//! that ref to the workspace's remote; a replay on a fresh worker, which
//! starts from a fresh clone, restores the files from there first.
//!
//! The commit is built on a private index, so the clone's own HEAD, branch
//! and index are never changed. It must never push anything but that ref.

use crate::workspace::git_command;
use std::path::Path;
use thiserror::Error;

/// Why a checkpoint could not be made or restored.
#[derive(Debug, Error)]
pub enum CheckpointError {
    /// The `git` program could not be started.
    #[error("cannot run git: {0}")]
    NoGit(#[source] std::io::Error),
    /// The private index file could not be created.
    #[error("cannot create a private index: {0}")]
    PrivateIndex(#[source] std::io::Error),
    /// The remote could not be asked whether it has the task's checkpoint.
    #[error("cannot look for the checkpoint {reference} on the remote: {stderr}")]
    RemoteUnreachable {
        /// The checkpoint ref looked for.
        reference: String,
        /// What git said.
        stderr: String,
    },
    /// A git command failed.
    #[error("git {command} failed: {stderr}")]
    Git {
        /// The command's arguments.
        command: String,
        /// What git said.
        stderr: String,
    },
}

/// The ref a task's checkpoints are kept on.
pub fn session_ref(task_id: &str) -> String {
    format!("refs/agenthub/sessions/{task_id}")
}

/// Commits the files of the clone at `dir` on the task's ref (its parent:
/// the ref's last checkpoint, else HEAD) and pushes the ref to `origin`.
pub(crate) async fn commit_and_push(dir: &Path, task_id: &str) -> Result<String, CheckpointError> {
    let reference = session_ref(task_id);
    let index = tempfile::NamedTempFile::new().map_err(CheckpointError::PrivateIndex)?;
    let index_path = index.path().to_path_buf();
    drop(index);
    let with_index = [("GIT_INDEX_FILE", index_path.as_os_str())];
    git(dir, &["add", "-A"], &with_index).await?;
    let tree = git(dir, &["write-tree"], &with_index).await?;
    let _ = std::fs::remove_file(&index_path);
    let parent = match git(dir, &["rev-parse", "--verify", "-q", &reference], &[]).await {
        Ok(parent) => parent,
        Err(_) => git(dir, &["rev-parse", "HEAD"], &[]).await?,
    };
    let message = format!("agenthub checkpoint of task {task_id}");
    let commit = git(
        dir,
        &[
            "-c",
            "user.name=AgentHub",
            "-c",
            "user.email=agenthub@localhost",
            "commit-tree",
            &tree,
            "-p",
            &parent,
            "-m",
            &message,
        ],
        &[],
    )
    .await?;
    git(dir, &["update-ref", &reference, &commit], &[]).await?;
    git(
        dir,
        &[
            "push",
            "-q",
            "--force",
            "origin",
            &format!("{reference}:{reference}"),
        ],
        &[],
    )
    .await?;
    Ok(commit)
}

/// Restores the files of the clone at `dir` from the task's last pushed
/// checkpoint, when the remote has one (a first attempt has none). A remote
/// that cannot be asked is an error, never "no checkpoint": starting over
/// would push over the session's saved work.
pub(crate) async fn restore(dir: &Path, task_id: &str) -> Result<(), CheckpointError> {
    let reference = session_ref(task_id);
    // `--exit-code`: 2 when the remote answered and has no such ref.
    let listed = git_command(dir)
        .args(["ls-remote", "--exit-code", "origin", &reference])
        .output()
        .await
        .map_err(CheckpointError::NoGit)?;
    match listed.status.code() {
        Some(0) => {}
        Some(2) => return Ok(()),
        _ => {
            return Err(CheckpointError::RemoteUnreachable {
                reference,
                stderr: String::from_utf8_lossy(&listed.stderr).trim().to_owned(),
            })
        }
    }
    let fetch = format!("+{reference}:{reference}");
    git(dir, &["fetch", "-q", "origin", &fetch], &[]).await?;
    git(
        dir,
        &["checkout", "--no-overlay", &reference, "--", "."],
        &[],
    )
    .await?;
    Ok(())
}

/// Runs `git ARGS` in `dir`; its trimmed stdout, or why it failed.
async fn git(
    dir: &Path,
    args: &[&str],
    env: &[(&str, &std::ffi::OsStr)],
) -> Result<String, CheckpointError> {
    let mut command = git_command(dir);
    command.args(args);
    for (name, value) in env {
        command.env(name, value);
    }
    let output = command.output().await.map_err(CheckpointError::NoGit)?;
    if !output.status.success() {
        return Err(CheckpointError::Git {
            command: args.join(" "),
            stderr: String::from_utf8_lossy(&output.stderr).trim().to_owned(),
        });
    }
    Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_git::run_git;

    /// A clone (`clone/`) of a bare remote whose `main` holds `a.txt` and `b.txt`.
    fn clone_of_a_remote(root: &Path) -> std::path::PathBuf {
        let work = root.join("work");
        std::fs::create_dir(&work).unwrap();
        run_git(&work, &["init", "--quiet", "--initial-branch=main"]);
        std::fs::write(work.join("a.txt"), "a").unwrap();
        std::fs::write(work.join("b.txt"), "b").unwrap();
        run_git(&work, &["add", "."]);
        run_git(&work, &["commit", "--quiet", "-m", "one"]);
        run_git(root, &["clone", "--quiet", "--bare", "work", "remote.git"]);
        run_git(root, &["clone", "--quiet", "remote.git", "clone"]);
        root.join("clone")
    }

    #[tokio::test]
    async fn a_remote_without_the_ref_restores_nothing() {
        let root = tempfile::tempdir().unwrap();
        let clone = clone_of_a_remote(root.path());
        assert!(restore(&clone, "t1").await.is_ok());
        assert!(clone.join("a.txt").exists());
    }

    #[tokio::test]
    async fn a_remote_that_cannot_be_asked_is_an_error_not_a_fresh_start() {
        let root = tempfile::tempdir().unwrap();
        let clone = clone_of_a_remote(root.path());
        std::fs::remove_dir_all(root.path().join("remote.git")).unwrap();
        let restored = restore(&clone, "t1").await;
        assert!(
            matches!(
                &restored,
                Err(CheckpointError::RemoteUnreachable { reference, .. })
                    if reference == "refs/agenthub/sessions/t1"
            ),
            "{restored:?}"
        );
    }

    #[tokio::test]
    async fn a_fresh_clone_gets_the_checkpoints_files_and_not_the_ones_it_deleted() {
        let root = tempfile::tempdir().unwrap();
        let clone = clone_of_a_remote(root.path());
        std::fs::remove_file(clone.join("b.txt")).unwrap();
        std::fs::write(clone.join("c.txt"), "new").unwrap();
        commit_and_push(&clone, "t1").await.unwrap();
        run_git(root.path(), &["clone", "--quiet", "remote.git", "fresh"]);
        let fresh = root.path().join("fresh");
        restore(&fresh, "t1").await.unwrap();
        let mut files: Vec<String> = std::fs::read_dir(&fresh)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().into_string().unwrap())
            .filter(|name| name != ".git")
            .collect();
        files.sort();
        assert_eq!(files, ["a.txt", "c.txt"]);
    }
}
