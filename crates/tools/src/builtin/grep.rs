//! `Grep {pattern, path?, glob?, output_mode?, -i?, -n?, head_limit?}`: searches
//! file contents with a regular expression, like Claude Code's ripgrep-backed
//! Grep: gitignore-aware walk, `regex` crate syntax, binary files skipped.
//!
//! Paths in the output are absolute; files are visited in path order so the
//! output is stable. It never writes anything.

use super::walk::{SearchRoot, SearchRootError};
use crate::{
    PathField, Tool, ToolCapabilities, ToolContext, ToolEffect, ToolError, ToolOutput, Workspace,
};
use globset::{GlobBuilder, GlobMatcher};
use regex::{Regex, RegexBuilder};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use std::io::Read;
use std::path::{Path, PathBuf};
use thiserror::Error;

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

/// Grep's input: the regular expression, where to search and how to report.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(description = "")]
pub struct GrepInput {
    /// The regular expression to search for (Rust `regex` syntax, like ripgrep).
    pub pattern: String,
    /// The file or folder to search: absolute, or relative to the workspace
    /// root. Default: the workspace root.
    pub path: Option<String>,
    /// Only search files matching this glob, e.g. `*.rs` (matched against the
    /// file name) or `src/**/*.ts` (matched against the path below the search folder).
    pub glob: Option<String>,
    /// `files_with_matches` (default): the paths of files with a match;
    /// `content`: matching lines as `path:line:text` (`path:text` without -n);
    /// `count`: `path:count` per file with matches.
    #[serde(default)]
    pub output_mode: GrepOutputMode,
    /// Case-insensitive search. Default: false.
    #[serde(rename = "-i", default)]
    pub case_insensitive: bool,
    /// Show line numbers in `content` mode. Default: true.
    #[serde(rename = "-n", default = "show_line_numbers")]
    pub line_numbers: bool,
    /// Show only the first N lines of the output.
    #[schemars(range(min = 1))]
    pub head_limit: Option<usize>,
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
    #[error("the search stopped unexpectedly: {0}")]
    Interrupted(String),
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
        "Searches file contents with a regular expression, skipping files ignored by \
         .gitignore and binary files. output_mode: files_with_matches (default), content \
         (matching lines with line numbers) or count. Filter files with glob; -i for \
         case-insensitive; head_limit to keep the first N lines."
    }

    fn effect(&self) -> ToolEffect {
        ToolEffect::ReadOnly
    }

    fn capabilities(&self) -> ToolCapabilities {
        ToolCapabilities::none().reading(PathField::with_default("path", "."))
    }

    async fn call(&self, input: GrepInput, context: ToolContext) -> Result<ToolOutput, ToolError> {
        let workspace = context.workspace;
        let search = tokio::task::spawn_blocking(move || grep(&workspace, &input));
        let result = search
            .await
            .map_err(|error| GrepError::Interrupted(error.to_string()))?;
        Ok(result?)
    }
}

/// The matching lines of one file: (1-based line number, line).
type FileMatches = (PathBuf, Vec<(usize, String)>);

fn grep(workspace: &Workspace, input: &GrepInput) -> Result<ToolOutput, GrepError> {
    let regex = compile_regex(&input.pattern, input.case_insensitive)?;
    let filter = input.glob.as_deref().map(FileFilter::new).transpose()?;
    let root = SearchRoot::check(workspace, input.path.as_deref())?;
    let (files, how) = candidate_files(workspace, &root, filter.as_ref())?;
    let matches: Vec<FileMatches> = files
        .into_iter()
        .filter_map(|path| {
            let lines = matching_lines(workspace, &path, how, &regex);
            (!lines.is_empty()).then_some((path, lines))
        })
        .collect();
    if matches.is_empty() {
        let text = format!(
            "No matches for {:?} under {}",
            input.pattern,
            root.shown.display()
        );
        return Ok(ToolOutput::with_structured(
            text,
            structured(&matches, input, &Shown::default()),
        ));
    }
    let shown = Shown::head(render(&matches, input), input.head_limit);
    Ok(ToolOutput::with_structured(
        shown.text(),
        structured(&matches, input, &shown),
    ))
}

fn compile_regex(pattern: &str, case_insensitive: bool) -> Result<Regex, GrepError> {
    RegexBuilder::new(pattern)
        .case_insensitive(case_insensitive)
        .build()
        .map_err(|error| GrepError::Regex {
            pattern: pattern.to_owned(),
            message: error.to_string(),
        })
}

/// The `glob` filter: a pattern with a `/` matches the path below the search
/// folder, one without matches the file name (as ripgrep's `--glob` does).
struct FileFilter {
    matcher: GlobMatcher,
    whole_path: bool,
}

impl FileFilter {
    fn new(glob: &str) -> Result<Self, GrepError> {
        let matcher = GlobBuilder::new(glob)
            .literal_separator(true)
            .build()
            .map_err(|error| GrepError::Glob {
                glob: glob.to_owned(),
                message: error.kind().to_string(),
            })?
            .compile_matcher();
        Ok(FileFilter {
            matcher,
            whole_path: glob.contains('/'),
        })
    }

    fn accepts(&self, root: &SearchRoot, path: &Path) -> bool {
        if self.whole_path {
            self.matcher.is_match(root.relative(path))
        } else {
            path.file_name()
                .is_some_and(|name| self.matcher.is_match(name))
        }
    }
}

