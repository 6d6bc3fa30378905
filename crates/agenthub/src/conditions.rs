//! Claude Code's `if` on command hooks: one permission rule (`Bash(git *)`,
//! `Edit(*.ts)`, `mcp__memory`) that a call must match for the hook to run,
//! compiled with the permission engine's own rule parser so that a condition
//! and a permission rule mean the same thing.
//!
//! A condition speaks about what a tool declares, as a permission rule does:
//! `Bash(…)` about any tool's declared shell command, `Read(…)` about the
//! paths a tool reads, `Edit(…)`/`Write(…)` about the paths it writes,
//! `WebFetch(domain:…)` about the host of the URL it fetches — never about
//! tool names of its own.
//!
//! Conditions are read the wide way (as deny rules: case-insensitive paths,
//! `dir/**` at any depth, a `Read(…)` also covering written paths) and a
//! shell command that cannot be analysed runs the hook: a condition may make
//! a hook run more often, never skip a gate.

use agenthub_hooks::{CallCondition, ConditionCompiler, ConditionError};
use agenthub_policy::engine::rules::{covers_tool, path_matches_any, Subject};
use agenthub_policy::rule::path::PathAnchors;
use agenthub_policy::rule::{parse_rule, Rule, RuleContext, RuleList, RuleOrigin, RuleTarget};
use agenthub_policy::shell::{analyse, deny_forms, ShellReport};
use agenthub_tools::{PreparedCall, ToolCapabilities, Workspace};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Compiles conditions for one workspace.
pub(crate) struct RuleConditions {
    /// The workspace root (canonical), for relative paths in conditions.
    pub workspace: PathBuf,
    /// The home folder, for `~/` in conditions.
    pub home: Option<PathBuf>,
}

impl ConditionCompiler for RuleConditions {
    fn compile(&self, rule: &str, source: &Path) -> Result<Arc<dyn CallCondition>, ConditionError> {
        let anchors = PathAnchors {
            workspace: self.workspace.clone(),
            settings_root: settings_root(source),
            home: self.home.clone(),
        };
        let context = RuleContext {
            list: RuleList::Deny,
            anchors: &anchors,
            extra_tools: &[],
        };
        let origin = RuleOrigin::Settings {
            file: source.to_path_buf(),
            index: 0,
        };
        let rule = parse_rule(rule, origin, context)?;
        Ok(Arc::new(RuleCondition(rule)))
    }
}

/// The project a settings file belongs to: its folder, or the parent of
/// `.agenthub/` and `.claude/`.
fn settings_root(source: &Path) -> PathBuf {
    let folder = source.parent().unwrap_or(source);
    match folder.file_name().and_then(|name| name.to_str()) {
        Some(".agenthub" | ".claude") => folder.parent().unwrap_or(folder).to_path_buf(),
        _ => folder.to_path_buf(),
    }
}

struct RuleCondition(Rule);

impl CallCondition for RuleCondition {
    fn matches(&self, call: &PreparedCall, workspace: &Path) -> bool {
        let tool = call.name();
        let capabilities = call.definition().capabilities();
        match &self.0.target {
            RuleTarget::Tool(_) | RuleTarget::McpServer(_) => subjects(tool, capabilities)
                .iter()
                .any(|subject| covers_tool(&self.0, *subject)),
            RuleTarget::Bash(pattern) => capabilities
                .command(call.input())
                .is_some_and(|command| bash_matches(command.ok(), |form| pattern.matches(form))),
            RuleTarget::Path { .. } => call_paths(call, workspace)
                .iter()
                .any(|(subject, path)| path_matches_any(&self.0, *subject, &[path])),
            RuleTarget::Subagent(name) => capabilities.subagent(call.input()) == Some(name),
            RuleTarget::Skill(name) => capabilities.skill(call.input()) == Some(name),
            RuleTarget::Domain(domain) => capabilities.url(call.input()).is_some_and(|url| {
                // A URL that cannot be read runs the hook (never skip a gate).
                match url.ok().map(agenthub_tools::fetch_destination) {
                    Some(Ok(target)) => domain.matches(&target.destination),
                    _ => true,
                }
            }),
            RuleTarget::Inert { .. } => false,
        }
    }
}

