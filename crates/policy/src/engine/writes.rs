//! The participants for the files a shell command writes: its output
//! redirections and its commands' write targets (`cp`, `mv`, `ln`, `tee`,
//! `dd of=`, `touch`, `install`, `sed -i`, `git config`: see
//! [`crate::shell::write_targets`]). Each written path is checked as Write's
//! path is: outside the workspace roots it is denied (`workspace-boundary`),
//! a protected path asks in every mode but bypassPermissions (contract §11), and
//! Edit/Write deny and ask rules apply.
//!
//! A target that cannot be checked asks: a word with an expansion softly (as
//! the expansion itself does, so no rule allows it), a glob or `~user` that
//! may name a protected path or leave the workspace as a protected path
//! would. It must never let a written path it can name go unchecked.

use super::bash::{expand, path_rule, BashContext};
use super::files::{protected_name_of, protected_write};
use super::verdict::{Verdict, Weight};
use crate::protected::{pattern_may_be_protected, pattern_may_leave};
use crate::shell::{self, Analysis, Direction, Word, WriteTarget};
use crate::{PermissionMode, Source};
use agenthub_protocol::PermissionEffect::{Ask, Deny};
use agenthub_tools::PathAccess;

/// Redirections first, then each command's write targets and the paths
/// the links it makes lead to, in order.
pub fn verdicts(context: &BashContext<'_>, analysis: &Analysis) -> Vec<Verdict> {
    let mut verdicts = redirects(context, analysis);
    for command in &analysis.commands {
        for target in shell::write_targets(command) {
            verdicts.extend(target_verdicts(context, &command.source, &target));
        }
        for source in shell::link_sources(command) {
            verdicts.extend(link_verdict(context, &command.source, &source));
        }
    }
    verdicts
}

/// Whether `analysis` writes any file (a redirection or a write target).
pub fn writes_anything(analysis: &Analysis) -> bool {
    analysis
        .redirects
        .iter()
        .any(|redirect| redirect.direction != Direction::Read)
        || analysis
            .commands
            .iter()
            .any(|command| !shell::write_targets(command).is_empty())
}

/// A link the command makes to a protected path (or to a word that is not
/// plain) is asked as a write to it: a later write through the link, in
/// the same command, cannot be seen before the link exists. A link out of
/// the workspace is not refused here: writes through it meet the boundary.
fn link_verdict(context: &BashContext<'_>, subject: &str, source: &Word) -> Option<Verdict> {
    let what = format!("`{subject}` makes a link to {}", source.text);
    if !source.literal {
        return Some(unchecked(subject, &what, &source.text));
    }
    let shown = expand(context, &source.text).display().to_string();
    let resolved = context.workspace.check_inside(&shown).ok()?;
    if pattern_may_be_protected(&source.text) {
        return Some(pattern(context.config.mode, &what, &source.text).about(subject));
    }
    let name = protected_name_of(
        &resolved,
        context.workspace,
        &context.config.protected_files,
    )?;
    let head = format!("{what}, a protected path ({name}): writing through it writes there");
    Some(protected_write(context.config.mode, head).about(subject))
}

fn redirects(context: &BashContext<'_>, analysis: &Analysis) -> Vec<Verdict> {
    let mut verdicts = Vec::new();
    for redirect in analysis
        .redirects
        .iter()
        .filter(|redirect| redirect.target.literal)
    {
        let target = &redirect.target.text;
        let subject = &redirect.source;
        if redirect.direction == Direction::Read {
            verdicts
                .extend(path_rule(context, target, &[PathAccess::Read]).map(|v| v.about(subject)));
            continue;
        }
        let what = format!("output redirection `{subject}`");
        verdicts.extend(written(context, target, subject, &what));
    }
    verdicts
}

