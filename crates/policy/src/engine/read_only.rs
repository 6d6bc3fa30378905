//! The `read-only command` participant (contract §29): a shell command line
//! every simple command of which is on the built-in read-only list
//! ([`crate::shell::read_only_paths`]), with nothing else in it (no
//! redirection to a file, substitution, expansion, subshell, `cd`: any
//! hazard the analysis found), reading only inside the workspace roots, is
//! allowed — a binding allow, so it answers the tool's default ask, while
//! deny and ask rules, the boundary, protected paths, a hook's ask or deny
//! and the sandbox's ask still win the merge.
//!
//! It must never allow a command that reads a path outside the roots (`..`,
//! an absolute path, `~`, a glob that may match `..`), a path a `Read` deny
//! or ask rule covers, or a folder holding one (`grep -r x .` beside a denied
//! `.env`): reading protected files stays with the `Read` rules.

use super::bash::{expand, path_rule, BashContext};
use super::rules::{covers_tool, Subject};
use super::verdict::{Verdict, Weight};
use crate::protected::pattern_may_leave;
use crate::rule::{RuleList, RuleTarget};
use crate::shell::{self, Analysis, Direction, Word};
use crate::Source;
use agenthub_protocol::PermissionEffect::Allow;
use agenthub_tools::PathAccess;
use std::path::PathBuf;

/// The participant's verdict: an allow, a passthrough saying why not when
/// every command's program is on the list, else nothing (it has nothing to
/// say about `npm test`).
pub fn verdict(context: &BashContext<'_>, analysis: &Analysis) -> Option<Verdict> {
    let listed = shell::read_only_programs();
    let all_listed = !analysis.commands.is_empty()
        && analysis
            .commands
            .iter()
            .all(|command| command.name().is_some_and(|name| listed.contains(&name)));
    if !all_listed {
        return None;
    }
    Some(match why_not(context, analysis) {
        None => Verdict::new(
            Source::ReadOnlyCommand,
            Allow,
            Weight::Binding,
            "every command is on the read-only list and reads only inside the workspace",
        ),
        Some(why) => Verdict::passthrough(
            Source::ReadOnlyCommand,
            format!("not a read-only command: {why}"),
        ),
    })
}

/// Why the line is not a read-only command, if it is not.
fn why_not(context: &BashContext<'_>, analysis: &Analysis) -> Option<String> {
    if let Some(error) = &analysis.parse_error {
        return Some(error.clone());
    }
    if let Some(hazard) = analysis.hazards.first() {
        return Some(hazard.clone());
    }
    if let Some(why) = git_outside_a_repository(context, analysis) {
        return Some(why);
    }
    let mut words: Vec<Word> = Vec::new();
    for command in &analysis.commands {
        match shell::read_only_paths(command) {
            Ok(found) => words.extend(found),
            Err(why) => return Some(why),
        }
    }
    for redirect in &analysis.redirects {
        match redirect.direction {
            Direction::Read => words.push(redirect.target.clone()),
            Direction::Write => return Some(format!("`{}` writes a file", redirect.source)),
        }
    }
    if let Some(rule) = read_rules(context).find(|rule| covers_tool(rule, read())) {
        return Some(format!("the rule {} guards every read", rule.describe()));
    }
    let guarded = guarded_paths(context);
    if let Some(why) = git_history_problem(context, analysis, &guarded) {
        return Some(why);
    }
    words
        .iter()
        .find_map(|word| path_problem(context, word, &guarded))
}

/// What prints committed file contents (`git diff HEAD~1`, `git log -p`,
/// `git show HEAD`) without a pathspec after `--` may print any file git
/// tracks: a guarded file that git tracks keeps it asking. An untracked one
/// (`.env` in `.gitignore`) is never printed.
const GIT_PRINTS_CONTENTS: [&str; 3] = ["diff", "log", "show"];

fn git_history_problem(
    context: &BashContext<'_>,
    analysis: &Analysis,
    guarded: &[PathBuf],
) -> Option<String> {
    let prints_any_file = analysis.commands.iter().any(|command| {
        let words: Vec<&str> = command
            .words
            .iter()
            .map(|word| word.text.as_str())
            .collect();
        let subcommand = words.iter().skip(1).find(|word| !word.starts_with('-'));
        command.name() == Some("git")
            && subcommand.is_some_and(|name| GIT_PRINTS_CONTENTS.contains(name))
            && !words.contains(&"--")
    });
    if !prints_any_file {
        return None;
    }
    let root = context.workspace.root();
    let tracked = TrackedNames::read(&root.join(".git/index"));
    guarded
        .iter()
        .filter_map(|path| path.strip_prefix(root).ok())
        .find(|relative| tracked.may_hold(relative))
        .map(|relative| {
            format!(
                "git may print {}, which git tracks and a Read rule guards",
                relative.display()
            )
        })
}

/// The path names in git's index, as far as a plain reading tells: index
/// versions 2 and 3 store each name whole; anything else (version 4's
/// compressed names, an unreadable index) may hold any name.
struct TrackedNames(Option<Vec<u8>>);