/// How a searched file came to be searched, which decides how it is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Found {
    /// It is the search path itself, which the permission check saw.
    Named,
    /// The walk found it: no permission check saw it, so the read guard applies.
    ByWalk,
}

/// A file path is searched as it is; a folder is walked, in path order.
fn candidate_files(
    workspace: &Workspace,
    root: &SearchRoot,
    filter: Option<&FileFilter>,
) -> Result<(Vec<PathBuf>, Found), GrepError> {
    if root.is_file() {
        return Ok((vec![root.shown.clone()], Found::Named));
    }
    root.require_directory()?;
    let mut files: Vec<PathBuf> = root
        .files(workspace)
        .filter(|path| match filter {
            Some(filter) => filter.accepts(root, path),
            None => true,
        })
        .collect();
    files.sort();
    Ok((files, Found::ByWalk))
}

/// The matching lines of a text file; binary and unreadable files have none,
/// and neither have files the workspace refuses to open (a path that is not
/// UTF-8 cannot be named to it, so it is not searched).
fn matching_lines(
    workspace: &Workspace,
    path: &Path,
    how: Found,
    regex: &Regex,
) -> Vec<(usize, String)> {
    let Some(name) = path.to_str() else {
        return Vec::new();
    };
    let opened = match how {
        Found::Named => workspace.open_named_for_read(name),
        Found::ByWalk => workspace.open_for_read(name),
    };
    let mut bytes = Vec::new();
    if opened
        .and_then(|mut file| file.read_to_end(&mut bytes))
        .is_err()
    {
        return Vec::new();
    }
    if bytes.contains(&0) {
        return Vec::new();
    }
    let Ok(text) = String::from_utf8(bytes) else {
        return Vec::new();
    };
    text.lines()
        .enumerate()
        .filter(|(_, line)| regex.is_match(line))
        .map(|(index, line)| (index + 1, line.to_owned()))
        .collect()
}

fn render(matches: &[FileMatches], input: &GrepInput) -> Vec<String> {
    let line_numbers = input.line_numbers;
    match input.output_mode {
        GrepOutputMode::FilesWithMatches => matches
            .iter()
            .map(|(path, _)| path.display().to_string())
            .collect(),
        GrepOutputMode::Count => matches
            .iter()
            .map(|(path, lines)| format!("{}:{}", path.display(), lines.len()))
            .collect(),
        GrepOutputMode::Content => matches
            .iter()
            .flat_map(|(path, lines)| {
                lines.iter().map(move |(number, line)| {
                    if line_numbers {
                        format!("{}:{number}:{line}", path.display())
                    } else {
                        format!("{}:{line}", path.display())
                    }
                })
            })
            .collect(),
    }
}

/// The output lines `head_limit` keeps, and how many it cut.
#[derive(Debug, Default)]
struct Shown {
    lines: Vec<String>,
    cut: Option<(usize, usize)>,
}

impl Shown {
    fn head(mut lines: Vec<String>, head_limit: Option<usize>) -> Shown {
        let total = lines.len();
        let cut = head_limit
            .filter(|limit| *limit < total)
            .map(|limit| (limit, total - limit));
        if let Some((limit, _)) = cut {
            lines.truncate(limit);
        }
        Shown { lines, cut }
    }

    /// What the model sees: the kept lines, then a note naming the cut.
    fn text(&self) -> String {
        let mut text = self.lines.join("\n");
        if let Some((limit, more)) = self.cut {
            text.push_str(&format!(
                "\n[head_limit {limit}: {more} more lines not shown]"
            ));
        }
        text
    }
}

/// Claude Code's Grep `tool_response`, per `output_mode`:
/// - `files_with_matches`: `{mode, filenames, numFiles}`, the paths listed;
/// - `content`: `{mode, filenames, numFiles, content, numLines}`, `content`
///   the output lines shown and `filenames` every file with a match;
/// - `count`: `{mode, filenames, numFiles, content, numMatches}`, `content`
///   the `path:count` lines shown, `numMatches` the matching lines in all files.
///
/// `appliedLimit` is added when `head_limit` cut the output.
fn structured(matches: &[FileMatches], input: &GrepInput, shown: &Shown) -> Value {
    let every_file: Vec<String> = matches
        .iter()
        .map(|(path, _)| path.display().to_string())
        .collect();
    let content = shown.lines.join("\n");
    let mut value = match input.output_mode {
        GrepOutputMode::FilesWithMatches => json!({
            "mode": "files_with_matches",
            "filenames": shown.lines,
            "numFiles": shown.lines.len(),
        }),
        GrepOutputMode::Content => json!({
            "mode": "content",
            "filenames": every_file,
            "numFiles": every_file.len(),
            "content": content,
            "numLines": shown.lines.len(),
        }),
        GrepOutputMode::Count => json!({
            "mode": "count",
            "filenames": every_file,
            "numFiles": every_file.len(),
            "content": content,
            "numMatches": matches.iter().map(|(_, lines)| lines.len()).sum::<usize>(),
        }),
    };
    if let (Some((limit, _)), Value::Object(fields)) = (shown.cut, &mut value) {
        fields.insert("appliedLimit".into(), json!(limit));
    }
    value
}

#[cfg(test)]
#[path = "grep_tests.rs"]
mod tests;
