//! `Grep {pattern, path?, glob?, type?, output_mode?, -A?, -B?, -C?, -n?, -i?,
//! multiline?, head_limit?, offset?}`: searches file contents with a regular
//! expression, like Claude Code's ripgrep-backed Grep, on ripgrep's own
//! libraries: `grep-regex` and `grep-searcher` over `ignore`'s parallel,
//! gitignore-aware walk (see `walk`), binary files skipped as ripgrep skips
//! them (a NUL byte), files streamed through a bounded buffer.
//!
//! Paths in the output are absolute and sorted, so the output is stable
//! whatever order the threads finish in. It never writes anything, never
//! holds a whole file, and never opens a file except through a descriptor
//! verified from the workspace root.

mod render;
mod search;

use super::walk::{SearchRoot, SearchRootError, WalkFilters};
use crate::{
    PathField, Tool, ToolCapabilities, ToolContext, ToolEffect, ToolError, ToolKind, ToolOutput,
    Workspace,
};
use schemars::JsonSchema;
use search::{FileHits, Search};
use serde::Deserialize;
use thiserror::Error;
use tokio_util::sync::CancellationToken;

/// What Grep prints: `Content`, the matching lines (`path:line:text`);
/// `FilesWithMatches` (the default), the paths of files with a match;
/// `Count`, `path:count` per file with matches.
///
/// No doc comments on the variants (hence the `allow`): they would turn the
/// schema's plain `enum` into a `oneOf`, whose validation error lists no choices.
#[allow(missing_docs)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(inline)]
pub enum GrepOutputMode {
    Content,
    #[default]
    FilesWithMatches,
    Count,
}

/// Grep's input: Claude Code's Grep parameters.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(description = "")]
pub struct GrepInput {
    /// Regex (Rust syntax).
    pub pattern: String,
    /// File or folder; default the workspace.
    pub path: Option<String>,
    /// Only files matching it, e.g. `*.rs`.
    pub glob: Option<String>,
    /// Only files of this ripgrep type, e.g. `py`.
    #[serde(rename = "type")]
    pub file_type: Option<String>,
    /// `files_with_matches` (default): paths; `content`: matching lines; `count`: counts.
    #[serde(default)]
    pub output_mode: GrepOutputMode,
    /// Lines after each match (content).
    #[serde(rename = "-A")]
    #[schemars(extend("x-model-hidden" = true))]
    pub after: Option<usize>,
    /// Lines before each match (content).
    #[serde(rename = "-B")]
    #[schemars(extend("x-model-hidden" = true))]
    pub before: Option<usize>,
    /// Lines around each match (content).
    #[serde(rename = "-C")]
    pub context: Option<usize>,
    /// Case-insensitive.
    #[serde(rename = "-i", default)]
    pub case_insensitive: bool,
    /// Line numbers (content).
    #[serde(rename = "-n", default = "show_line_numbers")]
    #[schemars(extend("x-model-hidden" = true))]
    pub line_numbers: bool,
    /// Matches may span lines.
    #[schemars(extend("x-model-hidden" = true))]
    #[serde(default)]
    pub multiline: bool,
    /// The first N results only.
    #[schemars(range(min = 1))]
    pub head_limit: Option<usize>,
    /// Skip the first N output lines (or files).
    #[schemars(extend("x-model-hidden" = true))]
    pub offset: Option<usize>,
}

fn show_line_numbers() -> bool {
    true
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
enum GrepError {
    #[error(transparent)]
    Root(#[from] SearchRootError),
    #[error("invalid regex {pattern:?}: {message}")]
    Regex { pattern: String, message: String },
    #[error("invalid glob {glob:?}: {message}")]
    Glob { glob: String, message: String },
    #[error("invalid file type {name:?}: {message}")]
    Type { name: String, message: String },
    #[error("cannot search {path}: {message}")]
    File { path: String, message: String },
    #[error("the search stopped unexpectedly: {0}")]
    Interrupted(String),
    #[error("the search was cancelled")]
    Cancelled,
}

impl From<GrepError> for ToolError {
    fn from(error: GrepError) -> Self {
        ToolError::new(error.to_string())
    }
}

/// Searches file contents with a regular expression (declares `path` as a path
/// it reads, default `.`; skips files the read guard refuses).
pub struct Grep;

impl Tool for Grep {
    type Input = GrepInput;

    fn name(&self) -> &str {
        "Grep"
    }

    fn description(&self) -> &str {
        "Searches file contents with a regex (ripgrep), skipping .gitignore'd and binary \
         files."
    }

    fn effect(&self) -> ToolEffect {
        ToolEffect::ReadOnly
    }

    fn capabilities(&self) -> ToolCapabilities {
        ToolCapabilities::none().reading(PathField::with_default("path", "."))
    }

    fn kind(&self) -> ToolKind {
        ToolKind::Search
    }

    async fn call(&self, input: GrepInput, context: ToolContext) -> Result<ToolOutput, ToolError> {
        let workspace = context.workspace;
        let cancel = context.cancel;
        let search = tokio::task::spawn_blocking(move || grep(&workspace, &input, cancel));
        let result = search
            .await
            .map_err(|error| GrepError::Interrupted(error.to_string()))?;
        Ok(result?)
    }
}

fn grep(
    workspace: &Workspace,
    input: &GrepInput,
    cancel: CancellationToken,
) -> Result<ToolOutput, GrepError> {
    let search = Search::new(input)?;
    let root = SearchRoot::check(workspace, input.path.as_deref())?;
    let mut hits = match root.require_directory() {
        Err(SearchRootError::NotADirectory { .. }) => search_named_file(workspace, &root, &search)?,
        Err(error) => return Err(error.into()),
        Ok(()) => {
            let filters = WalkFilters {
                overrides: search::overrides(&root, input.glob.as_deref())?,
                types: search::types(input.file_type.as_deref())?,
                cancel: Some(cancel.clone()),
            };
            root.walk(
                workspace,
                filters,
                || search.searcher(),
                |searcher, mut file| {
                    let opened = file.open().ok()?;
                    search.file(searcher, &opened, file.shown).ok()?
                },
            )?
        }
    };
    if cancel.is_cancelled() {
        return Err(GrepError::Cancelled);
    }
    hits.sort_by(|a, b| a.shown.cmp(&b.shown));
    Ok(render::output(&hits, input, &root.shown))
}

/// The search path is not a folder: it was named to the permission check, so it is
/// opened as named (no read guard), and a failure is the call's error.
fn search_named_file(
    workspace: &Workspace,
    root: &SearchRoot,
    search: &Search,
) -> Result<Vec<FileHits>, GrepError> {
    let failed = |message: String| GrepError::File {
        path: root.shown.display().to_string(),
        message,
    };
    let name = root
        .shown
        .to_str()
        .ok_or_else(|| failed("the path is not UTF-8".into()))?;
    let file = workspace
        .open_named_for_read(name)
        .map_err(|error| failed(error.to_string()))?;
    let hits = search
        .file(&mut search.searcher(), &file, root.shown.clone())
        .map_err(|error| failed(error.to_string()))?;
    Ok(hits.into_iter().collect())
}

#[cfg(test)]
#[path = "grep_tests.rs"]
mod tests;
