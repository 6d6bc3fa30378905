//! The participants for a shell command (the field a tool declares as its
//! shell command: Bash's `command`), one verdict per sub-command and per
//! finding. `Bash` rules speak about every such tool.
//!
//! - A deny (ask) rule matching any form of any sub-command — inside `$(…)`,
//!   subshells, `bash -c` scripts included — denies (asks for) the whole call.
//! - A literal argument or redirection target that a path deny rule covers
//!   (`cat .env` with `Read(./.env)` denied) denies the whole call.
//! - An output redirection, and every file a command writes (`cp`, `tee`,
//!   `git config`, …), is a file write (see [`super::writes`]): outside the
//!   workspace it is denied as `workspace-boundary`, onto a protected path it
//!   asks in every mode but bypassPermissions.
//! - The call is allowed by rules only if it parses, contains nothing outside
//!   the plain grammar, and *every* sub-command matches an allow rule (or a
//!   rule allows the whole Bash tool).
//! - A command that does not parse asks (binding); one refused unread
//!   (NUL, too long, too many commands) is denied.

use super::files::matched;
use super::rules::{covers_tool, path_matches_any, Subject};
use super::verdict::{Verdict, Weight};
use crate::rule::{Rule, RuleList, RuleTarget};
use crate::shell::{self, ShellReport, SimpleCommand};
use crate::{PolicyConfig, Source};
use agenthub_protocol::PermissionEffect::{Allow, Ask, Deny};
use agenthub_tools::{PathAccess, Workspace};
use std::path::{Path, PathBuf};

/// What Bash's participants need besides the command.
pub struct BashContext<'a> {
    pub config: &'a PolicyConfig,
    pub workspace: &'a Workspace,
    pub home: Option<&'a Path>,
    /// The tool whose declared shell command this is.
    pub tool: &'a str,
}

pub fn verdicts(context: &BashContext<'_>, command: &str) -> Vec<Verdict> {
    let mut verdicts = tool_wide(context);
    let analysis = match shell::analyse(command) {
        ShellReport::Refused(reason) => {
            verdicts.push(Verdict::new(
                Source::ShellAnalysis,
                Deny,
                Weight::Binding,
                reason,
            ));
            return verdicts;
        }
        ShellReport::Analysed(analysis) => analysis,
    };
    if let Some(error) = &analysis.parse_error {
        verdicts.push(Verdict::new(
            Source::ShellAnalysis,
            Ask,
            Weight::Binding,
            format!("{error}; a command that does not parse is never allowed without asking"),
        ));
    }
    verdicts.extend(super::writes::verdicts(context, &analysis));
    // A `cd` in a command that writes hides where the writes land: only
    // the person answers it, for this call.
    let writes = analysis.changes_directory && super::writes::writes_anything(&analysis);
    verdicts.extend(analysis.hazards.iter().map(|hazard| {
        let verdict = Verdict::new(
            Source::ShellAnalysis,
            Ask,
            Weight::Soft,
            format!("{hazard}: never allowed by a rule"),
        );
        match writes {
            true => verdict.this_call_only(),
            false => verdict,
        }
    }));
    let mut all_allowed = !analysis.commands.is_empty();
    for command in &analysis.commands {
        let verdict = command_verdict(context, command);
        all_allowed &= verdict.effect == Some(Allow);
        verdicts.push(verdict);
        verdicts.extend(argument_denials(context, command));
    }
    if all_allowed && analysis.hazards.is_empty() && analysis.parse_error.is_none() {
        verdicts.push(whole_command_allowed(&verdicts));
    }
    verdicts.extend(super::read_only::verdict(context, &analysis));
    verdicts
}

/// The allow of a command whose every sub-command an allow rule covers,
/// naming those rules (each once, in order) so the audit can show them.
fn whole_command_allowed(verdicts: &[Verdict]) -> Verdict {
    let mut rules: Vec<&str> = Vec::new();
    for rule in verdicts
        .iter()
        .filter(|verdict| verdict.effect == Some(Allow) && verdict.weight == Weight::Detail)
        .filter_map(|verdict| verdict.rule.as_deref())
    {
        if !rules.contains(&rule) {
            rules.push(rule);
        }
    }
    Verdict::new(
        Source::Rule,
        Allow,
        Weight::Binding,
        "every sub-command is allowed by a rule",
    )
    .by_rule(rules.join(", "))
}

