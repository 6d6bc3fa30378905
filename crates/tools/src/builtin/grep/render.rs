//! Grep's output: the text the model sees (ripgrep's line format, Claude
//! Code's `Found N files` header) and the structured `tool_response` hooks
//! see, after `offset` and `head_limit` have picked the lines shown.

use super::search::{FileHits, Line};
use super::{GrepInput, GrepOutputMode};
use crate::ToolOutput;
use serde_json::{json, Value};
use std::path::Path;

/// The whole output for the files that matched, sorted.
pub fn output(hits: &[FileHits], input: &GrepInput, root: &Path) -> ToolOutput {
    if hits.is_empty() {
        let text = format!(
            "No matches for {:?} under {}",
            input.pattern,
            root.display()
        );
        return ToolOutput::with_structured(text, structured(hits, input, &Shown::default()));
    }
    let shown = Shown::page(lines(hits, input), input.offset, input.head_limit);
    let mut text = shown.text();
    if input.output_mode == GrepOutputMode::FilesWithMatches {
        let count = shown.lines.len();
        let noun = if count == 1 { "file" } else { "files" };
        text = format!("Found {count} {noun}\n{text}");
    }
    ToolOutput::with_structured(text, structured(hits, input, &shown))
}

/// Every output line, before paging: ripgrep's `path:line:text` (`path-line-text`
/// for context), `--` between groups and between files when context is shown.
fn lines(hits: &[FileHits], input: &GrepInput) -> Vec<String> {
    match input.output_mode {
        GrepOutputMode::FilesWithMatches => hits.iter().map(shown).collect(),
        GrepOutputMode::Count => hits
            .iter()
            .map(|hit| format!("{}:{}", shown(hit), hit.count))
            .collect(),
        GrepOutputMode::Content => content(hits, input.line_numbers),
    }
}

fn shown(hit: &FileHits) -> String {
    hit.shown.display().to_string()
}

fn content(hits: &[FileHits], line_numbers: bool) -> Vec<String> {
    let has_context = hits.iter().any(|hit| {
        hit.lines
            .iter()
            .any(|line| !matches!(line, Line::Match(..)))
    });
    let mut out = Vec::new();
    for (index, hit) in hits.iter().enumerate() {
        if has_context && index > 0 {
            out.push("--".to_owned());
        }
        let path = shown(hit);
        for line in &hit.lines {
            out.push(match (line, line_numbers) {
                (Line::Match(number, text), true) => format!("{path}:{number}:{text}"),
                (Line::Match(_, text), false) => format!("{path}:{text}"),
                (Line::Context(number, text), true) => format!("{path}-{number}-{text}"),
                (Line::Context(_, text), false) => format!("{path}-{text}"),
                (Line::Break, _) => "--".to_owned(),
            });
        }
    }
    out
}

/// The output lines `offset` and `head_limit` keep, and what they left out.
#[derive(Debug, Default)]
pub struct Shown {
    lines: Vec<String>,
    offset: usize,
    cut: Option<(usize, usize)>,
}

impl Shown {
    fn page(lines: Vec<String>, offset: Option<usize>, head_limit: Option<usize>) -> Shown {
        let offset = offset.unwrap_or(0);
        let mut lines: Vec<String> = lines.into_iter().skip(offset).collect();
        let total = lines.len();
        let cut = head_limit
            .filter(|limit| *limit < total)
            .map(|limit| (limit, total - limit));
        if let Some((limit, _)) = cut {
            lines.truncate(limit);
        }
        Shown { lines, offset, cut }
    }

    /// What the model sees: the kept lines, then a note naming the cut.
    fn text(&self) -> String {
        let mut text = self.lines.join("\n");
        if self.lines.is_empty() && self.offset > 0 {
            text = format!("[offset {}: no output lines left to show]", self.offset);
        }
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
/// `appliedLimit` is added when `head_limit` cut the output, `appliedOffset`
/// when `offset` skipped some.
fn structured(hits: &[FileHits], input: &GrepInput, shown: &Shown) -> Value {
    let every_file: Vec<String> = hits.iter().map(self::shown).collect();
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
            "numMatches": hits.iter().map(|hit| hit.count).sum::<u64>(),
        }),
    };
    if let Value::Object(fields) = &mut value {
        if let Some((limit, _)) = shown.cut {
            fields.insert("appliedLimit".into(), json!(limit));
        }
        if shown.offset > 0 {
            fields.insert("appliedOffset".into(), json!(shown.offset));
        }
    }
    value
}
