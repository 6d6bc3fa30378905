//! A typo is not a prompt: `agenthub rnu` must not open a session and send
//! "rnu" to a (maybe paid) model.
//!
//! The rule: with no subcommand, a prompt that is one bare word — no
//! whitespace — is a usage error that names the closest subcommand. A
//! one-word prompt is still possible after `--` (`agenthub -- hello`) or with
//! `--prompt hello`; a quoted prompt with spaces is a prompt. This module
//! only decides; it never starts anything.

use clap::CommandFactory;

/// The usage error for `word` given as the whole prompt with no subcommand,
/// or `None` when `word` is a prompt. `after_separator` says it came after `--`.
pub fn refuse_bare_word(word: &str, after_separator: bool) -> Option<String> {
    if after_separator || word.is_empty() || word.chars().any(char::is_whitespace) {
        return None;
    }
    let names = subcommand_names();
    let hint = match closest(word, &names) {
        Some(name) => format!("did you mean `{name}`?"),
        None => format!("the commands are: {}", names.join(", ")),
    };
    Some(format!(
        "`{word}` is not an agenthub command; {hint} (to send a one-word prompt, \
         write `agenthub -- {word}` or `agenthub --prompt {word}`)"
    ))
}

/// Whether the command line holds `--` before its prompt.
pub fn has_separator(args: impl IntoIterator<Item = std::ffi::OsString>) -> bool {
    args.into_iter().skip(1).any(|arg| arg == "--")
}

fn subcommand_names() -> Vec<String> {
    crate::args::Cli::command()
        .get_subcommands()
        .filter(|command| !command.is_hide_set())
        .map(|command| command.get_name().to_owned())
        .collect()
}

/// The subcommand nearest `word`, if any is near enough to be a typo of it:
/// at most two edits away (a swap of neighbours is one edit), and fewer
/// edits than the name has letters.
fn closest<'a>(word: &str, names: &'a [String]) -> Option<&'a str> {
    names
        .iter()
        .map(|name| (strsim::osa_distance(word, name), name.as_str()))
        .filter(|(edits, name)| *edits <= 2 && *edits < name.len())
        .min_by_key(|(edits, _)| *edits)
        .map(|(_, name)| name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typo_of_run_is_refused_with_run_suggested() {
        assert_eq!(
            refuse_bare_word("rnu", false).as_deref(),
            Some(
                "`rnu` is not an agenthub command; did you mean `run`? (to send a one-word \
                 prompt, write `agenthub -- rnu` or `agenthub --prompt rnu`)"
            )
        );
    }

    #[test]
    fn a_word_far_from_every_command_lists_the_commands() {
        let refusal = refuse_bare_word("xyzzy", false).unwrap_or_default();
        assert!(
            refusal.starts_with(
                "`xyzzy` is not an agenthub command; the commands are: chat, run, demo,"
            ),
            "{refusal}"
        );
    }

    #[test]
    fn a_near_miss_of_a_longer_command_names_it() {
        let refusal = refuse_bare_word("sesions", false).unwrap_or_default();
        assert!(
            refusal.starts_with("`sesions` is not an agenthub command; did you mean `sessions`?"),
            "{refusal}"
        );
    }

    #[test]
    fn a_prompt_with_spaces_is_a_prompt() {
        assert_eq!(refuse_bare_word("fix the build", false), None);
    }

    #[test]
    fn a_word_after_the_separator_is_a_prompt() {
        assert_eq!(refuse_bare_word("hello", true), None);
    }

    #[test]
    fn the_separator_is_found_among_the_arguments() {
        let args = ["agenthub", "--", "hello"].map(std::ffi::OsString::from);
        assert!(has_separator(args));
        let args = ["agenthub", "hello"].map(std::ffi::OsString::from);
        assert!(!has_separator(args));
    }
}
