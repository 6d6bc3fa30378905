//! Git workspace checkpoints (SPEC §18): after every tool round the worker
//! commits the workspace's files to `refs/agenthub/sessions/<id>` and pushes
//! that ref to the workspace's remote; a replay on a fresh worker, which
//! starts from a fresh clone, restores the files from there first.
//!
//! The commit is built on a private index, so the clone's own HEAD, branch
//! and index are never changed. It must never push anything but that ref.

use std::path::Path;
use tokio::process::Command;

/// The ref a task's checkpoints are kept on.
pub fn session_ref(task_id: &str) -> String {
    format!("refs/agenthub/sessions/{task_id}")
}

/// Commits the files of the clone at `dir` on the task's ref (its parent:
/// the ref's last checkpoint, else HEAD) and pushes the ref to `origin`.
pub(crate) async fn commit_and_push(dir: &Path, task_id: &str) -> Result<String, String> {
    let reference = session_ref(task_id);
    let index = tempfile::NamedTempFile::new()
        .map_err(|error| format!("cannot create a private index: {error}"))?;
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
/// checkpoint; `Ok(false)` when the remote has none (a first attempt).
pub(crate) async fn restore(dir: &Path, task_id: &str) -> Result<bool, String> {
    let reference = session_ref(task_id);
    let fetched = git(
        dir,
        &[
            "fetch",
            "-q",
            "origin",
            &format!("+{reference}:{reference}"),
        ],
        &[],
    )
    .await;
    if fetched.is_err() {
        return Ok(false);
    }
    git(dir, &["checkout", &reference, "--", "."], &[]).await?;
    Ok(true)
}

/// Runs `git ARGS` in `dir`; its trimmed stdout, or why it failed.
async fn git(
    dir: &Path,
    args: &[&str],
    env: &[(&str, &std::ffi::OsStr)],
) -> Result<String, String> {
    let mut command = Command::new("git");
    command.arg("-C").arg(dir).args(args);
    for (name, value) in env {
        command.env(name, value);
    }
    let output = command
        .output()
        .await
        .map_err(|error| format!("cannot run git: {error}"))?;
    if !output.status.success() {
        return Err(format!(
            "git {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
}
