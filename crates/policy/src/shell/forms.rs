//! The textual forms of a simple command that rules are matched against.
//!
//! Deny and ask rules are matched against *every* form: the command as
//! written (assignments dropped), and again after each wrapper is peeled off
//! (`timeout 5 nice -n 2 rm -rf x` → `nice -n 2 rm -rf x` → `rm -rf x`), and
//! with a path-qualified program reduced to its name (`/bin/rm` → `rm`). So a
//! restriction reaches past `FOO=1`, `timeout`, `nice`, `nohup`, `command`,
//! `env`, `stdbuf`, `time`, `xargs`, `sudo`, `exec` and friends.
//!
//! An allow rule is matched against ONE form: the command with only the
//! wrappers Claude Code strips for allow rules (`timeout`, `time`, `nice`,
//! `nohup`, `stdbuf`, `command`, `builtin`, `noglob`, bare `xargs`) removed,
//! and only if every leading assignment is a known-harmless variable. Wrappers
//! that run arbitrary commands (`env`, `sudo`, `xargs -n1`, `bash -c`, `eval`)
//! are never peeled for allow rules.

use super::exec::{is_shell, strip_options};
use super::{SimpleCommand, Word};

/// Variables that may precede an allowed command (`NODE_ENV=test npm test`).
pub(super) const HARMLESS_ASSIGNMENTS: [&str; 10] = [
    "NODE_ENV",
    "RUST_LOG",
    "RUST_BACKTRACE",
    "CI",
    "NO_COLOR",
    "FORCE_COLOR",
    "LANG",
    "LC_ALL",
    "TZ",
    "DEBUG",
];

/// Which wrappers to peel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Peel {
    ForAllow,
    ForDeny,
}

/// Every form deny and ask rules are matched against.
pub fn deny_forms(command: &SimpleCommand) -> Vec<String> {
    deny_word_forms(command)
        .iter()
        .map(|words| words.join(" "))
        .collect()
}

fn deny_word_forms(command: &SimpleCommand) -> Vec<Vec<&str>> {
    let mut words: Vec<&str> = command
        .words
        .iter()
        .map(|word| word.text.as_str())
        .collect();
    let mut forms = Vec::new();
    while !words.is_empty() {
        forms.push(words.clone());
        if let Some(base) = words[0].rsplit('/').next().filter(|base| *base != words[0]) {
            let mut renamed = vec![base];
            renamed.extend(&words[1..]);
            forms.push(renamed);
        }
        match peel(&words, Peel::ForDeny) {
            Some(inner) => words = inner,
            None => break,
        }
    }
    forms
}

/// The command itself and every command it runs once wrappers are peeled
/// (`sudo timeout 5 cp a b` → … → `cp a b`), as tails of its words: the
/// commands deny rules see, with each word's literalness kept.
pub fn wrapped_commands(command: &SimpleCommand) -> Vec<&[Word]> {
    let total = command.words.len();
    let mut lengths: Vec<usize> = deny_word_forms(command).iter().map(Vec::len).collect();
    lengths.dedup();
    lengths
        .into_iter()
        .filter_map(|length| command.words.get(total.checked_sub(length)?..))
        .collect()
}

/// The one form allow rules are matched against, or why there is none.
pub fn allow_form(command: &SimpleCommand) -> Result<String, String> {
    if let Some(name) = command
        .assignments
        .iter()
        .find(|name| !HARMLESS_ASSIGNMENTS.contains(&name.as_str()))
    {
        return Err(format!(
            "`{}` sets {name}, which allow rules never look past",
            command.source
        ));
    }
    if let Some(word) = command.words.iter().find(|word| !word.literal) {
        return Err(format!("`{}` is not a plain word", word.text));
    }
    let mut words: Vec<&str> = command
        .words
        .iter()
        .map(|word| word.text.as_str())
        .collect();
    while let Some(inner) = peel(&words, Peel::ForAllow) {
        words = inner;
    }
    Ok(words.join(" "))
}

