//! The file `git config` writes: `.git/config` of the repository (after
//! `git -C DIR` or `--git-dir`), `~/.gitconfig` with `--global`,
//! `/etc/gitconfig` with `--system`, `config.worktree` with `--worktree`, or
//! `--file F`. A git configuration runs programs later (`core.fsmonitor`,
//! `core.hooksPath`, aliases), so a write there is a protected write.
//!
//! Reads (`--get`, `--list`, `get`, one operand) write nothing. Anything
//! not recognised as a read is taken as a write: it must never report a
//! write as a read.

use super::getopt::{has, operands, parse, value, Syntax};
use super::writes::WriteTarget;
use super::Word;

/// Options of `git` itself that take the next word as their value.
const GIT_VALUED: [&str; 7] = [
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--config-env",
    "--super-prefix",
];

const CONFIG_SYNTAX: Syntax = Syntax {
    short_valued: "f",
    short_optional: "",
    long_valued: &["file", "blob", "type", "default", "comment", "value", "url"],
    long_flags: &[
        "global",
        "system",
        "local",
        "worktree",
        "get",
        "get-all",
        "get-regexp",
        "get-urlmatch",
        "get-color",
        "get-colorbool",
        "list",
        "unset",
        "unset-all",
        "add",
        "replace-all",
        "rename-section",
        "remove-section",
        "edit",
    ],
};

/// Options that make `git config` only read.
const READ_OPTIONS: [&str; 9] = [
    "get",
    "get-all",
    "get-regexp",
    "get-urlmatch",
    "get-color",
    "get-colorbool",
    "l",
    "list",
    "blob",
];

/// Options that make `git config` write even with one operand.
const WRITE_OPTIONS: [&str; 8] = [
    "unset",
    "unset-all",
    "add",
    "replace-all",
    "rename-section",
    "remove-section",
    "e",
    "edit",
];

/// Subcommands (git 2.46 and later) that write.
const WRITE_SUBCOMMANDS: [&str; 5] = ["set", "unset", "rename-section", "remove-section", "edit"];

/// Where `git` was pointed: `-C` directories and `--git-dir`.
#[derive(Default)]
struct Location {
    directory: Option<Word>,
    git_dir: Option<Word>,
}

/// The file a `git …` command line (its words after `git`) writes, if it is
/// a `git config` that writes.
pub fn targets(words: &[Word]) -> Vec<WriteTarget> {
    let mut location = Location::default();
    let mut index = 0;
    while let Some(word) = words.get(index) {
        let text = word.text.as_str();
        if let Some(dir) = text.strip_prefix("--git-dir=") {
            location.git_dir = Some(part(word, dir));
        } else if GIT_VALUED.contains(&text) {
            index += 1;
            location.take(text, words.get(index));
        } else if !text.starts_with('-') {
            break;
        }
        index += 1;
    }
    match words.get(index) {
        Some(subcommand) if subcommand.text == "config" => {
            config_targets(&words[index + 1..], &location)
        }
        _ => Vec::new(),
    }
}

impl Location {
    fn take(&mut self, option: &str, value: Option<&Word>) {
        let Some(value) = value.cloned() else { return };
        match option {
            "-C" => {
                self.directory = Some(match self.directory.take() {
                    Some(outer) => join(&outer, &value),
                    None => value,
                })
            }
            "--git-dir" => self.git_dir = Some(value),
            _ => {}
        }
    }

    /// A path as git reads it: relative to the `-C` directory.
    fn resolve(&self, path: Word) -> Word {
        match &self.directory {
            Some(directory) => join(directory, &path),
            None => path,
        }
    }

    fn git_dir(&self) -> Word {
        let git_dir = self.git_dir.clone().unwrap_or_else(|| Word {
            text: ".git".to_owned(),
            literal: true,
        });
        self.resolve(git_dir)
    }
}

fn config_targets(words: &[Word], location: &Location) -> Vec<WriteTarget> {
    let args = parse(words, &CONFIG_SYNTAX);
    let operands = operands(&args);
    let first = operands.first().map(|word| word.text.as_str());
    let writes = has(&args, &WRITE_OPTIONS)
        || first.is_some_and(|first| WRITE_SUBCOMMANDS.contains(&first))
        || (!has(&args, &READ_OPTIONS)
            && !matches!(first, Some("get" | "list"))
            && operands.len() >= 2);
    if !writes {
        return Vec::new();
    }
    let file = match value(&args, &["f", "file"]) {
        Some(file) => location.resolve(file),
        None if has(&args, &["global"]) => literal("~/.gitconfig"),
        None if has(&args, &["system"]) => literal("/etc/gitconfig"),
        None if has(&args, &["worktree"]) => join(&location.git_dir(), &literal("config.worktree")),
        None => join(&location.git_dir(), &literal("config")),
    };
    vec![WriteTarget {
        path: file,
        sources: Vec::new(),
    }]
}

fn literal(text: &str) -> Word {
    Word {
        text: text.to_owned(),
        literal: true,
    }
}

fn part(word: &Word, text: &str) -> Word {
    Word {
        text: text.to_owned(),
        literal: word.literal,
    }
}

/// `path` under `directory`, unless `path` is absolute or starts at home.
fn join(directory: &Word, path: &Word) -> Word {
    if path.text.starts_with('/') || path.text.starts_with('~') {
        return path.clone();
    }
    Word {
        text: format!("{}/{}", directory.text.trim_end_matches('/'), path.text),
        literal: directory.literal && path.literal,
    }
}
