//! `Glob {pattern, path?}`: finds files by glob pattern, gitignore-aware.
//!
//! Results are absolute paths (so they can be passed to Read or Edit as they
//! are), newest modification time first like Claude Code's Glob, ties broken
//! by path. `*` does not cross `/`; `**` does. The walk is parallel and every
//! name is verified through directory descriptors (see `walk`), so a folder
//! swapped for a symlink mid-walk lists nothing from outside. It never reads
//! file contents.

use super::walk::{SearchRoot, SearchRootError, WalkFilters};
use crate::{
    PathField, Tool, ToolCapabilities, ToolContext, ToolEffect, ToolError, ToolKind, ToolOutput,
    Workspace,
};
use globset::{GlobBuilder, GlobMatcher};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use std::path::Path;
use std::time::{Duration, SystemTime};
use thiserror::Error;
use tokio_util::sync::CancellationToken;

/// At most this many paths are listed; a note says how many more matched.
pub const MAX_GLOB_RESULTS: usize = 100;

/// Glob's input: the pattern, and the folder to search from.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(description = "")]
pub struct GlobInput {
    /// Relative to path.
    pub pattern: String,
    /// Folder to search; default the workspace.
    pub path: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
enum GlobError {
    #[error(transparent)]
    Root(#[from] SearchRootError),
    #[error("invalid glob pattern {pattern:?}: {message}")]
    Pattern { pattern: String, message: String },
    #[error("the search stopped unexpectedly: {0}")]
    Interrupted(String),
    #[error("the search was cancelled")]
    Cancelled,
}

impl From<GlobError> for ToolError {
    fn from(error: GlobError) -> Self {
        ToolError::new(error.to_string())
    }
}

/// Lists files matching a glob pattern, newest first (declares `path` as a path
/// it reads, default `.`; skips files the read guard refuses).
pub struct Glob;

impl Tool for Glob {
    type Input = GlobInput;

    fn name(&self) -> &str {
        "Glob"
    }

