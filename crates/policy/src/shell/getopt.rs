//! GNU-style option parsing of a command's words, enough to tell options and
//! their values from operands: short bundles (`-avt DIR`, `-tDIR`), long
//! options with `=` or a separate value, unambiguous abbreviations of long
//! options (`--target` for `--target-directory`, as getopt accepts), options
//! after operands, and `--`. It must never drop an operand: a word it cannot
//! place is an operand.

use super::Word;

/// What a program's options look like.
#[derive(Debug, Clone, Copy)]
pub struct Syntax {
    /// Short options that take a value (`t` for `-t DIR` and `-tDIR`).
    pub short_valued: &'static str,
    /// Short options whose value, if any, is attached (`-i.bak` of sed).
    pub short_optional: &'static str,
    /// Long options that take a value (`target-directory`).
    pub long_valued: &'static [&'static str],
    /// Long options without a value that a caller asks about, so that their
    /// abbreviations are recognised too (`no-target-directory`).
    pub long_flags: &'static [&'static str],
}

/// One parsed argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg {
    /// `-t DIR` is `Option("t", Some(DIR))`; `--global` is `Option("global", None)`.
    Option(String, Option<Word>),
    Operand(Word),
}

/// The arguments of a command (its words after the program name).
pub fn parse(words: &[Word], syntax: &Syntax) -> Vec<Arg> {
    let mut args = Vec::new();
    let mut rest = words.iter();
    while let Some(word) = rest.next() {
        let text = word.text.as_str();
        if text == "--" {
            args.extend(rest.by_ref().cloned().map(Arg::Operand));
        } else if let Some(long) = text.strip_prefix("--") {
            args.push(long_option(word, long, syntax, &mut rest));
        } else if text.len() > 1 && text.starts_with('-') {
            short_options(word, syntax, &mut rest, &mut args);
        } else {
            args.push(Arg::Operand(word.clone()));
        }
    }
    args
}

fn long_option<'w>(
    word: &Word,
    long: &str,
    syntax: &Syntax,
    rest: &mut impl Iterator<Item = &'w Word>,
) -> Arg {
    let (name, attached) = match long.split_once('=') {
        Some((name, value)) => (name, Some(part(word, value))),
        None => (long, None),
    };
    let name = full_name(name, syntax);
    let value = match attached {
        Some(value) => Some(value),
        None if syntax.long_valued.contains(&name) => rest.next().cloned(),
        None => None,
    };
    Arg::Option(name.to_owned(), value)
}

/// The one known long option `name` abbreviates, else `name` itself.
fn full_name<'s>(name: &'s str, syntax: &'s Syntax) -> &'s str {
    let known = || syntax.long_valued.iter().chain(syntax.long_flags);
    if known().any(|known| *known == name) {
        return name;
    }
    let mut candidates = known().filter(|known| known.starts_with(name));
    match (candidates.next(), candidates.next()) {
        (Some(only), None) if !name.is_empty() => only,
        _ => name,
    }
}

fn short_options<'w>(
    word: &Word,
    syntax: &Syntax,
    rest: &mut impl Iterator<Item = &'w Word>,
    args: &mut Vec<Arg>,
) {
    let bundle = &word.text[1..];
    for (index, letter) in bundle.char_indices() {
        let after = &bundle[index + letter.len_utf8()..];
        let takes_value = syntax.short_valued.contains(letter);
        if takes_value || syntax.short_optional.contains(letter) {
            let value = match (after.is_empty(), takes_value) {
                (false, _) => Some(part(word, after)),
                (true, true) => rest.next().cloned(),
                (true, false) => None,
            };
            args.push(Arg::Option(letter.to_string(), value));
            return;
        }
        args.push(Arg::Option(letter.to_string(), None));
    }
}

/// Part of a word, as literal as the word.
fn part(word: &Word, text: &str) -> Word {
    Word {
        text: text.to_owned(),
        literal: word.literal,
    }
}

/// The operands, in order.
pub fn operands(args: &[Arg]) -> Vec<Word> {
    args.iter()
        .filter_map(|arg| match arg {
            Arg::Operand(word) => Some(word.clone()),
            Arg::Option(..) => None,
        })
        .collect()
}

/// Whether any of `names` (short letters or long names) was given.
pub fn has(args: &[Arg], names: &[&str]) -> bool {
    args.iter()
        .any(|arg| matches!(arg, Arg::Option(name, _) if names.contains(&name.as_str())))
}

/// The value of the last of `names` given with a value.
pub fn value(args: &[Arg], names: &[&str]) -> Option<Word> {
    args.iter().rev().find_map(|arg| match arg {
        Arg::Option(name, Some(value)) if names.contains(&name.as_str()) => Some(value.clone()),
        _ => None,
    })
}
