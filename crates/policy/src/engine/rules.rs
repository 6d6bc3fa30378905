//! Which rules speak about which part of a call.
//!
//! A rule speaks about a tool it names, and, through the rule grammar's
//! keywords, about what tools declare, as in Claude Code: `Bash` rules about
//! every tool's shell command, `Read` rules about every path a tool reads
//! (Read, Glob, Grep), `Edit`/`Write` rules about every path a tool writes
//! (Write, Edit), `WebFetch` rules about every URL a tool fetches, and a
//! `Read(…)` *deny* also about every path a tool writes
//! (what may not be read may not be overwritten either).
//!
//! This module never matches a tool by a name of its own: it compares a rule's
//! name with the call's, and the keywords with the call's declared capabilities.

use crate::rule::{
    Rule, RuleList, RuleTarget, FETCH_KEYWORD, READ_KEYWORD, SHELL_KEYWORD, WRITE_KEYWORDS,
};
use agenthub_sandbox::Destination;
use agenthub_tools::PathAccess;
use std::path::Path;

/// What a rule is asked about: a tool (if there is one) and which part of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Subject<'a> {
    /// The tool called; `None` for what no tool names (a file a search found).
    pub tool: Option<&'a str>,
    /// Whether the rule is asked about the whole tool, its command or a path.
    pub part: Part,
}

/// The part of a call a rule is asked about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The tool as a whole (it declares nothing the rule asks about).
    Whole,
    /// The shell command the tool declares.
    Shell,
    /// A path the tool declares it reads or writes.
    Path(PathAccess),
    /// The URL the tool declares it fetches.
    Url,
}

impl<'a> Subject<'a> {
    /// A tool as a whole.
    pub fn whole(tool: &'a str) -> Self {
        Subject {
            tool: Some(tool),
            part: Part::Whole,
        }
    }

    /// A tool's declared shell command.
    pub fn shell(tool: &'a str) -> Self {
        Subject {
            tool: Some(tool),
            part: Part::Shell,
        }
    }

    /// The URL `tool` fetches.
    pub fn url(tool: &'a str) -> Self {
        Subject {
            tool: Some(tool),
            part: Part::Url,
        }
    }

    /// A path `tool` reads or writes (`None`: no tool names it).
    pub fn path(tool: Option<&'a str>, access: PathAccess) -> Self {
        Subject {
            tool,
            part: Part::Path(access),
        }
    }

    fn named(&self, name: &str) -> bool {
        self.tool == Some(name) || keyword_covers(name, self.part)
    }
}

/// Whether the rule grammar's keyword `name` speaks about `part` of any tool.
fn keyword_covers(name: &str, part: Part) -> bool {
    match part {
        Part::Whole => false,
        Part::Shell => name == SHELL_KEYWORD,
        Part::Path(PathAccess::Read) => name == READ_KEYWORD,
        Part::Path(PathAccess::Write) => WRITE_KEYWORDS.contains(&name),
        Part::Url => name == FETCH_KEYWORD,
    }
}

/// Whether a tool-name rule (`Bash`, `Read`, `mcp__server`) names the whole
/// of the subject.
pub fn covers_tool(rule: &Rule, subject: Subject<'_>) -> bool {
    match &rule.target {
        RuleTarget::Tool(name) => subject.named(name),
        RuleTarget::McpServer(server) => subject
            .tool
            .is_some_and(|tool| agenthub_protocol::is_tool_of_mcp_server(tool, server)),
        _ => false,
    }
}

/// Whether a rule speaks about a fetch of `destination` by the subject's
/// tool: a `WebFetch(domain:…)` rule covering the host, or a rule naming the
/// whole tool (`WebFetch`, or the fetch tool's own name).
pub fn fetch_matches(rule: &Rule, subject: Subject<'_>, destination: &Destination) -> bool {
    match &rule.target {
        RuleTarget::Domain(domain) => subject.named(FETCH_KEYWORD) && domain.matches(destination),
        _ => covers_tool(rule, subject),
    }
}

/// Whether a path rule applies to the subject and matches any of `paths`.
pub fn path_matches_any(rule: &Rule, subject: Subject<'_>, paths: &[&Path]) -> bool {
    match &rule.target {
        RuleTarget::Path { tool, pattern } if path_rule_applies(tool, subject, rule.list) => {
            paths.iter().any(|path| pattern.matches(path))
        }
        _ => false,
    }
}

/// Whether a path rule applies to the subject and matches every one of `paths`.
pub fn path_matches_all(rule: &Rule, subject: Subject<'_>, paths: &[&Path]) -> bool {
    match &rule.target {
        RuleTarget::Path { tool, pattern } if path_rule_applies(tool, subject, rule.list) => {
            paths.iter().all(|path| pattern.matches(path))
        }
        _ => false,
    }
}

fn path_rule_applies(rule_tool: &str, subject: Subject<'_>, list: RuleList) -> bool {
    subject.named(rule_tool)
        || (list == RuleList::Deny
            && rule_tool == READ_KEYWORD
            && subject.part == Part::Path(PathAccess::Write))
}
