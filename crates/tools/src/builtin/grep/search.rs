//! One Grep search on ripgrep's libraries: the matcher (`grep-regex`, set up
//! as ripgrep sets it up), the searcher (`grep-searcher`, binary detection as
//! ripgrep's for walked files, a heap limit so no line can take unbounded
//! memory), and the sink that keeps what the output mode needs: nothing past
//! the first match for `files_with_matches`, a count for `count`, the lines
//! (each cut at [`MAX_LINE_CHARS`](super::super::lines::MAX_LINE_CHARS)) for `content`.
//!
//! It never reads a file by path: it searches descriptors it is given.

use super::{GrepError, GrepInput, GrepOutputMode};
use crate::builtin::lines::cut_line;
use crate::builtin::walk::SearchRoot;
use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use grep_searcher::{
    BinaryDetection, MmapChoice, Searcher, SearcherBuilder, Sink, SinkContext, SinkContextKind,
    SinkMatch,
};
use ignore::overrides::{Override, OverrideBuilder};
use ignore::types::{Types, TypesBuilder};
use std::fs::File;
use std::io;
use std::path::PathBuf;

/// The most one line may make the searcher buffer: a longer line stops the
/// search of that file (ripgrep itself sets no limit).
pub const HEAP_LIMIT_BYTES: usize = 32 * 1024 * 1024;

/// One line of `content` output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// A matching line: its number and text.
    Match(u64, String),
    /// A context line around a match.
    Context(u64, String),
    /// A gap between two groups of lines (ripgrep's `--`).
    Break,
}

/// What one file with a match gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileHits {
    /// The file as results show it.
    pub shown: PathBuf,
    /// Matching lines (`count` and `content`; 1 for `files_with_matches`).
    pub count: u64,
    /// The lines to print (`content` only).
    pub lines: Vec<Line>,
}

/// The compiled matcher and the searcher's settings for one call.
pub struct Search {
    matcher: RegexMatcher,
    mode: GrepOutputMode,
    multiline: bool,
    before: usize,
    after: usize,
}

impl Search {
    /// Compiles the pattern as ripgrep does (`-i`, `-U --multiline-dotall`).
    pub fn new(input: &GrepInput) -> Result<Search, GrepError> {
        let mut builder = RegexMatcherBuilder::new();
        builder
            .case_insensitive(input.case_insensitive)
            .multi_line(true)
            .dot_matches_new_line(input.multiline);
        if !input.multiline {
            builder.line_terminator(Some(b'\n'));
        }
        let matcher = builder
            .build(&input.pattern)
            .map_err(|error| GrepError::Regex {
                pattern: input.pattern.clone(),
                message: syntax_error(&input.pattern).unwrap_or_else(|| error.to_string()),
            })?;
        let content = input.output_mode == GrepOutputMode::Content;
        let around = |one: Option<usize>| match content {
            true => one.or(input.context).unwrap_or(0),
            false => 0,
        };
        Ok(Search {
            matcher,
            mode: input.output_mode,
            multiline: input.multiline,
            before: around(input.before),
            after: around(input.after),
        })
    }

    /// A searcher for one thread.
    pub fn searcher(&self) -> Searcher {
        SearcherBuilder::new()
            .line_number(self.mode == GrepOutputMode::Content)
            .multi_line(self.multiline)
            .before_context(self.before)
            .after_context(self.after)
            .binary_detection(BinaryDetection::quit(b'\x00'))
            .heap_limit(Some(HEAP_LIMIT_BYTES))
            .memory_map(MmapChoice::never())
            .build()
    }

    /// Searches an opened file; `None` when nothing matched.
    pub fn file(
        &self,
        searcher: &mut Searcher,
        file: &File,
        shown: PathBuf,
    ) -> io::Result<Option<FileHits>> {
        let mut sink = Collect {
            mode: self.mode,
            count: 0,
            lines: Vec::new(),
        };
        searcher.search_file(&self.matcher, file, &mut sink)?;
        Ok((sink.count > 0).then_some(FileHits {
            shown,
            count: sink.count,
            lines: sink.lines,
        }))
    }
}

/// The `regex` crate's own error for `pattern`, which quotes the pattern as
/// written (`grep-regex` quotes the pattern it wrapped).
fn syntax_error(pattern: &str) -> Option<String> {
    regex::Regex::new(pattern)
        .err()
        .map(|error| error.to_string())
}

/// The `glob` argument as ripgrep's `--glob`, relative to the search root.
pub fn overrides(root: &SearchRoot, glob: Option<&str>) -> Result<Option<Override>, GrepError> {
    let Some(glob) = glob else {
        return Ok(None);
    };
    let invalid = |error: ignore::Error| GrepError::Glob {
        glob: glob.to_owned(),
        message: error.to_string(),
    };
    let mut builder = OverrideBuilder::new(root.real());
    builder.add(glob).map_err(invalid)?;
    builder.build().map(Some).map_err(invalid)
}

/// The `type` argument as ripgrep's `--type`, from ripgrep's default types.
pub fn types(name: Option<&str>) -> Result<Option<Types>, GrepError> {
    let Some(name) = name else {
        return Ok(None);
    };
    let mut builder = TypesBuilder::new();
    builder.add_defaults().select(name);
    builder.build().map(Some).map_err(|error| GrepError::Type {
        name: name.to_owned(),
        message: error.to_string(),
    })
}

/// Keeps what the output mode shows, and no more.
struct Collect {
    mode: GrepOutputMode,
    count: u64,
    lines: Vec<Line>,
}

impl Sink for Collect {
    type Error = io::Error;

    fn matched(&mut self, _: &Searcher, found: &SinkMatch<'_>) -> Result<bool, io::Error> {
        self.count += 1;
        match self.mode {
            GrepOutputMode::FilesWithMatches => Ok(false),
            GrepOutputMode::Count => Ok(true),
            GrepOutputMode::Content => {
                let first = found.line_number().unwrap_or(0);
                for (number, line) in (first..).zip(found.lines()) {
                    self.lines.push(Line::Match(number, text(line)));
                }
                Ok(true)
            }
        }
    }

    fn context(&mut self, _: &Searcher, around: &SinkContext<'_>) -> Result<bool, io::Error> {
        if matches!(
            around.kind(),
            SinkContextKind::Before | SinkContextKind::After
        ) {
            let number = around.line_number().unwrap_or(0);
            self.lines.push(Line::Context(number, text(around.bytes())));
        }
        Ok(true)
    }

    fn context_break(&mut self, _: &Searcher) -> Result<bool, io::Error> {
        self.lines.push(Line::Break);
        Ok(true)
    }
}

/// A line as printed: without its line terminator, invalid UTF-8 replaced,
/// cut when very long.
fn text(line: &[u8]) -> String {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    cut_line(&String::from_utf8_lossy(line))
}
