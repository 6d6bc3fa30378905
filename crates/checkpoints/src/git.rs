//! The git binary, run on a workspace's shadow store (contract §24): every
//! command gets `GIT_DIR`, `GIT_WORK_TREE` and `GIT_INDEX_FILE` pointing at
//! the store and the workspace, no system or global configuration, a fixed
//! identity, and none of the caller's own `GIT_*` variables. So a command can
//! never read or write the workspace's own `.git` (its index, refs, hooks,
//! configuration), and a user's git configuration cannot change what a
//! checkpoint holds.

use super::CheckpointError;
use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// The git binary, told to work on one store and one workspace.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Git<'a> {
    pub(crate) store: &'a Path,
    pub(crate) workspace: &'a Path,
    /// The index file (the store's persistent one, or a temporary one).
    pub(crate) index: &'a Path,
}

impl Git<'_> {
    /// Runs `git ARGS` (with `input` on stdin); its stdout, or why it failed.
    /// The workspace's own `.git/info/exclude` is read (never written) as
    /// an ignore list beside its `.gitignore` files.
    fn run(&self, args: &[&OsStr], input: Option<&[u8]>) -> Result<Vec<u8>, CheckpointError> {
        let mut command = isolated_git();
        command
            .env("GIT_DIR", self.store)
            .env("GIT_WORK_TREE", self.workspace)
            .env("GIT_INDEX_FILE", self.index)
            .current_dir(self.workspace);
        let excludes = self.workspace.join(".git/info/exclude");
        if excludes.is_file() {
            let mut setting = OsString::from("core.excludesFile=");
            setting.push(&excludes);
            command.arg("-c").arg(setting);
        }
        command.args(args);
        run(command, args, input)
    }

    /// `git ARGS`; its stdout, or why it failed.
    pub(crate) fn run_str(&self, args: &[&str]) -> Result<Vec<u8>, CheckpointError> {
        let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
        self.run(&args, None)
    }

    /// `git ARGS` with `input` on its stdin (a `-z --stdin` path list).
    pub(crate) fn feed(&self, args: &[&str], input: &[u8]) -> Result<Vec<u8>, CheckpointError> {
        let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
        self.run(&args, Some(input))
    }

    /// [`Git::run_str`] whose output is one line of text (an object id).
    pub(crate) fn line(&self, args: &[&str]) -> Result<String, CheckpointError> {
        let output = self.run_str(args)?;
        Ok(String::from_utf8_lossy(&output).trim().to_owned())
    }
}

/// `git` without the caller's `GIT_*` variables, system or global
/// configuration, prompts, or optional locks.
pub(crate) fn isolated_git() -> Command {
    let mut command = Command::new("git");
    for (name, _) in std::env::vars_os() {
        if name.to_string_lossy().starts_with("GIT_") {
            command.env_remove(name);
        }
    }
    command
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env("GIT_AUTHOR_NAME", "AgentHub")
        .env("GIT_AUTHOR_EMAIL", "agenthub@localhost")
        .env("GIT_COMMITTER_NAME", "AgentHub")
        .env("GIT_COMMITTER_EMAIL", "agenthub@localhost")
        .stdin(Stdio::null());
    command
}

/// Runs a prepared git command; its stdout, or why it failed.
pub(crate) fn run(
    mut command: Command,
    args: &[&OsStr],
    input: Option<&[u8]>,
) -> Result<Vec<u8>, CheckpointError> {
    command.stdout(Stdio::piped()).stderr(Stdio::piped());
    if input.is_some() {
        command.stdin(Stdio::piped());
    }
    let mut child = command.spawn().map_err(spawn_error)?;
    if let (Some(input), Some(mut stdin)) = (input, child.stdin.take()) {
        // A git that exits early closes its end: its exit status says why.
        let _ = stdin.write_all(input);
    }
    let output = child.wait_with_output().map_err(spawn_error)?;
    if !output.status.success() {
        return Err(CheckpointError::Git {
            command: args
                .iter()
                .map(|arg| arg.to_string_lossy())
                .collect::<Vec<_>>()
                .join(" "),
            stderr: String::from_utf8_lossy(&output.stderr).trim().to_owned(),
        });
    }
    Ok(output.stdout)
}

fn spawn_error(error: std::io::Error) -> CheckpointError {
    match error.kind() {
        std::io::ErrorKind::NotFound => CheckpointError::GitMissing,
        _ => CheckpointError::GitUnusable(error.to_string()),
    }
}
