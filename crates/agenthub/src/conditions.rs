//! Claude Code's `if` on command hooks: one permission rule (`Bash(git *)`,
//! `Edit(*.ts)`, `mcp__memory`) that a call must match for the hook to run,
//! compiled with the permission engine's own rule parser so that a condition
//! and a permission rule mean the same thing.
//!
//! Conditions are read the wide way (as deny rules: case-insensitive paths,
//! `dir/**` at any depth) and a Bash command that cannot be analysed runs the
//! hook: a condition may make a hook run more often, never skip a gate.

use agenthub_hooks::{CallCondition, ConditionCompiler};
use agenthub_policy::rule::path::PathAnchors;
use agenthub_policy::rule::{parse_rule, Rule, RuleContext, RuleList, RuleOrigin, RuleTarget};
use agenthub_policy::shell::{analyse, deny_forms, ShellReport};
use agenthub_tools::{PreparedCall, Workspace};
use serde_json::Value;
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
    fn compile(&self, rule: &str, source: &Path) -> Result<Arc<dyn CallCondition>, String> {
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
        let rule = parse_rule(rule, origin, context).map_err(|error| error.to_string())?;
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
        match &self.0.target {
            RuleTarget::Tool(name) => name == tool,
            RuleTarget::McpServer(server) => tool
                .strip_prefix("mcp__")
                .and_then(|rest| rest.strip_prefix(server.as_str()))
                .is_some_and(|rest| rest.starts_with("__")),
            RuleTarget::Bash(pattern) => {
                tool == "Bash" && bash_matches(call.input(), |form| pattern.matches(form))
            }
            RuleTarget::Path {
                tool: rule_tool,
                pattern,
            } => rule_tool == tool && pattern.matches(&call_path(call, workspace)),
            RuleTarget::Inert { .. } => false,
        }
    }
}

/// Whether any form of any sub-command matches (inside `$(…)`, after `A=b`
/// assignments, in `bash -c` scripts); a command that cannot be analysed matches.
fn bash_matches(input: &Value, matches: impl Fn(&str) -> bool) -> bool {
    let Some(command) = input.get("command").and_then(Value::as_str) else {
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

/// The path a file tool works on, resolved against the workspace.
fn call_path(call: &PreparedCall, workspace: &Path) -> PathBuf {
    let input = call.input();
    let written = input
        .get("file_path")
        .or_else(|| input.get("path"))
        .and_then(Value::as_str)
        .unwrap_or(".");
    Workspace::new(workspace.to_path_buf()).resolve(written)
}