/// The parts of a tool a tool-name rule may speak about: the whole tool, its
/// shell command, the paths it reads and writes.
fn subjects<'a>(tool: &'a str, capabilities: &ToolCapabilities) -> Vec<Subject<'a>> {
    let mut subjects = vec![Subject::whole(tool)];
    if capabilities.shell_command.is_some() {
        subjects.push(Subject::shell(tool));
    }
    if capabilities.url_field.is_some() {
        subjects.push(Subject::url(tool));
    }
    subjects.extend(
        capabilities
            .path_fields()
            .map(|(_, access)| Subject::path(Some(tool), access)),
    );
    subjects
}

/// Whether any form of any sub-command matches (inside `$(…)`, after `A=b`
/// assignments, in `bash -c` scripts); a command that is missing or cannot
/// be analysed matches.
fn bash_matches(command: Option<&str>, matches: impl Fn(&str) -> bool) -> bool {
    let Some(command) = command else {
        return true;
    };
    match analyse(command) {
        ShellReport::Refused(_) => true,
        ShellReport::Analysed(analysis) if analysis.parse_error.is_some() => true,
        ShellReport::Analysed(analysis) => analysis
            .commands
            .iter()
            .any(|simple| deny_forms(simple).iter().any(|form| matches(form))),
    }
}

/// Every path the call's tool declares, resolved against the workspace, with
/// what a path rule is asked about it (defaults applied; a field that is not
/// a string is left out).
fn call_paths<'a>(call: &'a PreparedCall, workspace: &Path) -> Vec<(Subject<'a>, PathBuf)> {
    let mut resolver = Workspace::new(workspace.to_path_buf());
    if let Some(home) = crate::configuration::home() {
        // `~` means what it means to the tool that will run.
        resolver = resolver.with_home(home);
    }
    call.definition()
        .capabilities()
        .path_fields()
        .filter_map(|(field, access)| {
            let path = field.value(call.input()).ok()?;
            Some((
                Subject::path(Some(call.name()), access),
                resolver.resolve(path),
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenthub_tools::builtin::{Bash, Echo, Read, Write};
    use agenthub_tools::{Tool, ToolDefinition};
    use serde_json::{json, Value};

    fn condition(rule: &str) -> Arc<dyn CallCondition> {
        let compiler = RuleConditions {
            workspace: PathBuf::from("/w"),
            home: None,
        };
        compiler
            .compile(rule, Path::new("/w/.agenthub/settings.json"))
            .unwrap()
    }

    fn call(tool: impl Tool, input: Value) -> PreparedCall {
        let definition = Arc::new(ToolDefinition::new(tool).unwrap());
        let name = definition.name().to_owned();
        PreparedCall::from_parts("c1", &name, definition, input)
    }

    fn matches(rule: &str, call: &PreparedCall) -> bool {
        condition(rule).matches(call, Path::new("/w"))
    }

    #[test]
    fn an_edit_condition_speaks_about_every_tool_that_writes_the_path() {
        let write = call(Write, json!({"file_path": "src/a.ts", "content": ""}));
        let read = call(Read, json!({"file_path": "src/a.ts"}));
        assert_eq!(
            (matches("Edit(*.ts)", &write), matches("Edit(*.ts)", &read)),
            (true, false)
        );
    }

    #[test]
    fn a_bash_condition_speaks_only_about_a_declared_shell_command() {
        let git = call(Bash, json!({"command": "git push"}));
        let echo = call(Echo, json!({"text": "git push"}));
        assert_eq!(
            (matches("Bash(git *)", &git), matches("Bash(git *)", &echo)),
            (true, false)
        );
    }
}
