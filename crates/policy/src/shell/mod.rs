//! Bash analysis with a real shell parser: what simple commands a command
//! line runs, what it redirects where, which files its commands write
//! ([`write_targets`]), and which constructs keep it from ever being allowed
//! by a rule.
//!
//! Parser: `tree-sitter-bash`, not `brush-parser`. Both parse real bash
//! grammar; tree-sitter-bash was chosen because every construct that matters
//! here is its own typed node *inside* the tree — `command_substitution`
//! and backticks, `process_substitution`, `subshell`, `file_redirect`,
//! `simple_expansion`, `ansi_c_string` — even within words and strings, and
//! any syntax error is an explicit `ERROR`/missing node. That allows the
//! approach Codex and Gemini CLI use: walk the whole tree, find every command
//! wherever it hides (for deny rules), and let a rule allow only commands whose
//! tree stays within a small allow-listed grammar. brush-parser keeps words as
//! raw strings, so `$(…)` inside a word needs a second, separate parse. The
//! cost is a C grammar compiled by `cc` (about 10 s once).
//!
//! This module must never answer "allowed": it reports what it found. The
//! engine decides. A tree with errors is reported as unparsable, but the
//! commands found in it are still reported so deny rules see them.

mod exec;
mod forms;
mod getopt;
mod git_config;
mod read_only;
mod walk;
mod words;
mod writes;

pub use exec::exec_hazard;
pub use forms::{allow_form, deny_forms, nested_scripts};
pub use read_only::{read_only_paths, read_only_programs};
pub use writes::{link_sources, write_targets, WriteTarget};

/// Longer commands are refused without analysis (Claude Code prompts past 10,000).
pub const MAX_COMMAND_BYTES: usize = 10_000;
/// More simple commands than this in one call are refused.
pub const MAX_COMMANDS: usize = 100;
/// `bash -c "bash -c …"` is analysed this deep; deeper nesting is refused.
pub const MAX_NESTING: usize = 3;

/// One word of a simple command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    /// The value bash would see for a literal word (quotes and escapes
    /// removed), or the source text for a word with expansions.
    pub text: String,
    /// False when the word contains an expansion or substitution.
    pub literal: bool,
}

/// One simple command, found anywhere in the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimpleCommand {
    /// As written, for explanations.
    pub source: String,
    /// Names of the leading `NAME=value` assignments.
    pub assignments: Vec<String>,
    /// The command name and its arguments.
    pub words: Vec<Word>,
}

impl SimpleCommand {
    /// The command's name (its first word), which `Bash(…)` rules start with;
    /// `None` for a bare assignment.
    pub fn name(&self) -> Option<&str> {
        self.words.first().map(|word| word.text.as_str())
    }
}

/// Which way a redirection moves data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// `<`: the target is read.
    Read,
    /// `>`, `>>`, `&>`, `>|`, `<>`: the target is written.
    Write,
}

/// A redirection to or from a file (`/dev/null` and descriptor copies are not reported).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    /// Whether the target is read or written.
    pub direction: Direction,
    /// The file, as a word (checked like a path argument).
    pub target: Word,
    /// The redirection as written (`> out.txt`).
    pub source: String,
}

/// Everything found in one command line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Analysis {
    /// Every simple command, in source order; each must be allowed by a rule
    /// for the whole line to be.
    pub commands: Vec<SimpleCommand>,
    /// Every redirection to or from a file.
    pub redirects: Vec<Redirect>,
    /// Constructs that are never allowed by a rule, each described for a person.
    pub hazards: Vec<String>,
    /// Why the command does not parse, if it does not.
    pub parse_error: Option<String>,
    /// Whether one of its commands (`cd`, `pushd`, …) changes the directory
    /// the others run in: the paths they write are then not where they read.
    pub changes_directory: bool,
}

/// The outcome of analysing a command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShellReport {
    /// The line was read (it may still not parse: see [`Analysis::parse_error`]).
    Analysed(Analysis),
    /// Too long, NUL bytes, too many commands, nested too deep: denied unread.
    Refused(String),
}

/// Parses and walks a command line, including the scripts of `bash -c` and
/// `eval` (whose commands are added, marked by a hazard).
pub fn analyse(command: &str) -> ShellReport {
    let mut analysis = Analysis::default();
    if let Err(reason) = analyse_into(command, 0, &mut analysis) {
        return ShellReport::Refused(reason);
    }
    if analysis.commands.len() > MAX_COMMANDS {
        return ShellReport::Refused(format!(
            "the command line runs {} commands; more than {MAX_COMMANDS} are not analysed",
            analysis.commands.len()
        ));
    }
    ShellReport::Analysed(analysis)
}

fn analyse_into(command: &str, depth: usize, analysis: &mut Analysis) -> Result<(), String> {
    if command.contains('\0') {
        return Err("the command contains a NUL byte".to_owned());
    }
    if command.len() > MAX_COMMAND_BYTES {
        return Err(format!(
            "the command is {} bytes long; commands over {MAX_COMMAND_BYTES} bytes are not analysed",
            command.len()
        ));
    }
    if depth > MAX_NESTING {
        return Err(format!(
            "shell scripts nested more than {MAX_NESTING} deep are not analysed"
        ));
    }
    let found = walk::walk(command)?;
    let nested: Vec<String> = found.commands.iter().flat_map(nested_scripts).collect();
    merge(analysis, found);
    for script in nested {
        analyse_into(&script, depth + 1, analysis)?;
    }
    Ok(())
}

fn merge(into: &mut Analysis, found: Analysis) {
    into.commands.extend(found.commands);
    into.redirects.extend(found.redirects);
    into.hazards.extend(found.hazards);
    into.changes_directory |= found.changes_directory;
    if into.parse_error.is_none() {
        into.parse_error = found.parse_error;
    }
}

#[cfg(test)]
mod tests;