/// The destination, then (if it passed) each source landing inside it.
fn target_verdicts(context: &BashContext<'_>, source: &str, target: &WriteTarget) -> Vec<Verdict> {
    let what = format!("`{source}`");
    if !target.path.literal {
        return vec![unchecked(source, &what, &target.path.text)];
    }
    let mut verdicts = written(context, &target.path.text, source, &what);
    if verdicts.iter().any(|verdict| verdict.effect.is_some()) {
        return verdicts;
    }
    for inside in &target.sources {
        let name = inside.text.trim_end_matches('/');
        let name = name.rsplit('/').next().unwrap_or(name);
        if !inside.literal {
            verdicts.push(unchecked(source, &what, &inside.text));
        } else if matches!(name, "." | "..") {
            verdicts
                .push(whole_folder(context.config.mode, &what, &target.path.text).about(source));
        } else if !name.is_empty() {
            let path = format!("{}/{name}", target.path.text.trim_end_matches('/'));
            verdicts.extend(written(context, &path, source, &what));
        }
    }
    verdicts
}

/// Boundary, protected path and Edit/Write rules for one written path.
fn written(context: &BashContext<'_>, text: &str, subject: &str, what: &str) -> Vec<Verdict> {
    let path = expand(context, text);
    let shown = path.display().to_string();
    let resolved = match context.workspace.check_inside(&shown) {
        Ok(resolved) => resolved,
        Err(error) => {
            return vec![Verdict::new(
                Source::WorkspaceBoundary,
                Deny,
                Weight::Binding,
                format!("{what}: {error}"),
            )
            .about(subject)]
        }
    };
    if pattern_may_leave(text) || pattern_may_be_protected(text) {
        return vec![pattern(context.config.mode, what, text).about(subject)];
    }
    let mut verdicts = Vec::new();
    if let Some(name) = protected_name_of(
        &resolved,
        context.workspace,
        &context.config.protected_files,
    ) {
        let head = format!("{what} writes {shown}, a protected path ({name})");
        verdicts.push(protected_write(context.config.mode, head).about(subject));
    }
    verdicts.extend(path_rule(context, &shown, &[PathAccess::Write]).map(|v| v.about(subject)));
    verdicts
}

/// A written word with an expansion (or a `.` copied whole): asks as the
/// expansion does, and since it may name a protected path, only the person
/// answers it, for this call.
fn unchecked(subject: &str, what: &str, text: &str) -> Verdict {
    Verdict::new(
        Source::ShellAnalysis,
        Ask,
        Weight::Soft,
        format!(
            "{what} writes {text}, which is not a plain word: where it lands cannot be checked"
        ),
    )
    .this_call_only()
    .about(subject)
}

/// `cp -r dir/. dest`: a folder's whole content lands in `dest` under names
/// no check can see (a `.git/hooks/` among them), so it asks in every mode
/// but bypassPermissions, as a protected path does, and no grant answers it.
fn whole_folder(mode: PermissionMode, what: &str, destination: &str) -> Verdict {
    let head = format!("{what} copies a whole folder's content into {destination}");
    match mode {
        PermissionMode::BypassPermissions => Verdict::passthrough(
            Source::ShellAnalysis,
            format!("{head}: bypassPermissions mode writes it without asking"),
        ),
        _ => Verdict::new(
            Source::ShellAnalysis,
            Ask,
            Weight::Binding,
            format!("{head}, under names that cannot be checked: it needs approval"),
        )
        .this_call_only(),
    }
}

/// A glob or `~user` the shell expands to paths that may be protected (asks
/// but in bypassPermissions) or may leave the workspace (`.*` matches `..`:
/// asks in every mode, as the boundary cannot be checked).
fn pattern(mode: PermissionMode, what: &str, text: &str) -> Verdict {
    let leaves = pattern_may_leave(text);
    let head = format!(
        "{what} writes {text}, which the shell expands and may name {}",
        match leaves {
            true => "a path outside the workspace",
            false => "a protected path",
        }
    );
    match (mode, leaves) {
        (PermissionMode::BypassPermissions, false) => Verdict::passthrough(
            Source::ShellAnalysis,
            format!("{head}: bypassPermissions mode writes it without asking"),
        ),
        _ => Verdict::new(
            Source::ShellAnalysis,
            Ask,
            Weight::Binding,
            format!("{head}: it cannot be checked and needs approval"),
        )
        .this_call_only(),
    }
}
