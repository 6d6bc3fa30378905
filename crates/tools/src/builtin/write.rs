//! `Write {file_path, content}`: creates or overwrites a file, creating missing
//! parent folders. It never appends and never writes anywhere but the one path.

use crate::{Tool, ToolContext, ToolEffect, ToolError};
use schemars::JsonSchema;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use thiserror::Error;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WriteInput {
    /// The file to write: absolute, or relative to the workspace root. Missing
    /// parent folders are created; an existing file is overwritten.
    pub file_path: String,
    /// The complete new content of the file.
    pub content: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
enum WriteError {
    #[error("{} is a directory; give the path of a file", path.display())]
    Directory { path: PathBuf },
    #[error("cannot create the folder {}: {message}", path.display())]
    CreateParent { path: PathBuf, message: String },
    #[error("cannot write {}: {message}", path.display())]
    Write { path: PathBuf, message: String },
}

impl From<WriteError> for ToolError {
    fn from(error: WriteError) -> Self {
        ToolError::new(error.to_string())
    }
}

pub struct Write;

impl Tool for Write {
    type Input = WriteInput;

    fn name(&self) -> &str {
        "Write"
    }

    fn description(&self) -> &str {
        "Writes content to a file, replacing it if it exists and creating missing \
         parent folders. Prefer Edit to change part of an existing file."
    }

    fn effect(&self) -> ToolEffect {
        ToolEffect::SideEffects
    }

    async fn call(&self, input: WriteInput, context: ToolContext) -> Result<String, ToolError> {
        let path = context.workspace.resolve(&input.file_path);
        write_file(&path, &input.content).await?;
        Ok(format!(
            "Wrote {} bytes to {}",
            input.content.len(),
            path.display()
        ))
    }
}

async fn write_file(path: &Path, content: &str) -> Result<(), WriteError> {
    if tokio::fs::metadata(path)
        .await
        .is_ok_and(|metadata| metadata.is_dir())
    {
        return Err(WriteError::Directory {
            path: path.to_path_buf(),
        });
    }
    if let Some(parent) = path.parent() {
        tokio::fs::create_dir_all(parent)
            .await
            .map_err(|error| WriteError::CreateParent {
                path: parent.to_path_buf(),
                message: error.to_string(),
            })?;
    }
    tokio::fs::write(path, content)
        .await
        .map_err(|error| WriteError::Write {
            path: path.to_path_buf(),
            message: error.to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Workspace;
    use tokio_util::sync::CancellationToken;

    async fn write(root: &Path, file_path: &str, content: &str) -> Result<String, ToolError> {
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
    async fn a_parent_that_is_a_file_is_a_tool_error() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("f"), "").unwrap();
        let result = write(dir.path(), "f/x.txt", "x").await;
        let parent = dir.path().join("f");
        assert_eq!(
            result,
            Err(ToolError::new(format!(
                "cannot create the folder {}: File exists (os error 17)",
                parent.display()
            )))
        );
    }
}
