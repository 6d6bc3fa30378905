//! The participants for every path a tool declares it reads or writes (Read
//! `file_path`, Glob `path` defaulting to the workspace root, …): the
//! workspace boundary, protected paths (written paths; they ask in every
//! mode but bypassPermissions) and path rules.
//!
//! Rules are matched against the path as named and against where it really
//! lands (and every symlink on the way): a deny or ask rule applies if it
//! matches *any* of them, an allow rule only if it matches *both* the named and
//! the real path — so a link cannot launder a path past a rule.

use super::rules::{covers_tool, path_matches_all, path_matches_any, Subject};
use super::verdict::{Verdict, Weight};
use crate::protected::protected_name;
use crate::rule::{Rule, RuleList};
use crate::{PermissionMode, PolicyConfig, PolicyError, Source};
use agenthub_protocol::PermissionEffect::{Allow, Ask, Deny};
use agenthub_tools::{DeclaredPath, PathAccess, ResolvedPath, ToolCapabilities, Workspace};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The declared paths of a call's input (defaults applied). A declared field
/// that is missing without a default, or is not a string, cannot be checked:
/// an evaluation error, never a pass.
pub fn declared_paths<'a>(
    tool: &str,
    capabilities: &ToolCapabilities,
    input: &'a Value,
) -> Result<Vec<DeclaredPath<'a>>, PolicyError> {
    capabilities
        .paths(input)
        .map_err(|error| PolicyError::Evaluation(format!("{tool} input {error}")))
}

/// Every declared path's participants. With more than one path, a rule
/// allows the call only if it allows every path: an allow for one path is
/// then kept as a detail unless all are allowed (as for Bash sub-commands).
pub fn all_verdicts(
    config: &PolicyConfig,
    tool: &str,
    paths: &[DeclaredPath<'_>],
    workspace: &Workspace,
) -> Vec<Verdict> {
    let per_path: Vec<Vec<Verdict>> = paths
        .iter()
        .map(|path| verdicts(config, tool, path.access, path.path, workspace))
        .collect();
    let all_allowed = per_path
        .iter()
        .all(|verdicts| verdicts.iter().any(rule_allows));
    let mut merged: Vec<Verdict> = per_path.into_iter().flatten().collect();
    if paths.len() > 1 && !all_allowed {
        for verdict in merged.iter_mut().filter(|verdict| rule_allows(verdict)) {
            verdict.weight = Weight::Detail;
        }
    }
    merged
}

fn rule_allows(verdict: &Verdict) -> bool {
    verdict.source == Source::Rule && verdict.effect == Some(Allow)
}

/// Boundary, protected path and rules for one path of a file tool.
pub fn verdicts(
    config: &PolicyConfig,
    tool: &str,
    access: PathAccess,
    path: &str,
    workspace: &Workspace,
) -> Vec<Verdict> {
    let resolved = match workspace.check_inside(path) {
        Ok(resolved) => resolved,
        Err(error) => {
            return vec![Verdict::new(
                Source::WorkspaceBoundary,
                Deny,
                Weight::Binding,
                error.to_string(),
            )
            .about(path)]
        }
    };
    let shown = resolved.lexical.display().to_string();
    let mut verdicts = vec![Verdict::passthrough(
        Source::WorkspaceBoundary,
        format!("{shown} is inside the workspace"),
    )
    .about(&shown)];
    if access == PathAccess::Write {
        verdicts.extend(protected(config, &resolved, workspace));
    }
    verdicts.push(rule_verdict(config, tool, access, &resolved).about(shown));
    verdicts
}

/// The protected-path verdict on a write of `resolved` by a file tool.
fn protected(
    config: &PolicyConfig,
    resolved: &ResolvedPath,
    workspace: &Workspace,
) -> Option<Verdict> {
    let mode = config.mode;
    let name = protected_name_of(resolved, workspace, &config.protected_files)?;
    Some(protected_write(
        mode,
        format!(
            "{} is a protected path ({name})",
            resolved.lexical.display()
        ),
    ))
}

/// The protected name a resolved path is or lies under, as named or where
/// it really lands; or, for one of `pinned` (the files trust pinned because
/// project hooks or MCP servers run them), that it is one.
pub(super) fn protected_name_of(
    resolved: &ResolvedPath,
    workspace: &Workspace,
    pinned: &[PathBuf],
) -> Option<String> {
    let roots = workspace.roots();
    let canonical: Vec<_> = roots
        .iter()
        .map(|root| root.canonicalize().unwrap_or_else(|_| root.clone()))
        .collect();
    protected_name(&resolved.lexical, &roots)
        .or_else(|| protected_name(&resolved.real, &canonical))
        .or_else(|| {
            [&resolved.lexical, &resolved.real]
                .iter()
                .any(|path| pinned.contains(path))
                .then(|| "a file project hooks or MCP servers run, pinned by trust".to_owned())
        })
}

/// A write to a protected path (`what` names it): a binding ask in every
/// mode but bypassPermissions (contract §11), where it is only shown. dontAsk
/// turns the ask into a deny in the merge.
pub(super) fn protected_write(mode: PermissionMode, what: String) -> Verdict {
    match mode {
        PermissionMode::BypassPermissions => Verdict::passthrough(
            Source::ProtectedPath,
            format!("{what}: bypassPermissions mode writes it without asking"),
        ),
        _ => Verdict::new(
            Source::ProtectedPath,
            Ask,
            Weight::Binding,
            format!("{what}: writing it needs approval in every mode but bypassPermissions"),
        )
        .this_call_only(),
    }
}

/// The first deny, else ask, else allow rule that speaks about this path.
fn rule_verdict(
    config: &PolicyConfig,
    tool: &str,
    access: PathAccess,
    resolved: &ResolvedPath,
) -> Verdict {
    let subject = Subject::path(Some(tool), access);
    let mut every: Vec<&Path> = vec![&resolved.lexical, &resolved.real];
    every.extend(resolved.links.iter().map(|link| link.as_path()));
    let shown = resolved.lexical.display();
    for (list, effect, weight) in [
        (RuleList::Deny, Deny, Weight::Binding),
        (RuleList::Ask, Ask, Weight::Binding),
    ] {
        if let Some(rule) = config
            .rules_in(list)
            .find(|rule| covers_tool(rule, subject) || path_matches_any(rule, subject, &every))
        {
            return matched(rule, effect, weight, format!("{tool} {shown}"));
        }
    }
    let both: [&Path; 2] = [&resolved.lexical, &resolved.real];
    match config
        .rules_in(RuleList::Allow)
        .find(|rule| covers_tool(rule, subject) || path_matches_all(rule, subject, &both))
    {
        Some(rule) => matched(rule, Allow, Weight::Binding, format!("{tool} {shown}")),
        None => Verdict::passthrough(Source::Rule, format!("no rule matches {tool} {shown}")),
    }
}

pub(super) fn matched(
    rule: &Rule,
    effect: agenthub_protocol::PermissionEffect,
    weight: Weight,
    what: String,
) -> Verdict {
    Verdict::new(
        Source::Rule,
        effect,
        weight,
        format!(
            "{what} matches {} rule {}",
            rule.list.as_str(),
            rule.describe()
        ),
    )
    .by_rule(rule.describe())
}
