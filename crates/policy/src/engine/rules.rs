//! Which rules speak about which calls.
//!
//! A rule written for one tool also covers its siblings, as in Claude Code:
//! `Edit(…)` covers Write (every file-editing tool), `Read(…)` covers Glob and
//! Grep (every file-reading tool), and a `Read(…)` *deny* also covers Write and
//! Edit (what may not be read may not be overwritten either).

use crate::rule::{Rule, RuleList, RuleTarget};
use std::path::Path;

/// Whether a tool-name rule (`Bash`, `Read`, `mcp__server`) names the whole of `tool`.
pub fn covers_tool(rule: &Rule, tool: &str) -> bool {
    match &rule.target {
        RuleTarget::Tool(name) => name == tool || sibling(name, tool),
        RuleTarget::McpServer(server) => tool
            .strip_prefix("mcp__")
            .and_then(|rest| rest.strip_prefix(server.as_str()))
            .is_some_and(|rest| rest.starts_with("__")),
        _ => false,
    }
}

/// Whether a path rule applies to `tool` and matches any of `paths`.
pub fn path_matches_any(rule: &Rule, tool: &str, paths: &[&Path]) -> bool {
    match &rule.target {
        RuleTarget::Path {
            tool: rule_tool,
            pattern,
        } if path_rule_applies(rule_tool, tool, rule.list) => {
            paths.iter().any(|path| pattern.matches(path))
        }
        _ => false,
    }
}

/// Whether a path rule applies to `tool` and matches every one of `paths`.
pub fn path_matches_all(rule: &Rule, tool: &str, paths: &[&Path]) -> bool {
    match &rule.target {
        RuleTarget::Path {
            tool: rule_tool,
            pattern,
        } if path_rule_applies(rule_tool, tool, rule.list) => {
            paths.iter().all(|path| pattern.matches(path))
        }
        _ => false,
    }
}

fn sibling(rule_tool: &str, tool: &str) -> bool {
    matches!(
        (rule_tool, tool),
        ("Edit", "Write") | ("Read", "Glob" | "Grep")
    )
}

fn path_rule_applies(rule_tool: &str, tool: &str, list: RuleList) -> bool {
    rule_tool == tool
        || sibling(rule_tool, tool)
        || (list == RuleList::Deny && rule_tool == "Read" && matches!(tool, "Write" | "Edit"))
}
