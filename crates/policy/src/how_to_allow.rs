//! How to allow a call that asked when nobody could answer (contract §12,
//! "Headless asks"): the allow rules or the permission mode under which the
//! same call would have run without asking.
//!
//! It is a typed suggestion, never wording: a front end says it in its own
//! terms (the CLI as `--allow '…'` or `--permission-mode …`). It must never
//! suggest more than the call needs — a rule as narrow as the command's first
//! words, never `bypassPermissions` — and never suggest what would not work:
//! an ask that no rule or mode can answer says so.

use crate::shell::{self, ShellReport};
use crate::{CallView, Decision, PermissionMode, Source};

/// What would let a call that asked run without asking.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HowToAllow {
    /// These allow rules (Claude Code syntax) would let it run: one per
    /// command of a shell command line (`Bash(npm test:*)`), the host of a
    /// fetch (`WebFetch(domain:example.com)`), or the tool's name for any
    /// other tool (`Echo`).
    Rules(Vec<String>),
    /// This permission mode would let it run (`acceptEdits` for a tool that
    /// writes files).
    Mode(PermissionMode),
    /// No rule or mode can: an explicit ask rule, a protected path, a hook or
    /// the shell analysis asked, and only a person answering can allow it.
    OnlyAPerson,
}

/// Characters that would change a rule's meaning (wildcards, its brackets)
/// or break the quoting a front end puts around it.
const UNSAFE_IN_RULE: &[char] = &['*', '(', ')', '\'', '"', '\\', '`', '$'];

impl HowToAllow {
    /// What would have let `call` run, given the `decision` that asked.
    /// Only a tool's default ask can be answered by a rule or a mode.
    pub fn for_ask(call: CallView<'_>, decision: &Decision) -> HowToAllow {
        HowToAllow::for_ask_given(call, decision, &|_| false)
    }

    /// [`HowToAllow::for_ask`], leaving out the commands of a shell command
    /// line that `already_allowed` (given a command's words as allow rules
    /// see them, e.g. `git status`) says a rule allows already.
    pub fn for_ask_given(
        call: CallView<'_>,
        decision: &Decision,
        already_allowed: &dyn Fn(&str) -> bool,
    ) -> HowToAllow {
        if decision.source != Source::Default {
            return HowToAllow::OnlyAPerson;
        }
        match call.capabilities.command(call.input) {
            Some(Ok(command)) => command_rules(call.tool, command, already_allowed),
            Some(Err(_)) => HowToAllow::OnlyAPerson,
            None if call.capabilities.url_field.is_some() => fetch_rule(call),
            None if call.capabilities.writes_paths() => {
                HowToAllow::Mode(PermissionMode::AcceptEdits)
            }
            None => HowToAllow::Rules(vec![call.tool.to_owned()]),
        }
    }
}

/// `WebFetch(domain:HOST)` for the URL's host (the rule keyword, which
/// speaks about every fetch tool); a URL that cannot be read has none.
fn fetch_rule(call: CallView<'_>) -> HowToAllow {
    let host = call
        .capabilities
        .url(call.input)
        .and_then(Result::ok)
        .and_then(|url| agenthub_tools::fetch_destination(url).ok())
        .map(|target| target.destination.host());
    match host {
        Some(host) if safe(&host) => HowToAllow::Rules(vec![format!(
            "{}(domain:{host})",
            crate::rule::FETCH_KEYWORD
        )]),
        _ => HowToAllow::OnlyAPerson,
    }
}

/// `Tool(<first words>:*)` for each command of the line not yet allowed,
/// without repeats.
fn command_rules(tool: &str, command: &str, already_allowed: &dyn Fn(&str) -> bool) -> HowToAllow {
    let ShellReport::Analysed(analysis) = shell::analyse(command) else {
        return HowToAllow::OnlyAPerson;
    };
    if !analysis.hazards.is_empty() || analysis.parse_error.is_some() {
        return HowToAllow::OnlyAPerson;
    }
    let mut rules: Vec<String> = Vec::new();
    for simple in &analysis.commands {
        let Ok(form) = shell::allow_form(simple) else {
            return HowToAllow::OnlyAPerson;
        };
        if already_allowed(&form) {
            continue;
        }
        let Some(pattern) = pattern(&form).filter(|_| shell::exec_hazard(&form).is_none()) else {
            return HowToAllow::OnlyAPerson;
        };
        let rule = format!("{tool}({pattern})");
        if !rules.contains(&rule) {
            rules.push(rule);
        }
    }
    if rules.is_empty() {
        return HowToAllow::OnlyAPerson;
    }
    HowToAllow::Rules(rules)
}

/// Commands that destroy data or take away access: allowing one by its name
/// (`Bash(rm:*)`) would allow every use of it, so the hint names the exact
/// command instead (`Bash(rm -rf build)`).
const DESTRUCTIVE: &[&str] = &[
    "rm", "rmdir", "shred", "dd", "mkfs", "truncate", "chmod", "chown", "chgrp", "kill", "pkill",
    "killall",
];

/// What goes between the rule's brackets: the exact command for a
/// destructive one; else the command's name, and its first argument when
/// that looks like a subcommand (`npm test`, `cargo build`), not an option, a
/// path or a URL, as a prefix (`:*`).
fn pattern(form: &str) -> Option<String> {
    let mut words = form.split_whitespace();
    let name = words.next().filter(|name| safe(name))?;
    if DESTRUCTIVE.contains(&name) {
        return Some(form.to_owned()).filter(|form| safe(form));
    }
    Some(match words.next().filter(|word| subcommand(word)) {
        Some(subcommand) => format!("{name} {subcommand}:*"),
        None => format!("{name}:*"),
    })
}

fn safe(word: &str) -> bool {
    !word.contains(UNSAFE_IN_RULE)
}

fn subcommand(word: &str) -> bool {
    word.starts_with(|first: char| first.is_ascii_alphabetic())
        && word
            .chars()
            .all(|letter| letter.is_ascii_alphanumeric() || letter == '-' || letter == '_')
}
