//! A Bash result longer than what is kept in memory, written whole
//! (contract §21, §31): when a stream outgrew the kept bytes, its whole text
//! is already in a file of the session's outputs folder
//! ([`super::process_group`]); this puts the result together in one file —
//! the first line, the whole stdout, the whole stderr under `[stderr]`, the
//! sandbox's notes — in the order the model's text has them, so the file
//! the model is pointed to holds the whole output. It never holds a stream
//! in memory: each is copied from its file.

use super::process_group::{Captured, GroupOutput};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use tokio::io::AsyncWriteExt;

/// The whole result's file, when a stream was spilled; `None` otherwise, or
/// when it cannot be written (the model then gets the kept bytes and how
/// many more there were, as without a folder).
pub(super) async fn write_whole(
    output: &GroupOutput,
    head: &str,
    notes: &[String],
) -> Option<PathBuf> {
    let spilled = output
        .stdout
        .whole
        .as_ref()
        .or(output.stderr.whole.as_ref())?;
    let path = whole_path(spilled);
    let written = write(&path, output, head, notes).await;
    for stream in [&output.stdout, &output.stderr] {
        if let Some(file) = &stream.whole {
            let _ = tokio::fs::remove_file(file).await;
        }
    }
    written.ok().map(|()| path)
}

/// `bash-<pid>-<n>-stdout.txt` → `bash-<pid>-<n>-output.txt`.
fn whole_path(spilled: &Path) -> PathBuf {
    let name = spilled
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = name
        .replace("-stdout.txt", "-output.txt")
        .replace("-stderr.txt", "-output.txt");
    spilled.with_file_name(name)
}

async fn write(
    path: &Path,
    output: &GroupOutput,
    head: &str,
    notes: &[String],
) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true).mode(0o600);
    let mut file = tokio::fs::OpenOptions::from(options).open(path).await?;
    file.write_all(head.as_bytes()).await?;
    if !output.stdout.bytes.is_empty() {
        file.write_all(b"\n").await?;
        append(&mut file, &output.stdout).await?;
    }
    if !output.stderr.bytes.is_empty() {
        file.write_all(b"\n[stderr]\n").await?;
        append(&mut file, &output.stderr).await?;
    }
    for note in notes {
        file.write_all(format!("\n[{note}]").as_bytes()).await?;
    }
    file.flush().await
}

/// The whole stream: its file when it was spilled, else the kept bytes.
async fn append(file: &mut tokio::fs::File, stream: &Captured) -> std::io::Result<()> {
    match &stream.whole {
        Some(spilled) => {
            let mut source = tokio::fs::File::open(spilled).await?;
            tokio::io::copy(&mut source, file).await.map(|_| ())
        }
        None => file.write_all(&stream.bytes).await,
    }
}