/// The words a wrapper runs, if `words` starts with a wrapper.
fn peel<'w>(words: &[&'w str], mode: Peel) -> Option<Vec<&'w str>> {
    let (name, rest) = words.split_first()?;
    let name = name.rsplit('/').next().unwrap_or(name);
    let inner: &[&str] = match (name, mode) {
        ("timeout", _) => skip_positional(strip_options(
            rest,
            &["-s", "-k", "--signal", "--kill-after"],
        )),
        ("nice", _) => strip_options(rest, &["-n", "--adjustment"]),
        ("time", _) => strip_options(rest, &["-f", "-o", "--format", "--output"]),
        ("stdbuf", _) => strip_options(rest, &["-i", "-o", "-e", "--input", "--output", "--error"]),
        ("nohup" | "builtin" | "noglob", _) => strip_options(rest, &[]),
        ("command", _) if !rest.iter().any(|arg| matches!(*arg, "-v" | "-V")) => {
            strip_options(rest, &[])
        }
        ("xargs", Peel::ForAllow) if !rest.first().is_some_and(|arg| arg.starts_with('-')) => rest,
        ("xargs", Peel::ForDeny) => strip_options(
            rest,
            &[
                "-I",
                "-L",
                "-n",
                "-P",
                "-d",
                "-E",
                "-s",
                "-a",
                "--arg-file",
                "--delimiter",
                "--max-args",
                "--max-procs",
                "--replace",
                "--max-lines",
            ],
        ),
        ("env", Peel::ForDeny) => skip_assignments(strip_options(
            rest,
            &["-u", "-C", "-S", "--unset", "--chdir", "--split-string"],
        )),
        ("sudo" | "doas", Peel::ForDeny) => skip_assignments(strip_options(
            rest,
            &["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T"],
        )),
        ("exec", Peel::ForDeny) => strip_options(rest, &["-a"]),
        ("watch", Peel::ForDeny) => {
            strip_options(rest, &["-n", "-d", "--interval", "--differences"])
        }
        ("setsid" | "chronic" | "unbuffer", Peel::ForDeny) => strip_options(rest, &[]),
        ("ionice", Peel::ForDeny) => strip_options(rest, &["-c", "-n", "-p", "-P", "-u"]),
        _ => return None,
    };
    (!inner.is_empty()).then(|| inner.to_vec())
}

fn skip_positional<'a, 'w>(words: &'a [&'w str]) -> &'a [&'w str] {
    words.get(1..).unwrap_or_default()
}

fn skip_assignments<'a, 'w>(words: &'a [&'w str]) -> &'a [&'w str] {
    let count = words.iter().take_while(|word| is_assignment(word)).count();
    &words[count..]
}

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit())
    })
}

/// Scripts a command runs from a string: `bash -c SCRIPT`, `sh -c`, `eval ARGS`,
/// `env -S STRING`, found in every deny form, so that their commands are analysed too.
pub fn nested_scripts(command: &SimpleCommand) -> Vec<String> {
    let mut scripts = Vec::new();
    for words in deny_word_forms(command) {
        let Some((name, rest)) = words.split_first() else {
            continue;
        };
        if *name == "eval" {
            scripts.push(rest.join(" "));
        } else if *name == "env" {
            scripts.extend(option_value(rest, &["-S", "--split-string"]));
        } else if is_shell(name) {
            scripts.extend(option_value(rest, &["-c"]));
        }
    }
    scripts.retain(|script| !script.trim().is_empty());
    scripts.dedup();
    scripts
}

/// The word after the first option in `names` (or a short-option bundle ending in it).
fn option_value(rest: &[&str], names: &[&str]) -> Option<String> {
    let position = rest.iter().position(|arg| {
        names.contains(arg)
            || names.iter().any(|name| {
                name.len() == 2
                    && arg.starts_with('-')
                    && !arg.starts_with("--")
                    && arg.ends_with(&name[1..])
            })
    })?;
    rest.get(position + 1).map(|script| (*script).to_owned())
}

#[cfg(test)]
#[path = "forms_tests.rs"]
mod tests;
