//! `Write {file_path, content}`: creates or overwrites a file, creating missing
//! parent folders. It never appends and never writes anywhere but the one path.

use super::access::{self, blocking, AccessError, OpenFailure};
use crate::{
    FileChange, Parents, PathField, Tool, ToolCapabilities, ToolContext, ToolEffect, ToolError,
    ToolOutput, Workspace,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Write's input: which file, and its whole new content.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(description = "")]
pub struct WriteInput {
    /// Absolute or workspace-relative.
    pub file_path: String,
    /// The whole new content.
    pub content: String,
}

/// Why a file could not be written (by Write, or by Edit once it has the new text).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum WriteError {
    #[error(transparent)]
    Access(#[from] AccessError),
    #[error("{} is a directory; give the path of a file", path.display())]
    Directory { path: PathBuf },
    #[error("cannot create the folder {}: a file with that name already exists", path.display())]
    FileInTheWay { path: PathBuf },
    #[error("cannot write {}: {message}", path.display())]
    Write { path: PathBuf, message: String },
}

impl From<WriteError> for ToolError {
    fn from(error: WriteError) -> Self {
        ToolError::new(error.to_string())
    }
}

/// Creates or overwrites a file with the given content (declares `file_path` as
/// a path it writes; previews the change for the approval prompt).
pub struct Write;

impl Tool for Write {
    type Input = WriteInput;

    fn name(&self) -> &str {
        "Write"
    }

    fn description(&self) -> &str {
        "Writes a file, replacing it if it exists (parent folders are created). Use Edit \
         to change part of a file."
    }

    fn effect(&self) -> ToolEffect {
        ToolEffect::SideEffects
    }

    fn capabilities(&self) -> ToolCapabilities {
        ToolCapabilities::none().writing(PathField::required("file_path"))
    }

    /// Structured output for hooks, Claude Code's Write `tool_response`:
    /// `{type: "create"|"update", filePath, content}`, `filePath` absolute.
    async fn call(&self, input: WriteInput, context: ToolContext) -> Result<ToolOutput, ToolError> {
        let workspace = context.workspace;
        let path = workspace.resolve(&input.file_path);
        let length = input.content.len();
        let (kind, content) = blocking({
            let path = path.clone();
            move || {
                // Only reported to hooks; the write itself is checked below.
                let kind = match std::fs::symlink_metadata(&path) {
                    Ok(_) => "update",
                    Err(_) => "create",
                };
                let content = input.content.as_bytes();
                write_file(&workspace, &input.file_path, content, Parents::Create)?;
                Ok((kind, input.content))
            }
        })
        .await?;
        let file_path = path.display().to_string();
        Ok(ToolOutput::with_structured(
            format!("Wrote {length} bytes to {file_path}"),
            json!({"type": kind, "filePath": file_path, "content": content}),
        ))
    }

    /// The file's text now (`None` if it cannot be read) and the content, or
    /// the refusal the write would get before touching the file.
    fn preview(
        &self,
        input: &WriteInput,
        workspace: &Workspace,
    ) -> Option<Result<FileChange, ToolError>> {
        let change = target(workspace, &input.file_path).map(|path| FileChange {
            path,
            before: workspace
                .read_bytes(&input.file_path)
                .ok()
                .map(|bytes| String::from_utf8_lossy(&bytes).into_owned()),
            after: input.content.clone(),
        });
        Some(change.map_err(ToolError::from))
    }
}

/// Replaces the content of the file `file_path` names, through the
/// workspace's checked, no-follow open (a file with other hard links is
/// refused). Blocking: call it from [`blocking`].
pub fn write_file(
    workspace: &Workspace,
    file_path: &str,
    content: &[u8],
    parents: Parents,
) -> Result<(), WriteError> {
    let path = target(workspace, file_path)?;
    workspace
        .write_bytes(file_path, content, parents)
        .map_err(|error| write_error(&path, &error))
}

/// The file `file_path` names, after the checks made before any write: inside
/// the workspace, and not a folder (`notes/`).
fn target(workspace: &Workspace, file_path: &str) -> Result<PathBuf, WriteError> {
    let path = access::check(workspace, file_path)?.lexical;
    if file_path.ends_with('/') {
        return Err(WriteError::Directory { path });
    }
    Ok(path)
}

fn write_error(path: &Path, error: &std::io::Error) -> WriteError {
    let failed = || WriteError::Write {
        path: path.to_path_buf(),
        message: error.to_string(),
    };
    match access::classify(error, path) {
        OpenFailure::Access(refusal) => WriteError::Access(refusal),
        OpenFailure::IsDirectory => WriteError::Directory {
            path: path.to_path_buf(),
        },
        OpenFailure::ParentNotDirectory => file_in_the_way(path)
            .map(|path| WriteError::FileInTheWay { path })
            .unwrap_or_else(failed),
        OpenFailure::Missing | OpenFailure::Other(_) => failed(),
    }
}

/// The nearest existing ancestor of `path` when it is not a folder. Only
/// looked up to name it in the error, after the safe open already failed.
fn file_in_the_way(path: &Path) -> Option<PathBuf> {
    path.ancestors()
        .skip(1)
        .find_map(|ancestor| {
            let metadata = std::fs::metadata(ancestor).ok()?;
            Some((!metadata.is_dir()).then(|| ancestor.to_path_buf()))
        })
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Workspace;
    use tokio_util::sync::CancellationToken;

    async fn write_output(
        root: &Path,
        file_path: &str,
        content: &str,
    ) -> Result<ToolOutput, ToolError> {
        let input = WriteInput {
            file_path: file_path.to_owned(),
            content: content.to_owned(),
        };
        let context = ToolContext {
            workspace: Workspace::new(root),
            cancel: CancellationToken::new(),
        };
        Write.call(input, context).await
    }

    /// The text the model sees.
    async fn write(root: &Path, file_path: &str, content: &str) -> Result<String, ToolError> {
        Ok(write_output(root, file_path, content).await?.text)
    }

    #[tokio::test]
    async fn a_new_file_is_reported_to_hooks_as_a_create_with_its_content() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        assert_eq!(
            write_output(dir.path(), "a.txt", "hi")
                .await
                .unwrap()
                .structured,
            Some(json!({
                "type": "create",
                "filePath": path.display().to_string(),
                "content": "hi",
            }))
        );
    }

    #[tokio::test]
    async fn an_overwritten_file_is_reported_to_hooks_as_an_update() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        std::fs::write(&path, "old").unwrap();
        assert_eq!(
            write_output(dir.path(), "a.txt", "new")
                .await
                .unwrap()
                .structured,
            Some(json!({
                "type": "update",
                "filePath": path.display().to_string(),
                "content": "new",
            }))
        );
    }

    #[tokio::test]
    async fn a_new_file_is_created_with_its_parent_folders() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a/b/c.txt");
        assert_eq!(
            write(dir.path(), "a/b/c.txt", "héllo").await,
            Ok(format!("Wrote 6 bytes to {}", path.display()))
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "héllo");
    }

    #[tokio::test]
    async fn an_existing_file_is_overwritten_not_appended() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        std::fs::write(&path, "old content").unwrap();
        assert_eq!(
            write(dir.path(), "a.txt", "new").await,
            Ok(format!("Wrote 3 bytes to {}", path.display()))
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
    }

    #[tokio::test]
    async fn a_directory_path_is_a_tool_error() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        let path = dir.path().join("src");
        assert_eq!(
            write(dir.path(), "src", "x").await,
            Err(ToolError::new(format!(
                "{} is a directory; give the path of a file",
                path.display()
            )))
        );
    }

    #[tokio::test]
    async fn a_path_ending_in_a_slash_names_a_folder_and_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let result = write(dir.path(), "notes/", "x").await;
        assert_eq!(
            (result, dir.path().join("notes").exists()),
            (
                Err(ToolError::new(format!(
                    "{} is a directory; give the path of a file",
                    dir.path().join("notes").display()
                ))),
                false
            )
        );
    }

    #[tokio::test]
    async fn a_parent_that_is_a_file_is_a_tool_error() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("f"), "").unwrap();
        let result = write(dir.path(), "f/x.txt", "x").await;
        let parent = dir.path().join("f");
        assert_eq!(
            result,
            Err(ToolError::new(format!(
                "cannot create the folder {}: a file with that name already exists",
                parent.display()
            )))
        );
    }

    #[test]
    fn a_preview_shows_the_old_and_new_content() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        std::fs::write(&path, "old").unwrap();
        let input = WriteInput {
            file_path: "a.txt".to_owned(),
            content: "new".to_owned(),
        };
        assert_eq!(
            Write.preview(&input, &Workspace::new(dir.path())),
            Some(Ok(FileChange {
                path,
                before: Some("old".to_owned()),
                after: "new".to_owned(),
            }))
        );
    }

    #[test]
    fn a_preview_of_a_new_file_has_nothing_before() {
        let dir = tempfile::tempdir().unwrap();
        let input = WriteInput {
            file_path: "new.txt".to_owned(),
            content: "hi".to_owned(),
        };
        assert_eq!(
            Write.preview(&input, &Workspace::new(dir.path())),
            Some(Ok(FileChange {
                path: dir.path().join("new.txt"),
                before: None,
                after: "hi".to_owned(),
            }))
        );
    }

    #[test]
    fn a_preview_of_a_folder_path_is_the_refusal_the_tool_gives() {
        let dir = tempfile::tempdir().unwrap();
        let input = WriteInput {
            file_path: "notes/".to_owned(),
            content: "x".to_owned(),
        };
        assert_eq!(
            Write.preview(&input, &Workspace::new(dir.path())),
            Some(Err(ToolError::new(format!(
                "{} is a directory; give the path of a file",
                dir.path().join("notes").display()
            ))))
        );
    }
}
