//! `git` on the read-only list: the subcommands that only read
//! (`status`, `diff`, `log`, `show`, `blame`, `rev-parse`, `ls-files`),
//! `git branch` only as a listing, `git remote` only as `git remote -v`.
//! Never a global option (`-C`, `-c`, `--git-dir`), an option that writes
//! a file or runs a configured program (`--output`, `--ext-diff`,
//! `--textconv`), or a `git branch` that creates, deletes, renames, copies
//! or re-tracks a branch.

use super::{judged, option_values, paths, Spec, PLAIN};
use crate::shell::getopt::{self, Arg, Syntax};
use crate::shell::Word;

/// What `git diff|log|show` refuse: a file written, a configured program run.
const GIT_WRITES_OR_RUNS: &[&str] = &["output", "ext-diff", "textconv"];

/// `git SUBCOMMAND` on the list (branch and remote are judged apart).
const GIT_SUBCOMMANDS: [Spec; 7] = [
    paths("status"),
    Spec {
        syntax: Syntax {
            short_valued: "O",
            ..PLAIN
        },
        refused: GIT_WRITES_OR_RUNS,
        ..paths("diff")
    },
    Spec {
        syntax: Syntax {
            short_valued: "O",
            ..PLAIN
        },
        refused: GIT_WRITES_OR_RUNS,
        ..paths("log")
    },
    Spec {
        syntax: Syntax {
            short_valued: "O",
            ..PLAIN
        },
        refused: GIT_WRITES_OR_RUNS,
        ..paths("show")
    },
    Spec {
        refused: GIT_WRITES_OR_RUNS,
        ..paths("blame")
    },
    paths("rev-parse"),
    Spec {
        syntax: Syntax {
            short_valued: "X",
            ..PLAIN
        },
        ..paths("ls-files")
    },
];

/// `git branch` options that only list; anything else may write a branch.
const GIT_BRANCH_LISTING: [&str; 27] = [
    "a",
    "all",
    "r",
    "remotes",
    "v",
    "verbose",
    "l",
    "list",
    "show-current",
    "contains",
    "no-contains",
    "merged",
    "no-merged",
    "points-at",
    "sort",
    "format",
    "color",
    "no-color",
    "column",
    "no-column",
    "i",
    "ignore-case",
    "abbrev",
    "no-abbrev",
    "q",
    "quiet",
    "omit-empty",
];

/// `git branch` options that put it in list mode, where operands are patterns.
const GIT_BRANCH_LIST_MODE: [&str; 9] = [
    "l",
    "list",
    "v",
    "verbose",
    "contains",
    "no-contains",
    "merged",
    "no-merged",
    "points-at",
];

const GIT_BRANCH_SYNTAX: Syntax = Syntax {
    long_valued: &[
        "contains",
        "no-contains",
        "merged",
        "no-merged",
        "points-at",
        "sort",
        "format",
    ],
    ..PLAIN
};

/// `git [--no-pager] SUBCOMMAND …`; other global options (`-C`, `-c`,
/// `--git-dir`) change what git reads or runs and are not read-only.
pub(super) fn git(args: &[Word]) -> Result<Vec<Word>, String> {
    let args = match args.first() {
        Some(first) if first.text == "--no-pager" => &args[1..],
        _ => args,
    };
    let Some((subcommand, rest)) = args.split_first() else {
        return Err("git without a subcommand".to_owned());
    };
    match subcommand.text.as_str() {
        "branch" => git_branch(rest),
        "remote" => match rest.iter().map(|w| w.text.as_str()).collect::<Vec<_>>()[..] {
            [] | ["-v"] | ["--verbose"] => Ok(Vec::new()),
            _ => Err("git remote is read-only only as `git remote -v`".to_owned()),
        },
        name => match GIT_SUBCOMMANDS.iter().find(|spec| spec.name == name) {
            Some(spec) => judged(spec, rest)
                .map(with_blob_paths)
                .map_err(|why| format!("git {why}")),
            None if name.starts_with('-') => Err(format!("git {name} is not read-only")),
            None => Err(format!("git {name} is not on the read-only list")),
        },
    }
}

/// `REV:PATH` names a file as committed (`git show HEAD:.env`): its path
/// is checked too.
fn with_blob_paths(mut words: Vec<Word>) -> Vec<Word> {
    let paths: Vec<Word> = words
        .iter()
        .filter_map(|word| {
            let (_, path) = word.text.split_once(':')?;
            (!path.is_empty()).then(|| Word {
                text: path.to_owned(),
                literal: word.literal,
            })
        })
        .collect();
    words.extend(paths);
    words
}

/// `git branch` lists with the listing options only, and takes operands
/// (patterns) only in list mode: `git branch NAME` creates a branch.
fn git_branch(args: &[Word]) -> Result<Vec<Word>, String> {
    let parsed = getopt::parse(args, &GIT_BRANCH_SYNTAX);
    if let Some(name) = parsed.iter().find_map(|arg| match arg {
        Arg::Option(name, _) if !GIT_BRANCH_LISTING.contains(&name.as_str()) => Some(name),
        _ => None,
    }) {
        return Err(format!("git branch {name} may change branches"));
    }
    let operands = getopt::operands(&parsed);
    if !operands.is_empty() && !getopt::has(&parsed, &GIT_BRANCH_LIST_MODE) {
        return Err("git branch NAME creates a branch".to_owned());
    }
    let mut found = option_values(&parsed, &[]);
    found.extend(operands);
    Ok(found)
}
