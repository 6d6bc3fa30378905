//! The built-in read-only list (contract §29): the commands a person runs
//! all day to look at a project — `ls`, `cat`, `grep`, `git diff`, … — that
//! Claude Code runs without asking. A command line all of whose simple
//! commands pass [`read_only_paths`] may run unasked, once the engine has
//! checked the paths it returns (inside the workspace, no read rule).
//!
//! What this list must never allow: an option that writes a file (`sort -o`,
//! `git diff --output`, `tree -o`, `file -C`, `uniq IN OUT`), runs a program
//! (`find -exec`, `rg --pre`, `git diff --ext-diff`, `sort
//! --compress-program`), reads a list of names from a file
//! (`--files0-from`), follows links out of the tree it walks (`grep -R`,
//! `rg -L`, `find -L`), or changes a repository (`git branch NAME`, `-d`,
//! `-m`, `-u`…). Unknown options are judged as operands where that is
//! safe (their words are checked as paths); everything not named here is
//! not read-only. Like the rest of [`crate::shell`], this module only
//! reports: the engine decides (`engine::read_only`).

use super::exec::exec_hazard;
use super::forms::HARMLESS_ASSIGNMENTS;
use super::getopt::{self, Arg, Syntax};
use super::{SimpleCommand, Word};

mod git;

/// How a command's operands are read.
#[derive(Debug, Clone, Copy)]
enum Operands {
    /// Every operand is a path (`cat a b`).
    Paths,
    /// Operands are text, never opened (`echo`, `tr`, `which`).
    Text,
    /// The first operand is a pattern unless one of these options gives
    /// it (`grep -e P`, `rg --files`); the rest are paths.
    PatternThenPaths(&'static [&'static str]),
    /// At most one operand, a path: a second one is an output file (`uniq IN OUT`).
    OnePath,
}

/// One listed command: how its options parse, which of them it refuses,
/// which option values are text rather than paths, and its operands.
#[derive(Debug, Clone, Copy)]
struct Spec {
    name: &'static str,
    syntax: Syntax,
    refused: &'static [&'static str],
    text_values: &'static [&'static str],
    operands: Operands,
    /// Whether it reads the working directory when given no path (`grep
    /// -r x`, `rg x`, `ls`): `.` is then checked as its path.
    reads_cwd: bool,
}

const PLAIN: Syntax = Syntax {
    short_valued: "",
    short_optional: "",
    long_valued: &[],
    long_flags: &[],
};

const fn paths(name: &'static str) -> Spec {
    Spec {
        name,
        syntax: PLAIN,
        refused: &[],
        text_values: &[],
        operands: Operands::Paths,
        reads_cwd: false,
    }
}

const fn walker(name: &'static str) -> Spec {
    Spec {
        reads_cwd: true,
        ..paths(name)
    }
}

const fn text(name: &'static str) -> Spec {
    Spec {
        operands: Operands::Text,
        ..paths(name)
    }
}

