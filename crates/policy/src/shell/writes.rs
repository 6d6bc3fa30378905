//! The files a simple command writes, from what each writing program's
//! command line means: `cp`, `mv`, `ln`, `install`, `touch`, `tee`, `dd of=`,
//! `sed -i` and `git config` (redirections are found by the walk). Wrappers
//! are looked through (`sudo cp …`, `timeout 5 tee …`), as deny rules are.
//!
//! This module only reports; it never reads the disk. Whether a destination
//! is a directory is decided when the command runs (perhaps by an earlier
//! command of the same line), so a destination that may be one is reported
//! with the sources that would land inside it, and both are checked. A word
//! it cannot read (an expansion) is reported as it is, not literal: the
//! engine asks about it. It must never drop a written file it can name.

use super::forms::wrapped_commands;
use super::getopt::{has, operands, parse, value, Arg, Syntax};
use super::{SimpleCommand, Word};

/// A file a command writes, as named on its command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteTarget {
    /// The written path (or the destination that may be a directory).
    pub path: Word,
    /// Files that land inside `path` (as `path/<basename>`) if it is a
    /// directory: `cp a b DIR` writes `DIR/a` and `DIR/b`.
    pub sources: Vec<Word>,
}

/// How a program names the files it writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// `cp SRC… DEST`, `cp -t DIR SRC…`, `-T`: the destination.
    Copy,
    /// `mv`: as `cp`, and every source is removed.
    Move,
    /// `ln TARGET… LINK`, or `ln TARGET` (a link in the current directory).
    Link,
    /// `install`: as `cp`; with `-d` every operand is a directory made.
    Install,
    /// `touch`, `tee`: every operand.
    EveryOperand,
    /// `dd of=FILE`.
    DdOutput,
    /// `sed -i[SUFFIX]`: the files after the script, and their backups.
    SedInPlace,
    /// `git config`: the configuration file a write changes.
    GitConfig,
}

const NO_OPTIONS: Syntax = Syntax {
    short_valued: "",
    short_optional: "",
    long_valued: &[],
    long_flags: &[],
};

const COPY_SYNTAX: Syntax = Syntax {
    short_valued: "tS",
    short_optional: "",
    long_valued: &["target-directory", "suffix", "sparse", "no-preserve"],
    long_flags: &["no-target-directory"],
};

const INSTALL_SYNTAX: Syntax = Syntax {
    short_valued: "tSmog",
    short_optional: "",
    long_valued: &[
        "target-directory",
        "suffix",
        "mode",
        "owner",
        "group",
        "strip-program",
    ],
    long_flags: &["no-target-directory", "directory"],
};

const TOUCH_SYNTAX: Syntax = Syntax {
    short_valued: "rdt",
    short_optional: "",
    long_valued: &["reference", "date", "time"],
    long_flags: &[],
};

const SED_SYNTAX: Syntax = Syntax {
    short_valued: "efl",
    short_optional: "i",
    long_valued: &["expression", "file", "line-length"],
    long_flags: &["in-place"],
};

/// The writing programs: name, how it names what it writes, its options.
const WRITERS: [(&str, Shape, Syntax); 9] = [
    ("cp", Shape::Copy, COPY_SYNTAX),
    ("mv", Shape::Move, COPY_SYNTAX),
    ("ln", Shape::Link, COPY_SYNTAX),
    ("install", Shape::Install, INSTALL_SYNTAX),
    ("touch", Shape::EveryOperand, TOUCH_SYNTAX),
    ("tee", Shape::EveryOperand, NO_OPTIONS),
    ("dd", Shape::DdOutput, NO_OPTIONS),
    ("sed", Shape::SedInPlace, SED_SYNTAX),
    ("git", Shape::GitConfig, NO_OPTIONS),
];

/// Files that are not files: writing them changes nothing on disk.
const SINKS: [&str; 6] = [
    "/dev/null",
    "/dev/stdout",
    "/dev/stderr",
    "/dev/tty",
    "/dev/fd/1",
    "/dev/fd/2",
];

/// Every file `command` writes (redirections aside), each once.
pub fn write_targets(command: &SimpleCommand) -> Vec<WriteTarget> {
    let mut targets: Vec<WriteTarget> = Vec::new();
    for words in wrapped_commands(command) {
        for target in program_targets(words) {
            if !targets.contains(&target) && !is_sink(&target.path) {
                targets.push(target);
            }
        }
    }
    targets
}

/// The paths the links `command` makes lead to (`ln`'s sources, `cp -s`'s
/// and `cp -l`'s): a write through such a link, later in the same command,
/// writes them, and no check can see that link before it exists.
pub fn link_sources(command: &SimpleCommand) -> Vec<Word> {
    let mut found = Vec::new();
    for words in wrapped_commands(command) {
        let Some((program, rest)) = words.split_first().filter(|(name, _)| name.literal) else {
            continue;
        };
        let name = program.text.rsplit('/').next().unwrap_or_default();
        let args = parse(rest, &COPY_SYNTAX);
        let links = match name {
            "ln" => true,
            "cp" => has(&args, &["s", "symbolic-link", "l", "link"]),
            _ => false,
        };
        if !links {
            continue;
        }
        let operands = operands(&args);
        let sources = match (
            value(&args, &["t", "target-directory"]),
            operands.split_last(),
        ) {
            (Some(_), _) => operands.clone(),
            (None, Some((only, []))) => vec![only.clone()],
            (None, Some((_, sources))) => sources.to_vec(),
            (None, None) => Vec::new(),
        };
        found.extend(sources);
    }
    found
}