impl TrackedNames {
    fn read(index: &std::path::Path) -> TrackedNames {
        let bytes = std::fs::read(index).ok();
        let plain = bytes.as_ref().is_some_and(|bytes| {
            bytes.starts_with(b"DIRC") && matches!(bytes.get(4..8), Some([0, 0, 0, 2 | 3]))
        });
        TrackedNames(bytes.filter(|_| plain))
    }

    fn may_hold(&self, relative: &std::path::Path) -> bool {
        let Some(bytes) = &self.0 else {
            return true;
        };
        let name = relative.as_os_str().as_encoded_bytes();
        // The file itself (`name\0`) or a file below the folder (`name/`).
        relative.components().count() == 0
            || [b'\0', b'/'].iter().any(|end| {
                let mut entry = name.to_vec();
                entry.push(*end);
                bytes
                    .windows(entry.len())
                    .any(|window| window == entry.as_slice())
            })
    }
}

/// git run where the workspace has no `.git` of its own looks for a
/// repository in the workspace folder itself (a bare repository's `HEAD`,
/// `objects/`, `refs/` and `config`: ordinary files anyone may write), and
/// a `config` planted there runs programs (`core.fsmonitor`,
/// `diff.external`). So git is read-only only beside a `.git`.
fn git_outside_a_repository(context: &BashContext<'_>, analysis: &Analysis) -> Option<String> {
    let runs_git = analysis
        .commands
        .iter()
        .any(|command| command.name() == Some("git"));
    let root = context.workspace.root();
    match runs_git && std::fs::symlink_metadata(root.join(".git")).is_err() {
        true => Some(format!(
            "git in {}, which has no .git of its own, may read a configuration from the folder itself",
            root.display()
        )),
        false => None,
    }
}

fn read() -> Subject<'static> {
    Subject::path(None, PathAccess::Read)
}

/// Deny and ask rules: what a read-only command must not read past.
fn read_rules<'c>(context: &'c BashContext<'_>) -> impl Iterator<Item = &'c crate::Rule> {
    context
        .config
        .rules_in(RuleList::Deny)
        .chain(context.config.rules_in(RuleList::Ask))
}

/// The existing paths `Read(…)` deny and ask rules name (what the sandbox hides).
fn guarded_paths(context: &BashContext<'_>) -> Vec<PathBuf> {
    let roots = context.workspace.roots();
    read_rules(context)
        .filter_map(|rule| match &rule.target {
            RuleTarget::Path { tool, pattern } if tool == "Read" => {
                Some(pattern.existing_matches(&roots))
            }
            _ => None,
        })
        .flatten()
        .collect()
}

/// Why the command may not read `word` unasked, if it may not.
fn path_problem(context: &BashContext<'_>, word: &Word, guarded: &[PathBuf]) -> Option<String> {
    let text = &word.text;
    if !word.literal {
        return Some(format!("`{text}` is not a plain word"));
    }
    let shown = expand(context, text).display().to_string();
    let resolved = match context.workspace.check_inside(&shown) {
        Ok(resolved) => resolved,
        Err(error) => return Some(format!("it reads {text}: {error}")),
    };
    if pattern_may_leave(text) {
        return Some(format!(
            "the glob {text} may name a path outside the workspace"
        ));
    }
    if let Some(rule) = path_rule(context, text, &[PathAccess::Read]) {
        return Some(format!("it reads {text}: {}", rule.reason));
    }
    let (base, globs) = split_glob(text);
    let bases = match context
        .workspace
        .check_inside(&expand(context, &base).display().to_string())
    {
        Ok(base) => [base.lexical, base.real],
        Err(_) => [resolved.lexical, resolved.real],
    };
    if let Some(problem) = glob_problem(context, text, &bases[0], &globs) {
        return Some(problem);
    }
    guarded
        .iter()
        .find(|path| bases.iter().any(|base| may_reach(base, &globs, path)))
        .map(|path| {
            format!(
                "{text} may read {}, which a Read rule guards",
                path.display()
            )
        })
}

/// The most paths a glob is expanded to before the command asks instead.
const MOST_GLOB_MATCHES: usize = 2_000;

/// Why a glob may not be read unasked: the shell follows a link the glob
/// matches (`cat *` with `creds -> ~/.aws/credentials`), so every match
/// must lie inside the workspace once links are followed.
fn glob_problem(
    context: &BashContext<'_>,
    text: &str,
    base: &std::path::Path,
    globs: &[&str],
) -> Option<String> {
    if globs.is_empty() {
        return None;
    }
    let Some(matches) = glob_matches(base, globs) else {
        return Some(format!("the glob {text} names too many paths to check"));
    };
    matches.iter().find_map(|path| {
        let shown = path.display().to_string();
        context
            .workspace
            .check_inside(&shown)
            .err()
            .map(|error| format!("the glob {text} reaches {shown}: {error}"))
    })
}