/// The list, outside git (see [`git`]) and find ([`find`]).
const COMMANDS: [Spec; 20] = [
    walker("ls"),
    text("pwd"),
    paths("cat"),
    paths("head"),
    paths("tail"),
    Spec {
        refused: &["files0-from"],
        ..paths("wc")
    },
    Spec {
        syntax: Syntax {
            short_valued: "efmABCdD",
            long_valued: &[
                "regexp",
                "file",
                "max-count",
                "after-context",
                "before-context",
                "context",
                "directories",
                "devices",
                "label",
                "include",
                "exclude",
                "exclude-dir",
                "exclude-from",
            ],
            ..PLAIN
        },
        refused: &["R", "dereference-recursive"],
        text_values: &["e", "regexp", "label"],
        operands: Operands::PatternThenPaths(&["e", "f", "regexp", "file"]),
        ..walker("grep")
    },
    Spec {
        syntax: Syntax {
            short_valued: "efgtTmABCjMrEd",
            long_valued: &[
                "regexp",
                "file",
                "glob",
                "iglob",
                "type",
                "type-not",
                "max-count",
                "after-context",
                "before-context",
                "context",
                "replace",
                "max-depth",
                "ignore-file",
            ],
            ..PLAIN
        },
        refused: &[
            "pre",
            "pre-glob",
            "hostname-bin",
            "z",
            "search-zip",
            "L",
            "follow",
        ],
        text_values: &["e", "regexp", "r", "replace"],
        operands: Operands::PatternThenPaths(&["e", "f", "regexp", "file", "files", "type-list"]),
        ..walker("rg")
    },
    text("echo"),
    text("which"),
    Spec {
        refused: &[
            "C",
            "compile",
            "f",
            "files-from",
            "z",
            "Z",
            "uncompress",
            "uncompress-noreport",
        ],
        ..paths("file")
    },
    paths("stat"),
    Spec {
        refused: &["files0-from", "L", "dereference"],
        ..walker("du")
    },
    paths("df"),
    Spec {
        syntax: Syntax {
            short_valued: "tkSTo",
            long_valued: &["field-separator", "key", "buffer-size"],
            ..PLAIN
        },
        refused: &[
            "o",
            "output",
            "T",
            "temporary-directory",
            "compress-program",
            "files0-from",
        ],
        text_values: &["t", "k", "S", "field-separator", "key", "buffer-size"],
        ..paths("sort")
    },
    Spec {
        syntax: Syntax {
            short_valued: "fsw",
            long_valued: &["skip-fields", "skip-chars", "check-chars"],
            ..PLAIN
        },
        operands: Operands::OnePath,
        ..paths("uniq")
    },
    text("tr"),
    Spec {
        syntax: Syntax {
            short_valued: "bcdf",
            long_valued: &[
                "bytes",
                "characters",
                "delimiter",
                "fields",
                "output-delimiter",
            ],
            ..PLAIN
        },
        text_values: &[
            "b",
            "c",
            "d",
            "f",
            "bytes",
            "characters",
            "delimiter",
            "fields",
            "output-delimiter",
        ],
        ..paths("cut")
    },
    Spec {
        // A recursive diff follows the links it meets inside the folders.
        refused: &["r", "recursive"],
        ..paths("diff")
    },
    Spec {
        syntax: Syntax {
            short_valued: "LPIHTo",
            ..PLAIN
        },
        refused: &["o", "output", "R", "l"],
        ..walker("tree")
    },
];

/// `find` expressions that run programs, write or delete files, read names
/// from a file, or follow links (prefixes: `-exec` covers `-execdir`).
const FIND_REFUSED: [&str; 8] = [
    "-exec",
    "-ok",
    "-delete",
    "-fprint",
    "-fls",
    "-files0-from",
    "-follow",
    "-L",
];

/// The programs on the list, for documentation and explanations.
pub fn read_only_programs() -> Vec<&'static str> {
    let mut names: Vec<&str> = COMMANDS.iter().map(|spec| spec.name).collect();
    names.extend(["find", "git"]);
    names
}

/// If `command` is on the read-only list, the words the engine must check
/// as paths it reads (every operand and option value that may name a file,
/// and every word with a glob the shell may expand); else why it is not.
pub fn read_only_paths(command: &SimpleCommand) -> Result<Vec<Word>, String> {
    let shown = &command.source;
    if let Some(name) = command
        .assignments
        .iter()
        .find(|name| !HARMLESS_ASSIGNMENTS.contains(&name.as_str()))
    {
        return Err(format!("`{shown}` sets {name}"));
    }
    if let Some(word) = command.words.iter().find(|word| !word.literal) {
        return Err(format!("`{}` in `{shown}` is not a plain word", word.text));
    }
    if let Some(word) = command.words.iter().find(|word| expands_tilde(&word.text)) {
        return Err(format!("`{}` in `{shown}` expands `~`", word.text));
    }
    let Some((name, args)) = command.words.split_first() else {
        return Err(format!("`{shown}` runs no command"));
    };

    let mut found = match name.text.as_str() {
        "git" => git::git(args),
        "find" => find(args),
        other => match COMMANDS.iter().find(|spec| spec.name == other) {
            Some(spec) => judged(spec, args),
            None => Err(format!("{other} is not on the read-only list")),
        },
    }
    .map_err(|why| format!("`{shown}`: {why}"))?;
    // The rule layer's table of options that run programs or write files
    // (`git status --ext-diff`) speaks here too.
    let form: Vec<&str> = command
        .words
        .iter()
        .map(|word| word.text.as_str())
        .collect();
    if let Some(hazard) = exec_hazard(&form.join(" ")) {
        return Err(hazard);
    }
    found.extend(args.iter().filter(|word| is_glob(&word.text)).cloned());
    Ok(found)
}