fn is_sink(path: &Word) -> bool {
    path.literal && SINKS.contains(&path.text.as_str())
}

fn program_targets(words: &[Word]) -> Vec<WriteTarget> {
    let Some((program, rest)) = words.split_first().filter(|(name, _)| name.literal) else {
        return Vec::new();
    };
    let name = program.text.rsplit('/').next().unwrap_or_default();
    let Some((_, shape, syntax)) = WRITERS.iter().find(|(writer, ..)| *writer == name) else {
        return Vec::new();
    };
    match shape {
        Shape::DdOutput => dd_output(rest),
        Shape::GitConfig => super::git_config::targets(rest),
        shape => {
            let args = parse(rest, syntax);
            match shape {
                Shape::EveryOperand => alone(operands(&args)),
                Shape::SedInPlace => sed_in_place(&args),
                shape => copy(&args, *shape),
            }
        }
    }
}

fn alone(paths: Vec<Word>) -> Vec<WriteTarget> {
    paths
        .into_iter()
        .map(|path| WriteTarget {
            path,
            sources: Vec::new(),
        })
        .collect()
}

/// `cp`, `mv`, `ln`, `install`.
fn copy(args: &[Arg], shape: Shape) -> Vec<WriteTarget> {
    let operands = operands(args);
    if shape == Shape::Install && has(args, &["d", "directory"]) {
        return alone(operands);
    }
    let (mut targets, sources) = match value(args, &["t", "target-directory"]) {
        Some(directory) => (vec![into(directory, &operands)], operands),
        None => match operands.split_last() {
            Some((link, [])) if shape == Shape::Link => (
                vec![into(here(link), std::slice::from_ref(link))],
                Vec::new(),
            ),
            Some((destination, sources)) if !sources.is_empty() => {
                let inside = match has(args, &["T", "no-target-directory"]) {
                    true => &[][..],
                    false => sources,
                };
                (vec![into(destination.clone(), inside)], sources.to_vec())
            }
            _ => (Vec::new(), Vec::new()),
        },
    };
    if shape == Shape::Move {
        targets.extend(alone(sources));
    }
    targets
}

fn into(path: Word, sources: &[Word]) -> WriteTarget {
    WriteTarget {
        path,
        sources: sources.to_vec(),
    }
}

/// `.`, as literal as `word` (a link made in the current directory).
fn here(word: &Word) -> Word {
    Word {
        text: ".".to_owned(),
        literal: word.literal,
    }
}

fn dd_output(words: &[Word]) -> Vec<WriteTarget> {
    let outputs = words.iter().filter_map(|word| {
        word.text.strip_prefix("of=").map(|path| Word {
            text: path.to_owned(),
            literal: word.literal,
        })
    });
    alone(outputs.collect())
}

/// `sed -i`: the operands after the script (the first operand, unless `-e`
/// or `-f` gave it), and with a suffix their backups.
fn sed_in_place(args: &[Arg]) -> Vec<WriteTarget> {
    let in_place = args.iter().find_map(|arg| match arg {
        Arg::Option(name, suffix) if name == "i" || name == "in-place" => Some(suffix.clone()),
        _ => None,
    });
    let Some(suffix) = in_place else {
        return Vec::new();
    };
    let mut files = operands(args);
    if !has(args, &["e", "f", "expression", "file"]) && !files.is_empty() {
        files.remove(0);
    }
    let backups: Vec<Word> = match suffix.filter(|suffix| !suffix.text.is_empty()) {
        Some(suffix) => files.iter().map(|file| backup(file, &suffix)).collect(),
        None => Vec::new(),
    };
    alone(files.into_iter().chain(backups).collect())
}

/// GNU sed's backup name: `FILE` + suffix, or the suffix with `*` replaced
/// by the file's name (in the file's directory unless it has a `/`).
fn backup(file: &Word, suffix: &Word) -> Word {
    let (directory, name) = match file.text.rsplit_once('/') {
        Some((directory, name)) => (format!("{directory}/"), name),
        None => (String::new(), file.text.as_str()),
    };
    let text = match (suffix.text.contains('*'), suffix.text.contains('/')) {
        (false, _) => format!("{}{}", file.text, suffix.text),
        (true, true) => suffix.text.replace('*', name),
        (true, false) => format!("{directory}{}", suffix.text.replace('*', name)),
    };
    Word {
        text,
        literal: file.literal && suffix.literal,
    }
}

#[cfg(test)]
#[path = "writes_tests.rs"]
mod tests;