/// Rules naming the whole tool, or `Bash` (every tool's shell command).
fn tool_wide(context: &BashContext<'_>) -> Vec<Verdict> {
    [
        (RuleList::Deny, Deny),
        (RuleList::Ask, Ask),
        (RuleList::Allow, Allow),
    ]
    .into_iter()
    .filter_map(|(list, effect)| {
        context
            .config
            .rules_in(list)
            .find(|rule| covers_tool(rule, Subject::shell(context.tool)))
            .map(|rule| matched(rule, effect, Weight::Binding, context.tool.to_owned()))
    })
    .collect()
}

fn bash_rule<'c>(config: &'c PolicyConfig, list: RuleList, forms: &[String]) -> Option<&'c Rule> {
    config.rules_in(list).find(|rule| match &rule.target {
        RuleTarget::Bash(pattern) => forms.iter().any(|form| pattern.matches(form)),
        _ => false,
    })
}

/// Whether an allow rule covers a command given as allow rules see it
/// (its [`shell::allow_form`]).
pub fn allowed_by_rule(config: &PolicyConfig, form: &str) -> bool {
    bash_rule(config, RuleList::Allow, &[form.to_owned()]).is_some()
}

/// Deny, ask, else allow rules for one sub-command.
fn command_verdict(context: &BashContext<'_>, command: &SimpleCommand) -> Verdict {
    let shown = format!("`{}`", command.source);
    let forms = shell::deny_forms(command);
    if let Some(rule) = bash_rule(context.config, RuleList::Deny, &forms) {
        return matched(rule, Deny, Weight::Binding, shown.clone()).about(&command.source);
    }
    if let Some(rule) = bash_rule(context.config, RuleList::Ask, &forms) {
        return matched(rule, Ask, Weight::Binding, shown.clone()).about(&command.source);
    }
    let form = match shell::allow_form(command) {
        Ok(form) => form,
        Err(why) => {
            return soft(
                Source::ShellAnalysis,
                format!("{why}: never allowed by a rule"),
                command,
            )
        }
    };
    if let Some(hazard) = shell::exec_hazard(&form) {
        return soft(
            Source::ShellAnalysis,
            format!("{hazard}: never allowed by a rule"),
            command,
        );
    }
    match bash_rule(context.config, RuleList::Allow, &[form]) {
        Some(rule) => matched(rule, Allow, Weight::Detail, shown).about(&command.source),
        None => soft(
            Source::Default,
            format!(
                "{shown} matches no allow rule; {} asks by default",
                context.tool
            ),
            command,
        ),
    }
}

fn soft(source: Source, reason: String, command: &SimpleCommand) -> Verdict {
    Verdict::new(source, Ask, Weight::Soft, reason).about(&command.source)
}

/// Literal arguments that a path deny or ask rule covers (`cat .env`).
fn argument_denials(context: &BashContext<'_>, command: &SimpleCommand) -> Vec<Verdict> {
    command
        .words
        .iter()
        .skip(1)
        .filter(|word| word.literal && !word.text.starts_with('-'))
        .filter_map(|word| {
            path_rule(context, &word.text, &[PathAccess::Read, PathAccess::Write])
                .map(|v| v.about(&command.source))
        })
        .take(1)
        .collect()
}

/// The first deny (else ask) path rule about reading or writing (`accesses`)
/// that covers `text` as a path.
pub(super) fn path_rule(
    context: &BashContext<'_>,
    text: &str,
    accesses: &[PathAccess],
) -> Option<Verdict> {
    let lexical = expand(context, text);
    let real = lexical.canonicalize().unwrap_or_else(|_| lexical.clone());
    let paths: [&Path; 2] = [&lexical, &real];
    for (list, effect) in [(RuleList::Deny, Deny), (RuleList::Ask, Ask)] {
        let found = context.config.rules_in(list).find(|rule| {
            accesses
                .iter()
                .any(|access| path_matches_any(rule, Subject::path(None, *access), &paths))
        });
        if let Some(rule) = found {
            return Some(matched(
                rule,
                effect,
                Weight::Binding,
                format!("the path {text}"),
            ));
        }
    }
    None
}

/// A shell word as a path: `~` and `~/` are the home directory (as bash expands it),
/// relative paths are relative to the workspace root. The expansion is the
/// file tools' own ([`Workspace::resolve`]), so a path means the same in a
/// Bash argument and in a Read or Write.
pub(super) fn expand(context: &BashContext<'_>, text: &str) -> PathBuf {
    match context.home {
        Some(home) => context.workspace.clone().with_home(home).resolve(text),
        None => context.workspace.resolve(text),
    }
}
