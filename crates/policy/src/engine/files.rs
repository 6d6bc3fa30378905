//! The file tools' participants: the workspace boundary, protected paths and
//! path rules, for Read/Write/Edit `file_path` and Glob/Grep `path` (default:
//! the workspace root).
//!
//! Rules are matched against the path as named and against where it really
//! lands (and every symlink on the way): a deny or ask rule applies if it
//! matches *any* of them, an allow rule only if it matches *both* the named and
//! the real path — so a link cannot launder a path past a rule.

use super::rules::{covers_tool, path_matches_all, path_matches_any};
use super::verdict::{Verdict, Weight};
use crate::protected::protected_name;
use crate::rule::{Rule, RuleList};
use crate::{PolicyConfig, PolicyError, Source};
use agenthub_protocol::PermissionEffect::{Allow, Ask, Deny};
use agenthub_tools::{ResolvedPath, Workspace};
use serde_json::Value;
use std::path::Path;

/// Whether a file tool reads or writes its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
}

/// A file tool: which input field holds its path, its default, and its access.
#[derive(Debug, Clone, Copy)]
pub struct FileTool {
    pub field: &'static str,
    pub default: Option<&'static str>,
    pub access: Access,
}

pub fn file_tool(name: &str) -> Option<FileTool> {
    let (field, default, access) = match name {
        "Read" => ("file_path", None, Access::Read),
        "Write" | "Edit" => ("file_path", None, Access::Write),
        "Glob" | "Grep" => ("path", Some("."), Access::Read),
        _ => return None,
    };
    Some(FileTool {
        field,
        default,
        access,
    })
}

/// The path argument of a file tool's input.
pub fn path_argument<'a>(
    tool: &str,
    spec: FileTool,
    input: &'a Value,
) -> Result<&'a str, PolicyError> {
    match input.get(spec.field) {
        Some(Value::String(path)) => Ok(path),
        None | Some(Value::Null) => spec.default.ok_or_else(|| {
            PolicyError::Evaluation(format!("{tool} input has no {} to check", spec.field))
        }),
        Some(other) => Err(PolicyError::Evaluation(format!(
            "{tool} input field {} is not a string: {other}",
            spec.field
        ))),
    }
}

/// Boundary, protected path and rules for one path of a file tool.
pub fn verdicts(
    config: &PolicyConfig,
    tool: &str,
    access: Access,
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
    if access == Access::Write {
        verdicts.extend(protected(&resolved, workspace));
    }
    verdicts.push(rule_verdict(config, tool, &resolved).about(shown));
    verdicts
}

fn protected(resolved: &ResolvedPath, workspace: &Workspace) -> Option<Verdict> {
    let roots = workspace.roots();
    let canonical: Vec<_> = roots
        .iter()
        .map(|root| root.canonicalize().unwrap_or_else(|_| root.clone()))
        .collect();
    let name = protected_name(&resolved.lexical, &roots)
        .or_else(|| protected_name(&resolved.real, &canonical))?;
    Some(Verdict::new(
        Source::ProtectedPath,
        Ask,
        Weight::Binding,
        format!(
            "{} is a protected path ({name}): writing it needs approval in every mode",
            resolved.lexical.display()
        ),
    ))
}

/// The first deny, else ask, else allow rule that speaks about this path.
fn rule_verdict(config: &PolicyConfig, tool: &str, resolved: &ResolvedPath) -> Verdict {
    let mut every: Vec<&Path> = vec![&resolved.lexical, &resolved.real];
    every.extend(resolved.links.iter().map(|link| link.as_path()));
    let shown = resolved.lexical.display();
    for (list, effect, weight) in [
        (RuleList::Deny, Deny, Weight::Binding),
        (RuleList::Ask, Ask, Weight::Binding),
    ] {
        if let Some(rule) = config
            .rules_in(list)
            .find(|rule| covers_tool(rule, tool) || path_matches_any(rule, tool, &every))
        {
            return matched(rule, effect, weight, format!("{tool} {shown}"));
        }
    }
    let both: [&Path; 2] = [&resolved.lexical, &resolved.real];
    match config
        .rules_in(RuleList::Allow)
        .find(|rule| covers_tool(rule, tool) || path_matches_all(rule, tool, &both))
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
