//! `Read {file_path, offset?, limit?}`: a text file with numbered lines, the way
//! `cat -n` prints them (right-aligned number, a tab, the line), like Claude
//! Code's Read. It never changes the file, never reads binary files, and
//! never holds more of a file than the lines it shows: it streams to the
//! window and counts the rest.

use super::access::blocking;
use super::lines::{
    count_rest, looks_binary, next_line, LinesError, MAX_COUNT_BYTES, MAX_LINE_SCAN_BYTES,
};
use super::text_file::{open_text, unreadable, TextFileError};
use crate::{
    PathField, Tool, ToolCapabilities, ToolContext, ToolEffect, ToolError, ToolOutput, Workspace,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use std::io::BufReader;
use std::path::{Path, PathBuf};
use tokio_util::sync::CancellationToken;

/// How many lines are shown when `limit` is not given.
pub const DEFAULT_READ_LIMIT: usize = 2000;

/// Read's input: which file, and which window of its lines.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(description = "")]
pub struct ReadInput {
    /// Absolute or workspace-relative.
    pub file_path: String,
    /// First line (1-based).
    #[schemars(range(min = 1))]
    pub offset: Option<usize>,
    /// Lines to read; default 2000.
    #[schemars(range(min = 1))]
    pub limit: Option<usize>,
}

/// Shows a text file's lines numbered like `cat -n` (declares `file_path` as a
/// path it reads).
pub struct Read;

impl Tool for Read {
    type Input = ReadInput;

    fn name(&self) -> &str {
        "Read"
    }

    fn description(&self) -> &str {
        "Reads a text file as `cat -n` numbered lines; offset and limit page long files."
    }

    fn effect(&self) -> ToolEffect {
        ToolEffect::ReadOnly
    }

    fn capabilities(&self) -> ToolCapabilities {
        ToolCapabilities::none()
            .reading(PathField::required("file_path"))
            .from_line("offset")
    }

    async fn call(&self, input: ReadInput, context: ToolContext) -> Result<ToolOutput, ToolError> {
        let workspace = context.workspace;
        let window = Window {
            offset: input.offset.unwrap_or(1).max(1),
            limit: input.limit.unwrap_or(DEFAULT_READ_LIMIT).max(1),
        };
        let file_path = input.file_path.clone();
        let cancel = context.cancel.clone();
        let (path, slice) =
            blocking(move || Ok(read_slice(&workspace, &file_path, window, &cancel)?)).await?;
        render(&path, &slice, window)
    }
}

/// Which lines to show: `limit` lines from the 1-based line `offset`.
#[derive(Debug, Clone, Copy)]
struct Window {
    offset: usize,
    limit: usize,
}

/// The lines of the window (each as shown, cut when very long, and as kept
/// for hooks), and how many lines the file has (`None`: not counted, the
/// file is too large or a line too long to scan past).
struct Slice {
    lines: Vec<(String, String)>,
    total: Option<usize>,
}

/// Streams the file to the window and keeps only its lines, then counts the
/// rest without keeping it: memory stays a buffer and the window, whatever
/// the file's size. Binary is decided from the first 8 KiB; a line without
/// end within 1 MiB ends the reading; `cancel` stops it between buffers.
fn read_slice(
    workspace: &Workspace,
    file_path: &str,
    window: Window,
    cancel: &CancellationToken,
) -> Result<(PathBuf, Slice), TextFileError> {
    let (path, file) = open_text(workspace, file_path)?;
    let failed = |error: LinesError| match error {
        LinesError::Binary => TextFileError::Binary { path: path.clone() },
        LinesError::Io(error) => unreadable(&path, &error),
        LinesError::Stopped => TextFileError::Cancelled { path: path.clone() },
    };
    let mut reader = BufReader::with_capacity(64 * 1024, file);
    if looks_binary(&mut reader).map_err(|error| failed(error.into()))? {
        return Err(failed(LinesError::Binary));
    }
    let mut lines = Vec::new();
    let mut total = 0;
    let last = window.offset.saturating_add(window.limit);
    while total + 1 < last {
        if cancel.is_cancelled() {
            return Err(failed(LinesError::Stopped));
        }
        let Some(line) = next_line(&mut reader).map_err(|error| failed(error.into()))? else {
            break;
        };
        total += 1;
        if total >= window.offset {
            let shown = line.text().map_err(failed)?;
            let kept = line.kept_text().map_err(failed)?.to_owned();
            lines.push((shown, kept));
        }
        if line.unfinished() {
            return Ok((path, Slice { lines, total: None }));
        }
    }
    let rest = count_rest(&mut reader, &|| cancel.is_cancelled()).map_err(failed)?;
    let total = rest.map(|rest| total + rest);
    Ok((path, Slice { lines, total }))
}

fn render(path: &Path, slice: &Slice, window: Window) -> Result<ToolOutput, ToolError> {
    let Some(total) = slice.total else {
        return Ok(render_uncounted(path, slice, window));
    };
    if total == 0 {
        return Ok(ToolOutput::with_structured(
            format!("(empty file: {})", path.display()),
            structured(path, &[], window.offset, total),
        ));
    }
    if window.offset > total {
        return Err(ToolError::new(format!(
            "offset {} is past the end of {} ({total} lines)",
            window.offset,
            path.display()
        )));
    }
    let last = window.offset + slice.lines.len() - 1;
    let mut out = String::new();
    for (index, (line, _)) in slice.lines.iter().enumerate() {
        let number = window.offset + index;
        out.push_str(&format!("{number:>6}\t{line}\n"));
    }
    if last < total {
        out.push_str(&format!(
            "[lines {}-{last} of {total}; pass offset {} to read on]\n",
            window.offset,
            last + 1
        ));
    }
    let kept: Vec<&str> = slice.lines.iter().map(|(_, kept)| kept.as_str()).collect();
    Ok(ToolOutput::with_structured(
        out,
        structured(path, &kept, window.offset, total),
    ))
}

/// The window of a file whose lines were not all counted (over
/// [`MAX_COUNT_BYTES`] left, or a line longer than the scan reaches).
fn render_uncounted(path: &Path, slice: &Slice, window: Window) -> ToolOutput {
    let mut out = String::new();
    for (index, (line, _)) in slice.lines.iter().enumerate() {
        out.push_str(&format!("{:>6}\t{line}\n", window.offset + index));
    }
    let shown_to = window.offset + slice.lines.len();
    out.push_str(&format!(
        "[lines {}-{} shown; the file is too large to count its lines (more than {} MiB left, or a line over {} KiB); pass offset {shown_to} to read on]\n",
        window.offset,
        shown_to.saturating_sub(1),
        MAX_COUNT_BYTES / (1024 * 1024),
        MAX_LINE_SCAN_BYTES / 1024
    ));
    let kept: Vec<&str> = slice.lines.iter().map(|(_, kept)| kept.as_str()).collect();
    let mut value = structured(path, &kept, window.offset, 0);
    value["file"]["totalLines"] = Value::Null;
    ToolOutput::with_structured(out, value)
}

/// Claude Code's Read `tool_response`: `{type: "text", file: {filePath,
/// content, numLines, startLine, totalLines}}`; `content` is the lines shown,
/// as they are in the file (no numbers; a very long line's start only),
/// joined by newlines.
fn structured(path: &Path, shown: &[&str], start_line: usize, total: usize) -> Value {
    json!({
        "type": "text",
        "file": {
            "filePath": path.display().to_string(),
            "content": shown.join("\n"),
            "numLines": shown.len(),
            "startLine": start_line,
            "totalLines": total,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::lines::MAX_LINE_CHARS;
    use tokio_util::sync::CancellationToken;

    fn context(root: &Path) -> ToolContext {
        ToolContext {
            workspace: Workspace::new(root),
            cancel: CancellationToken::new(),
        }
    }

    async fn read_output(
        root: &Path,
        file_path: &str,
        offset: Option<usize>,
        limit: Option<usize>,
    ) -> Result<ToolOutput, ToolError> {
        let input = ReadInput {
            file_path: file_path.to_owned(),
            offset,
            limit,
        };
        Read.call(input, context(root)).await
    }

    /// The text the model sees.
    async fn read(
        root: &Path,
        file_path: &str,
        offset: Option<usize>,
        limit: Option<usize>,
    ) -> Result<String, ToolError> {
        Ok(read_output(root, file_path, offset, limit).await?.text)
    }

    #[tokio::test]
    async fn hooks_get_the_shown_lines_unnumbered_with_their_position() {
        let dir = workspace_with("a.txt", "1\n2\n3\n4\n5\n");
        let path = dir.path().join("a.txt");
        assert_eq!(
            read_output(dir.path(), "a.txt", Some(2), Some(2))
                .await
                .unwrap()
                .structured,
            Some(json!({
                "type": "text",
                "file": {
                    "filePath": path.display().to_string(),
                    "content": "2\n3",
                    "numLines": 2,
                    "startLine": 2,
                    "totalLines": 5,
                },
            }))
        );
    }

    #[tokio::test]
    async fn hooks_get_an_empty_file_as_no_lines() {
        let dir = workspace_with("e.txt", "");
        let path = dir.path().join("e.txt");
        assert_eq!(
            read_output(dir.path(), "e.txt", None, None)
                .await
                .unwrap()
                .structured,
            Some(json!({
                "type": "text",
                "file": {
                    "filePath": path.display().to_string(),
                    "content": "",
                    "numLines": 0,
                    "startLine": 1,
                    "totalLines": 0,
                },
            }))
        );
    }

    fn workspace_with(name: &str, content: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(name), content).unwrap();
        dir
    }

    #[tokio::test]
    async fn lines_are_numbered_like_cat_n() {
        let dir = workspace_with("a.txt", "alpha\nbeta\n");
        assert_eq!(
            read(dir.path(), "a.txt", None, None).await,
            Ok("     1\talpha\n     2\tbeta\n".to_owned())
        );
    }

    #[tokio::test]
    async fn offset_and_limit_select_lines_and_say_where_to_read_on() {
        let dir = workspace_with("a.txt", "1\n2\n3\n4\n5\n");
        assert_eq!(
            read(dir.path(), "a.txt", Some(2), Some(2)).await,
            Ok("     2\t2\n     3\t3\n[lines 2-3 of 5; pass offset 4 to read on]\n".to_owned())
        );
    }

    #[tokio::test]
    async fn a_limit_past_the_end_shows_the_rest_without_a_note() {
        let dir = workspace_with("a.txt", "1\n2\n3");
        assert_eq!(
            read(dir.path(), "a.txt", Some(3), Some(10)).await,
            Ok("     3\t3\n".to_owned())
        );
    }

    #[tokio::test]
    async fn an_offset_past_the_end_is_an_error_naming_the_length() {
        let dir = workspace_with("a.txt", "1\n2\n");
        let path = dir.path().join("a.txt");
        assert_eq!(
            read(dir.path(), "a.txt", Some(3), None).await,
            Err(ToolError::new(format!(
                "offset 3 is past the end of {} (2 lines)",
                path.display()
            )))
        );
    }

    #[tokio::test]
    async fn an_empty_file_says_it_is_empty() {
        let dir = workspace_with("e.txt", "");
        let path = dir.path().join("e.txt");
        assert_eq!(
            read(dir.path(), "e.txt", None, None).await,
            Ok(format!("(empty file: {})", path.display()))
        );
    }

    #[tokio::test]
    async fn an_absolute_path_inside_the_workspace_is_read_as_given() {
        let dir = workspace_with("a.txt", "x\n");
        let absolute = dir.path().join("a.txt");
        assert_eq!(
            read(dir.path(), absolute.to_str().unwrap(), None, None).await,
            Ok("     1\tx\n".to_owned())
        );
    }

    #[tokio::test]
    async fn an_absolute_path_outside_the_workspace_is_refused() {
        let dir = workspace_with("a.txt", "x\n");
        let other = tempfile::tempdir().unwrap();
        let absolute = dir.path().join("a.txt");
        assert_eq!(
            read(other.path(), absolute.to_str().unwrap(), None, None).await,
            Err(ToolError::new(format!(
                "{} is outside the workspace ({})",
                absolute.display(),
                other.path().display()
            )))
        );
    }

    #[tokio::test]
    async fn a_missing_file_is_a_tool_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing.txt");
        assert_eq!(
            read(dir.path(), "missing.txt", None, None).await,
            Err(ToolError::new(format!(
                "file does not exist: {}",
                path.display()
            )))
        );
    }

    #[tokio::test]
    async fn a_directory_is_a_tool_error() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        let path = dir.path().join("src");
        assert_eq!(
            read(dir.path(), "src", None, None).await,
            Err(ToolError::new(format!(
                "{} is a directory, not a file (use Glob to list its files)",
                path.display()
            )))
        );
    }

    #[tokio::test]
    async fn a_binary_file_is_a_tool_error() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("b.bin"), [0xc3, 0x28]).unwrap();
        let path = dir.path().join("b.bin");
        assert_eq!(
            read(dir.path(), "b.bin", None, None).await,
            Err(ToolError::new(format!(
                "{} is not a UTF-8 text file (it looks binary); only text files can be read or edited",
                path.display()
            )))
        );
    }

    #[tokio::test]
    async fn a_very_long_line_is_cut_with_a_count() {
        let long = "x".repeat(MAX_LINE_CHARS + 5);
        let dir = workspace_with("l.txt", &long);
        let expected = format!(
            "     1\t{} [line cut: 5 of 2005 characters not shown]\n",
            "x".repeat(MAX_LINE_CHARS)
        );
        assert_eq!(read(dir.path(), "l.txt", None, None).await, Ok(expected));
    }
}
