//! `Edit {file_path, old_string, new_string, replace_all?}`: an exact string
//! replacement. `old_string` must match exactly once unless `replace_all`, so
//! an edit never lands somewhere the model did not mean. The file is left
//! untouched on every error.

use super::access::blocking;
use super::text_file::{read_text, TextFileError};
use super::write::{write_file, WriteError};
use crate::{
    FileChange, Parents, PathField, Tool, ToolCapabilities, ToolContext, ToolEffect, ToolError,
    ToolOutput, Workspace,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use std::path::PathBuf;
use thiserror::Error;

/// Edit's input: which file, the exact text to replace and its replacement.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(description = "")]
pub struct EditInput {
    /// Absolute or workspace-relative.
    pub file_path: String,
    /// The exact text to replace.
    pub old_string: String,
    /// Must differ from old_string.
    pub new_string: String,
    /// Replace every occurrence.
    #[serde(default)]
    pub replace_all: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
enum EditError {
    #[error(transparent)]
    File(#[from] TextFileError),
    #[error("old_string is empty; use Write to create or overwrite a whole file")]
    EmptyOldString,
    #[error("old_string and new_string are the same; nothing would change")]
    Unchanged,
    #[error("old_string was not found in {}; it must match the file exactly, including whitespace and indentation (use Read to see the current text)", path.display())]
    NotFound { path: PathBuf },
    #[error("old_string matches {count} times in {}; add surrounding lines so it matches exactly once, or pass replace_all: true to replace every occurrence", path.display())]
    Ambiguous { path: PathBuf, count: usize },
    #[error(transparent)]
    Write(#[from] WriteError),
}

impl From<EditError> for ToolError {
    fn from(error: EditError) -> Self {
        ToolError::new(error.to_string())
    }
}

/// Replaces an exact string in a file (declares `file_path` as a path it
/// writes; previews the change with the same logic the handler uses).
pub struct Edit;

impl Tool for Edit {
    type Input = EditInput;

    fn name(&self) -> &str {
        "Edit"
    }

    fn description(&self) -> &str {
        "Replaces old_string with new_string in a file read before. old_string must match \
         exactly (whitespace included) and occur once, unless replace_all."
    }

    fn effect(&self) -> ToolEffect {
        ToolEffect::SideEffects
    }

    fn capabilities(&self) -> ToolCapabilities {
        ToolCapabilities::none().writing(PathField::required("file_path"))
    }

    /// Structured output for hooks, the core of Claude Code's Edit
    /// `tool_response`: `{filePath, oldString, newString, replaceAll}`.
    async fn call(&self, input: EditInput, context: ToolContext) -> Result<ToolOutput, ToolError> {
        let workspace = context.workspace;
        let file_path = workspace.resolve(&input.file_path).display().to_string();
        let (text, input) = blocking(move || {
            let text = edit(&workspace, &input)?;
            Ok((text, input))
        })
        .await?;
        let structured = json!({
            "filePath": file_path,
            "oldString": input.old_string,
            "newString": input.new_string,
            "replaceAll": input.replace_all,
        });
        Ok(ToolOutput::with_structured(text, structured))
    }

    /// The replacement the handler would make, or its refusal.
    fn preview(
        &self,
        input: &EditInput,
        workspace: &Workspace,
    ) -> Option<Result<FileChange, ToolError>> {
        Some(
            replace(workspace, input)
                .map(|replacement| replacement.change)
                .map_err(ToolError::from),
        )
    }
}

/// Reads, replaces, writes back. Blocking: runs in [`blocking`].
fn edit(workspace: &Workspace, input: &EditInput) -> Result<String, EditError> {
    let replacement = replace(workspace, input)?;
    write_file(
        workspace,
        &input.file_path,
        replacement.change.after.as_bytes(),
        Parents::MustExist,
    )?;
    let count = replacement.count;
    let noun = if count == 1 {
        "occurrence"
    } else {
        "occurrences"
    };
    Ok(format!(
        "Replaced {count} {noun} in {}",
        replacement.change.path.display()
    ))
}

/// The edited text and how many occurrences were replaced.
struct Replacement {
    change: FileChange,
    count: usize,
}

/// Reads the file and replaces old_string, refusing what the tool refuses;
/// writes nothing. The handler and the preview both use it, so a preview
/// shows exactly the edit the tool would make, or its refusal. Blocking.
fn replace(workspace: &Workspace, input: &EditInput) -> Result<Replacement, EditError> {
    if input.old_string.is_empty() {
        return Err(EditError::EmptyOldString);
    }
    if input.old_string == input.new_string {
        return Err(EditError::Unchanged);
    }
    let text = read_text(workspace, &input.file_path)?;
    let path = workspace.resolve(&input.file_path);
    let count = text.matches(&input.old_string).count();
    match count {
        0 => return Err(EditError::NotFound { path }),
        1 => {}
        _ if input.replace_all => {}
        _ => return Err(EditError::Ambiguous { path, count }),
    }
    let after = text.replace(&input.old_string, &input.new_string);
    Ok(Replacement {
        change: FileChange {
            path,
            before: Some(text),
            after,
        },
        count,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Workspace;
    use std::path::Path;
    use tokio_util::sync::CancellationToken;

    fn input(old_string: &str, new_string: &str) -> EditInput {
        EditInput {
            file_path: "f.txt".to_owned(),
            old_string: old_string.to_owned(),
            new_string: new_string.to_owned(),
            replace_all: false,
        }
    }

    async fn run_output(root: &Path, input: EditInput) -> Result<ToolOutput, ToolError> {
        let context = ToolContext {
            workspace: Workspace::new(root),
            cancel: CancellationToken::new(),
        };
        Edit.call(input, context).await
    }

    /// The text the model sees.
    async fn run(root: &Path, input: EditInput) -> Result<String, ToolError> {
        Ok(run_output(root, input).await?.text)
    }

    fn workspace_with(content: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.txt");
        std::fs::write(&path, content).unwrap();
        (dir, path)
    }

    #[tokio::test]
    async fn a_single_match_is_replaced() {
        let (dir, path) = workspace_with("let x = 1;\nlet y = 2;\n");
        assert_eq!(
            run(dir.path(), input("x = 1", "x = 10")).await,
            Ok(format!("Replaced 1 occurrence in {}", path.display()))
        );
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "let x = 10;\nlet y = 2;\n"
        );
    }

    #[tokio::test]
    async fn an_edit_is_reported_to_hooks_with_its_absolute_path_and_strings() {
        let (dir, path) = workspace_with("a a");
        let input = EditInput {
            replace_all: true,
            ..input("a", "b")
        };
        assert_eq!(
            run_output(dir.path(), input).await.unwrap().structured,
            Some(json!({
                "filePath": path.display().to_string(),
                "oldString": "a",
                "newString": "b",
                "replaceAll": true,
            }))
        );
    }

    #[tokio::test]
    async fn edit_with_two_matches_is_refused_without_replace_all() {
        let (dir, path) = workspace_with("a a");
        assert_eq!(
            run(dir.path(), input("a", "b")).await,
            Err(ToolError::new(format!(
                "old_string matches 2 times in {}; add surrounding lines so it matches exactly once, or pass replace_all: true to replace every occurrence",
                path.display()
            )))
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a a");
    }

    #[tokio::test]
    async fn replace_all_replaces_every_match() {
        let (dir, path) = workspace_with("a a a");
        assert_eq!(
            run(
                dir.path(),
                EditInput {
                    replace_all: true,
                    ..input("a", "b")
                }
            )
            .await,
            Ok(format!("Replaced 3 occurrences in {}", path.display()))
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "b b b");
    }

    #[tokio::test]
    async fn no_match_is_refused_and_leaves_the_file_alone() {
        let (dir, path) = workspace_with("hello");
        assert_eq!(
            run(dir.path(), input("bye", "ciao")).await,
            Err(ToolError::new(format!(
                "old_string was not found in {}; it must match the file exactly, including whitespace and indentation (use Read to see the current text)",
                path.display()
            )))
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "hello");
    }

    #[tokio::test]
    async fn identical_old_and_new_strings_are_refused() {
        let (dir, _path) = workspace_with("hello");
        assert_eq!(
            run(dir.path(), input("hello", "hello")).await,
            Err(ToolError::new(
                "old_string and new_string are the same; nothing would change"
            ))
        );
    }

    #[tokio::test]
    async fn an_empty_old_string_is_refused() {
        let (dir, _path) = workspace_with("hello");
        assert_eq!(
            run(dir.path(), input("", "x")).await,
            Err(ToolError::new(
                "old_string is empty; use Write to create or overwrite a whole file"
            ))
        );
    }

    #[tokio::test]
    async fn a_missing_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.txt");
        assert_eq!(
            run(dir.path(), input("a", "b")).await,
            Err(ToolError::new(format!(
                "file does not exist: {}",
                path.display()
            )))
        );
        assert!(!path.exists());
    }

    #[test]
    fn a_preview_shows_the_replacement_and_writes_nothing() {
        let (dir, path) = workspace_with("let x = 1;\n");
        let preview = Edit.preview(&input("1", "2"), &Workspace::new(dir.path()));
        assert_eq!(
            (preview, std::fs::read_to_string(&path).unwrap()),
            (
                Some(Ok(FileChange {
                    path,
                    before: Some("let x = 1;\n".to_owned()),
                    after: "let x = 2;\n".to_owned(),
                })),
                "let x = 1;\n".to_owned()
            )
        );
    }

    #[tokio::test]
    async fn a_preview_of_a_missing_old_string_is_the_refusal_the_tool_gives() {
        let (dir, _path) = workspace_with("hello");
        let preview = Edit.preview(&input("bye", "ciao"), &Workspace::new(dir.path()));
        let Err(refusal) = run(dir.path(), input("bye", "ciao")).await else {
            panic!("an edit whose old_string is missing ran");
        };
        assert_eq!(preview, Some(Err(refusal)));
    }

    #[test]
    fn a_preview_of_an_ambiguous_old_string_is_refused_as_the_tool_refuses_it() {
        let (dir, path) = workspace_with("a a");
        assert_eq!(
            Edit.preview(&input("a", "b"), &Workspace::new(dir.path())),
            Some(Err(ToolError::new(format!(
                "old_string matches 2 times in {}; add surrounding lines so it matches exactly once, or pass replace_all: true to replace every occurrence",
                path.display()
            ))))
        );
    }
}