/// Whether bash expands a `~` in the word: at its start, or after `=` or
/// `:` (bash does so in `--opt=~/x` too).
fn expands_tilde(text: &str) -> bool {
    text.starts_with('~') || text.contains("=~") || text.contains(":~")
}

fn is_glob(text: &str) -> bool {
    text.contains(['*', '?', '['])
}

/// A listed command's path words, or the refused option it uses.
fn judged(spec: &Spec, args: &[Word]) -> Result<Vec<Word>, String> {
    let parsed = getopt::parse(args, &spec.syntax);
    if let Some(option) = refused_option(&parsed, spec.refused) {
        return Err(format!("{} {option} writes, runs or follows", spec.name));
    }
    let mut found: Vec<Word> = option_values(&parsed, spec.text_values);
    let operands = getopt::operands(&parsed);
    let operands = match spec.operands {
        Operands::Paths => operands,
        Operands::Text => Vec::new(),
        Operands::PatternThenPaths(givers) if getopt::has(&parsed, givers) => operands,
        Operands::PatternThenPaths(_) => operands.into_iter().skip(1).collect(),
        Operands::OnePath if operands.len() > 1 => {
            return Err(format!(
                "{}'s second operand is a file it writes",
                spec.name
            ))
        }
        Operands::OnePath => operands,
    };
    if spec.reads_cwd && operands.is_empty() {
        found.push(cwd());
    }
    found.extend(operands);
    Ok(found)
}

/// The working directory, as a path word.
fn cwd() -> Word {
    Word {
        text: ".".to_owned(),
        literal: true,
    }
}

/// The first option in `refused`, a long one also by an abbreviation
/// (`--out` for `--output`, as getopt accepts).
fn refused_option(parsed: &[Arg], refused: &[&str]) -> Option<String> {
    parsed.iter().find_map(|arg| match arg {
        Arg::Option(name, _) if is_refused(name, refused) => Some(match name.chars().count() {
            1 => format!("-{name}"),
            _ => format!("--{name}"),
        }),
        _ => None,
    })
}

fn is_refused(name: &str, refused: &[&str]) -> bool {
    match name.chars().count() {
        1 => refused.contains(&name),
        _ => refused
            .iter()
            .any(|option| option.len() > 1 && option.starts_with(name)),
    }
}

/// The values of options that may name files (all but `text_values`).
fn option_values(parsed: &[Arg], text_values: &[&str]) -> Vec<Word> {
    parsed
        .iter()
        .filter_map(|arg| match arg {
            Arg::Option(name, Some(value)) if !text_values.contains(&name.as_str()) => {
                Some(value.clone())
            }
            _ => None,
        })
        .collect()
}

/// `find`: every word that is not an expression keyword is checked as a
/// path (starting points, `-newer FILE`, and names and patterns, which
/// are then harmlessly over-checked); with no starting point, `.`.
fn find(args: &[Word]) -> Result<Vec<Word>, String> {
    if let Some(word) = args.iter().find(|word| {
        FIND_REFUSED
            .iter()
            .any(|refused| word.text.starts_with(refused))
    }) {
        return Err(format!(
            "find {} runs, writes, deletes or follows",
            word.text
        ));
    }
    let is_expression = |word: &Word| {
        word.text.starts_with('-') || matches!(word.text.as_str(), "(" | ")" | "!" | ",")
    };
    let mut found: Vec<Word> = Vec::new();
    if args.first().is_none_or(is_expression) {
        found.push(cwd());
    }
    found.extend(args.iter().filter(|word| !is_expression(word)).cloned());
    Ok(found)
}

#[cfg(test)]
mod tests;