/// The existing paths below `base` that the glob components may match
/// (matching too much only keeps a command asking); `None` past
/// [`MOST_GLOB_MATCHES`].
fn glob_matches(base: &std::path::Path, globs: &[&str]) -> Option<Vec<PathBuf>> {
    let mut level = vec![base.to_path_buf()];
    for glob in globs {
        let mut next = Vec::new();
        for folder in &level {
            let Ok(entries) = std::fs::read_dir(folder) else {
                continue;
            };
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if glob_may_match(glob, &name) {
                    next.push(entry.path());
                }
                if next.len() > MOST_GLOB_MATCHES {
                    return None;
                }
            }
        }
        level = next;
    }
    Some(level)
}

/// The part of a path before its first glob component, and the components
/// from there on (`src/*/x.rs` → `src`, `[*, x.rs]`).
fn split_glob(text: &str) -> (String, Vec<&str>) {
    let parts: Vec<&str> = text.split('/').collect();
    let fixed = parts.iter().take_while(|part| !is_glob(part)).count();
    let base = match parts[..fixed].join("/") {
        base if base.is_empty() && text.starts_with('/') => "/".to_owned(),
        base if base.is_empty() => ".".to_owned(),
        base => base,
    };
    let globs = parts[fixed..]
        .iter()
        .copied()
        .filter(|part| !part.is_empty())
        .collect();
    (base, globs)
}

fn is_glob(part: &str) -> bool {
    part.contains(['*', '?', '['])
}

/// Whether `base` followed by the glob components `globs` may name
/// `guarded`, a folder above it, or a path inside it (a command may read a
/// folder it is given whole).
fn may_reach(base: &std::path::Path, globs: &[&str], guarded: &std::path::Path) -> bool {
    let Ok(rest) = guarded.strip_prefix(base) else {
        return false;
    };
    rest.components()
        .zip(globs)
        .all(|(name, glob)| glob_may_match(glob, &name.as_os_str().to_string_lossy()))
}

/// Whether the shell glob `glob` may match the file name `name`, as bash
/// matches without `dotglob`: a leading `.` only by a leading `.`. A
/// bracket expression counts as any one character (matching too much
/// only keeps a command asking).
fn glob_may_match(glob: &str, name: &str) -> bool {
    if name.starts_with('.') && !glob.starts_with('.') {
        return false;
    }
    let glob: Vec<char> = bracketless(glob);
    let name: Vec<char> = name.chars().collect();
    wildcard(&glob, &name)
}

/// `[…]` replaced by `?`.
fn bracketless(glob: &str) -> Vec<char> {
    let mut out = Vec::new();
    let mut chars = glob.chars();
    while let Some(character) = chars.next() {
        match character {
            '[' => {
                out.push('?');
                chars.by_ref().skip(1).find(|c| *c == ']');
            }
            other => out.push(other),
        }
    }
    out
}

fn wildcard(glob: &[char], name: &[char]) -> bool {
    match glob.split_first() {
        None => name.is_empty(),
        Some(('*', rest)) => (0..=name.len()).any(|skip| wildcard(rest, &name[skip..])),
        Some(('?', rest)) => !name.is_empty() && wildcard(rest, &name[1..]),
        Some((c, rest)) => name.first() == Some(c) && wildcard(rest, &name[1..]),
    }
}

#[cfg(test)]
mod tests {
    use super::{glob_may_match, may_reach, split_glob};
    use std::path::Path;

    #[test]
    fn a_glob_splits_at_its_first_glob_component() {
        let cases: [(&str, (&str, &[&str])); 5] = [
            ("src/*.rs", ("src", &["*.rs"])),
            ("*.rs", (".", &["*.rs"])),
            (".e*", (".", &[".e*"])),
            ("a/b/c", ("a/b/c", &[])),
            ("a/[bc]/d", ("a", &["[bc]", "d"])),
        ];
        for (text, (base, globs)) in cases {
            assert_eq!(
                split_glob(text),
                (base.to_owned(), globs.to_vec()),
                "{text}"
            );
        }
    }

    #[test]
    fn globs_match_names_as_bash_does_without_dotglob() {
        let cases = [
            ("*.rs", "a.rs", true),
            ("*.rs", ".env", false),
            ("*", ".env", false),
            (".e*", ".env", true),
            ("[.]env", ".env", false),
            ("?nv", "env", true),
            ("a[bc]d", "acd", true),
            ("x*y", "xay", true),
            ("x*y", "xa", false),
        ];
        for (glob, name, expected) in cases {
            assert_eq!(glob_may_match(glob, name), expected, "{glob} {name}");
        }
    }

    #[test]
    fn a_path_reaches_what_it_names_what_is_inside_it_and_what_holds_it() {
        let base = Path::new("/w");
        let cases: [(&[&str], &str, bool); 6] = [
            (&[], "/w/.env", true),
            (&["*.rs"], "/w/.env", false),
            (&[".*"], "/w/.env", true),
            (&["*"], "/w/sub/.env", true),
            (&["*", "*.rs"], "/w/sub/.env", false),
            (&["*"], "/elsewhere/.env", false),
        ];
        for (globs, guarded, expected) in cases {
            assert_eq!(
                may_reach(base, globs, Path::new(guarded)),
                expected,
                "{globs:?} {guarded}"
            );
        }
    }
}