    fn description(&self) -> &str {
        "Finds files by glob (e.g. `**/*.rs`), skipping .gitignore'd ones; at most 100 \
         paths, newest first."
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

    async fn call(&self, input: GlobInput, context: ToolContext) -> Result<ToolOutput, ToolError> {
        let workspace = context.workspace;
        let cancel = context.cancel;
        let search = tokio::task::spawn_blocking(move || glob(&workspace, &input, cancel));
        let result = search
            .await
            .map_err(|error| GlobError::Interrupted(error.to_string()))?;
        Ok(result?)
    }
}

fn glob(
    workspace: &Workspace,
    input: &GlobInput,
    cancel: CancellationToken,
) -> Result<ToolOutput, GlobError> {
    let pattern = &input.pattern;
    let root = SearchRoot::check(workspace, input.path.as_deref())?;
    root.require_directory()?;
    let matcher = compile(pattern)?;
    let against_absolute = Path::new(pattern).is_absolute();
    let filters = WalkFilters {
        cancel: Some(cancel.clone()),
        ..WalkFilters::default()
    };
    let mut found = root.walk(
        workspace,
        filters,
        || (),
        |(), mut file| {
            let candidate = if against_absolute {
                file.shown.as_path()
            } else {
                root.relative(&file.shown)
            };
            if !matcher.is_match(candidate) {
                return None;
            }
            let stat = file.stat()?;
            Some((modified(&stat), file.shown))
        },
    )?;
    if cancel.is_cancelled() {
        return Err(GlobError::Cancelled);
    }
    if found.is_empty() {
        return Ok(ToolOutput::with_structured(
            format!(
                "No files matched {pattern:?} under {}",
                root.shown.display()
            ),
            structured(&[], false),
        ));
    }
    found.sort_by(|(a_time, a_path), (b_time, b_path)| {
        b_time.cmp(a_time).then_with(|| a_path.cmp(b_path))
    });
    let total = found.len();
    let filenames: Vec<String> = found
        .into_iter()
        .take(MAX_GLOB_RESULTS)
        .map(|(_, path)| path.display().to_string())
        .collect();
    let truncated = total > MAX_GLOB_RESULTS;
    let mut lines = filenames.clone();
    if truncated {
        lines.push(format!(
            "[showing {MAX_GLOB_RESULTS} of {total} matching files, newest first; narrow the pattern or the path]"
        ));
    }
    Ok(ToolOutput::with_structured(
        lines.join("\n"),
        structured(&filenames, truncated),
    ))
}

/// Claude Code's Glob `tool_response`: `{filenames, numFiles, truncated}`,
/// the paths listed (newest first) and whether more matched than were listed.
fn structured(filenames: &[String], truncated: bool) -> Value {
    json!({
        "filenames": filenames,
        "numFiles": filenames.len(),
        "truncated": truncated,
    })
}

fn compile(pattern: &str) -> Result<GlobMatcher, GlobError> {
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
        .map(|glob| glob.compile_matcher())
        .map_err(|error| GlobError::Pattern {
            pattern: pattern.to_owned(),
            message: error.kind().to_string(),
        })
}

/// The modification time in an `fstatat` result (the epoch if it is before it).
fn modified(stat: &libc::stat) -> SystemTime {
    let (Ok(seconds), Ok(nanos)) = (
        u64::try_from(stat.st_mtime),
        u32::try_from(stat.st_mtime_nsec),
    ) else {
        return SystemTime::UNIX_EPOCH;
    };
    SystemTime::UNIX_EPOCH + Duration::new(seconds, nanos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Workspace;
    use std::path::PathBuf;

    async fn run_output(
        root: &Path,
        pattern: &str,
        path: Option<&str>,
    ) -> Result<ToolOutput, ToolError> {
        let input = GlobInput {
            pattern: pattern.to_owned(),
            path: path.map(str::to_owned),
        };
        let context = ToolContext {
            workspace: Workspace::new(root),
            cancel: CancellationToken::new(),
        };
        Glob.call(input, context).await
    }

    /// The text the model sees.
    async fn run(root: &Path, pattern: &str, path: Option<&str>) -> Result<String, ToolError> {
        Ok(run_output(root, pattern, path).await?.text)
    }

    #[tokio::test]
    async fn hooks_get_the_listed_paths_and_their_count() {
        let dir = tempfile::tempdir().unwrap();
        let old = file_aged(dir.path(), "old.rs", 300);
        let new = file_aged(dir.path(), "new.rs", 10);
        assert_eq!(
            run_output(dir.path(), "*.rs", None)
                .await
                .unwrap()
                .structured,
            Some(json!({
                "filenames": [new.display().to_string(), old.display().to_string()],
                "numFiles": 2,
                "truncated": false,
            }))
        );
    }

    #[tokio::test]
    async fn hooks_are_told_when_more_files_matched_than_were_listed() {
        let dir = tempfile::tempdir().unwrap();
        let mut listed = Vec::new();
        for index in 0..=MAX_GLOB_RESULTS {
            let path = file_aged(dir.path(), &format!("f{index:03}.txt"), index as u64);
            listed.push(path.display().to_string());
        }
        listed.truncate(MAX_GLOB_RESULTS);
        assert_eq!(
            run_output(dir.path(), "*.txt", None)
                .await
                .unwrap()
                .structured,
            Some(json!({"filenames": listed, "numFiles": 100, "truncated": true}))
        );
    }

    /// Creates `name` with a modification time `age_secs` seconds in the past.
    fn file_aged(root: &Path, name: &str, age_secs: u64) -> PathBuf {
        let path = root.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let file = std::fs::File::create(&path).unwrap();
        let time = SystemTime::now() - Duration::from_secs(age_secs);
        file.set_modified(time).unwrap();
        path
    }

    #[tokio::test]
    async fn matches_are_absolute_paths_newest_first() {
        let dir = tempfile::tempdir().unwrap();
        let old = file_aged(dir.path(), "src/old.rs", 300);
        let new = file_aged(dir.path(), "src/deep/new.rs", 10);
        file_aged(dir.path(), "notes.txt", 0);
        assert_eq!(
            run(dir.path(), "**/*.rs", None).await,
            Ok(format!("{}\n{}", new.display(), old.display()))
        );
    }

    #[tokio::test]
    async fn a_single_star_does_not_cross_folders() {
        let dir = tempfile::tempdir().unwrap();
        let top = file_aged(dir.path(), "top.rs", 0);
        file_aged(dir.path(), "src/inner.rs", 0);
        assert_eq!(
            run(dir.path(), "*.rs", None).await,
            Ok(top.display().to_string())
        );
    }

    #[tokio::test]
    async fn the_pattern_is_relative_to_the_given_path() {
        let dir = tempfile::tempdir().unwrap();
        let inner = file_aged(dir.path(), "src/lib.rs", 0);
        file_aged(dir.path(), "lib.rs", 0);
        assert_eq!(
            run(dir.path(), "*.rs", Some("src")).await,
            Ok(inner.display().to_string())
        );
    }

    #[tokio::test]
    async fn gitignored_files_are_not_listed() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(".gitignore"), "target/\n").unwrap();
        file_aged(dir.path(), "target/gen.rs", 0);
        let kept = file_aged(dir.path(), "main.rs", 0);
        assert_eq!(
            run(dir.path(), "**/*.rs", None).await,
            Ok(kept.display().to_string())
        );
    }

    #[tokio::test]
    async fn no_match_is_said_plainly() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            run(dir.path(), "**/*.py", None).await,
            Ok(format!(
                "No files matched \"**/*.py\" under {}",
                dir.path().display()
            ))
        );
    }

    #[tokio::test]
    async fn more_than_the_cap_lists_the_newest_and_counts_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let mut expected = Vec::new();
        for index in 0..=MAX_GLOB_RESULTS {
            let path = file_aged(dir.path(), &format!("f{index:03}.txt"), index as u64);
            expected.push(path.display().to_string());
        }
        expected.truncate(MAX_GLOB_RESULTS);
        expected.push(
            "[showing 100 of 101 matching files, newest first; narrow the pattern or the path]"
                .to_owned(),
        );
        assert_eq!(
            run(dir.path(), "*.txt", None).await,
            Ok(expected.join("\n"))
        );
    }

    #[tokio::test]
    async fn an_invalid_pattern_is_a_tool_error() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            run(dir.path(), "src/[a", None).await,
            Err(ToolError::new(
                "invalid glob pattern \"src/[a\": unclosed character class; missing ']'"
            ))
        );
    }

    #[tokio::test]
    async fn a_missing_search_path_is_a_tool_error() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            run(dir.path(), "*", Some("nope")).await,
            Err(ToolError::new(format!(
                "search path does not exist: {}",
                dir.path().join("nope").display()
            )))
        );
    }
}
