//! Permission rules in Claude Code's syntax: `Tool` or `Tool(specifier)`.
//!
//! `Bash(…)` takes a command pattern ([`bash`]); `Read(…)`, `Edit(…)`,
//! `Write(…)`, `Glob(…)`, `Grep(…)` take a path pattern with gitignore
//! semantics and Claude Code's anchors ([`path`]); `mcp__server` and
//! `mcp__server__*` name every tool of a server, `mcp__server__tool` one tool;
//! `WebFetch(domain:…)` names the host a fetch reaches ([`DomainRule`]).
//! A rule for a Claude Code tool AgentHub does not have (`WebSearch`)
//! is accepted with a warning and never matches, so a Claude Code settings file
//! loads as it is. Everything else that does not parse is an error: a rule is
//! never silently skipped.

pub mod bash;
pub mod path;

use agenthub_sandbox::{Destination, DomainEntry};
use bash::BashPattern;
use path::{PathAnchors, PathPattern};
use std::fmt;
use std::path::PathBuf;
use thiserror::Error;

/// Which list a rule is in; also the effect it has when it matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RuleList {
    /// `permissions.allow`: a match lets the call run without asking.
    Allow,
    /// `permissions.ask`: a match asks, even where a mode or a hook would allow.
    Ask,
    /// `permissions.deny`: a match refuses the call, whatever else says.
    Deny,
}

impl RuleList {
    /// The settings key's name (`allow`, `ask`, `deny`), for messages.
    pub fn as_str(self) -> &'static str {
        match self {
            RuleList::Allow => "allow",
            RuleList::Ask => "ask",
            RuleList::Deny => "deny",
        }
    }
}

/// Where a rule came from, for errors and audit lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleOrigin {
    /// `permissions.<list>[index]` of a settings file.
    Settings {
        /// The settings file.
        file: PathBuf,
        /// The rule's position in its list, counting from 0.
        index: usize,
    },
    /// `--allow` / `--deny`.
    CommandLine,
}

impl fmt::Display for RuleOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleOrigin::Settings { file, .. } => write!(f, "{}", file.display()),
            RuleOrigin::CommandLine => f.write_str("command line"),
        }
    }
}

/// What a rule's `Tool(…)` part names.
#[derive(Debug, Clone)]
pub enum RuleTarget {
    /// The whole tool: `Bash`, `Bash(*)`, `Read`, `Echo`, `mcp__server__tool`.
    Tool(String),
    /// Every tool of an MCP server: `mcp__server`, `mcp__server__*`.
    McpServer(String),
    /// `Bash(…)`: a command pattern, for every tool that declares a shell command.
    Bash(BashPattern),
    /// `Read(…)`, `Edit(…)`, `Write(…)`, `Glob(…)`, `Grep(…)`: a path pattern
    /// for the paths tools declare they read or write.
    Path {
        /// The rule's tool keyword (`Read`, `Edit`, …).
        tool: String,
        /// The compiled pattern.
        pattern: PathPattern,
    },
    /// `Task(name)`: starting the subagent type `name`, for every tool that
    /// declares a subagent field (contract §17).
    Subagent(String),
    /// `Skill(name)`: loading the skill `name`, for every tool that declares
    /// a skill field (contract §20).
    Skill(String),
    /// `WebFetch(domain:…)`: the host a fetch reaches, for every tool that
    /// declares a URL field (contract §32).
    Domain(DomainRule),
    /// A Claude Code tool AgentHub does not have: accepted, never matches.
    Inert {
        /// The tool the rule names.
        tool: String,
    },
}

/// One parsed rule.
#[derive(Debug, Clone)]
pub struct Rule {
    /// Which list it is in: the effect it has when it matches.
    pub list: RuleList,
    /// The rule as written, for audit lines.
    pub text: String,
    /// Where it was written.
    pub origin: RuleOrigin,
    /// What it matches.
    pub target: RuleTarget,
}

impl Rule {
    /// `Bash(rm *) (command line)`: what audit lines and explanations show.
    pub fn describe(&self) -> String {
        format!("{} ({})", self.text, self.origin)
    }
}

/// The rule keyword for shell commands: `Bash` and `Bash(…)` rules speak
/// about every tool that declares a shell command field.
pub const SHELL_KEYWORD: &str = "Bash";

/// The rule keyword for reading paths: `Read` and `Read(…)` rules speak about
/// every path a tool declares it reads (Read, Glob, Grep); a `Read(…)` deny
/// also about every path a tool writes.
pub const READ_KEYWORD: &str = "Read";

/// The rule keywords for writing paths: `Edit`, `Write` and their `(…)` forms
/// speak about every path a tool declares it writes (Write, Edit).
pub const WRITE_KEYWORDS: [&str; 2] = ["Edit", "Write"];

/// The rule keyword for subagents: `Task(name)` rules speak about starting
/// the subagent type `name` (contract §17).
pub const SUBAGENT_KEYWORD: &str = "Task";

/// The rule keyword for skills: `Skill(name)` rules speak about loading the
/// skill `name` (contract §20). The tool exists only in a session with a
/// skill, so without one these rules are inert like any Claude Code tool's.
pub const SKILL_KEYWORD: &str = "Skill";

/// The rule keyword for fetches: `WebFetch(domain:…)` rules speak about the
/// URL every tool that declares one fetches (contract §32).
pub const FETCH_KEYWORD: &str = "WebFetch";

/// The tool names of Claude Code's rule grammar that AgentHub has: rules may
/// use them before any registry exists.
pub const BUILTIN_TOOLS: [&str; 10] = [
    "Read",
    "Write",
    "Edit",
    "Bash",
    "Glob",
    "Grep",
    "TodoWrite",
    "Echo",
    "Task",
    "WebFetch",
];

/// Claude Code tools AgentHub does not have. Rules naming them load (with a
/// warning) and never match — unless the registry has a tool of that name,
/// which then decides.
pub const CLAUDE_CODE_ONLY_TOOLS: [&str; 13] = [
    "AskUserQuestion",
    "WebSearch",
    "NotebookEdit",
    "NotebookRead",
    "MultiEdit",
    "Agent",
    "TodoRead",
    "KillShell",
    "BashOutput",
    "LS",
    "SlashCommand",
    "Skill",
    "ExitPlanMode",
];

/// The rule grammar's names whose specifier is a path pattern.
pub const PATH_TOOLS: [&str; 5] = ["Read", "Write", "Edit", "Glob", "Grep"];

/// Why a rule's text is not a rule. A rule that does not parse is a
/// configuration error, never silently skipped.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RuleError {
    /// Nothing written.
    #[error("the rule is empty")]
    Empty,
    /// `Tool(…` without the closing parenthesis.
    #[error("the rule opens '(' but does not end with ')'")]
    Unbalanced,
    /// The part before `(` has characters no tool name has (the part as written).
    #[error("{0:?} is not a tool name (letters, digits, '_' and '-' only)")]
    BadToolName(String),
    /// No built-in, registered or Claude Code tool has this name (a typo
    /// would otherwise be a rule that never matches).
    #[error("no tool is named {name}; known tools: {known}")]
    UnknownTool {
        /// The name as written.
        name: String,
        /// Every name a rule may use, listed for the reader.
        known: String,
    },
    /// `Tool()` (the tool named).
    #[error("the parentheses are empty; write {0} for the whole tool")]
    EmptySpecifier(String),
    /// A specifier on a tool whose rules take none (the tool named).
    #[error("{0} rules take no specifier in parentheses")]
    SpecifierNotSupported(String),
    /// An `mcp__…` name that is not `mcp__server` or `mcp__server__tool`.
    #[error("{0:?} is not an MCP tool name (expected mcp__server or mcp__server__tool)")]
    BadMcpName(String),
    /// The `Bash(…)` specifier is not a usable pattern.
    #[error(transparent)]
    Bash(#[from] bash::BashPatternError),
    /// The path specifier is not a usable pattern.
    #[error(transparent)]
    Path(#[from] path::PathPatternError),
    /// A `WebFetch(…)` specifier that is not `domain:` and a host pattern.
    #[error("WebFetch rules take domain:HOST (example.com, *.example.com, *): {0}")]
    Domain(String),
}

/// What a `WebFetch(domain:…)` rule names: every host (`domain:*`), or the
/// hosts one entry of the domain lists' grammar covers (`example.com` only
/// that name, `*.example.com` names below it, `host:port` one port) — the
/// same matching as `sandbox.network`'s lists ([`DomainEntry::matches`]),
/// and Claude Code's reading of these rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DomainRule {
    /// `domain:*`: every host.
    Any,
    /// `domain:<entry>`.
    Entry(DomainEntry),
}

impl DomainRule {
    /// Reads the specifier of `WebFetch(…)`: `domain:` and a host pattern.
    pub fn parse(specifier: &str) -> Result<DomainRule, RuleError> {
        let host = specifier
            .strip_prefix("domain:")
            .map(str::trim)
            .ok_or_else(|| {
                RuleError::Domain(format!("{specifier:?} does not start with domain:"))
            })?;
        match host {
            "*" => Ok(DomainRule::Any),
            host => host
                .parse()
                .map(DomainRule::Entry)
                .map_err(|error: agenthub_sandbox::BadDomain| RuleError::Domain(error.to_string())),
        }
    }

    /// Whether the rule covers a fetch of `destination`.
    pub fn matches(&self, destination: &Destination) -> bool {
        match self {
            DomainRule::Any => true,
            DomainRule::Entry(entry) => entry.matches(destination),
        }
    }
}

/// What parsing needs besides the text.
#[derive(Debug, Clone, Copy)]
pub struct RuleContext<'a> {
    /// The list the rule is in (path patterns depend on it).
    pub list: RuleList,
    /// The directories path patterns are anchored at.
    pub anchors: &'a PathAnchors,
    /// Tool names rules may use (the registry's), besides the built-in ones.
    pub extra_tools: &'a [String],
}

/// Parses one rule. A Claude Code-only tool yields an inert rule.
pub fn parse_rule(
    text: &str,
    origin: RuleOrigin,
    context: RuleContext<'_>,
) -> Result<Rule, RuleError> {
    let (tool, specifier) = split(text)?;
    let target = target(tool, specifier, context)?;
    Ok(Rule {
        list: context.list,
        text: text.trim().to_owned(),
        origin,
        target,
    })
}

/// `Tool(spec)` → (`Tool`, Some(`spec`)); `Tool` → (`Tool`, None).
fn split(text: &str) -> Result<(&str, Option<&str>), RuleError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(RuleError::Empty);
    }
    let Some(open) = text.find('(') else {
        return Ok((text, None));
    };
    let inner = text[open + 1..]
        .strip_suffix(')')
        .ok_or(RuleError::Unbalanced)?;
    Ok((&text[..open], Some(inner)))
}

fn target(
    tool: &str,
    specifier: Option<&str>,
    context: RuleContext<'_>,
) -> Result<RuleTarget, RuleError> {
    if tool.is_empty()
        || !tool
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '*')
    {
        return Err(RuleError::BadToolName(tool.to_owned()));
    }
    if let Some(rest) = agenthub_protocol::mcp_name_rest(tool) {
        return mcp_target(tool, rest, specifier);
    }
    // The registry comes first: once a tool of a Claude Code name exists
    // here, rules naming it must act on it, never stay inert.
    if !is_known(tool, context.extra_tools) && CLAUDE_CODE_ONLY_TOOLS.contains(&tool) {
        return Ok(RuleTarget::Inert {
            tool: tool.to_owned(),
        });
    }
    if !is_known(tool, context.extra_tools) {
        return Err(RuleError::UnknownTool {
            name: tool.to_owned(),
            known: known_list(context.extra_tools),
        });
    }
    match specifier.map(str::trim) {
        None | Some("*") => Ok(RuleTarget::Tool(tool.to_owned())),
        Some("") => Err(RuleError::EmptySpecifier(tool.to_owned())),
        Some(spec) if tool == SHELL_KEYWORD => Ok(RuleTarget::Bash(BashPattern::parse(spec)?)),
        Some(spec) if tool == SUBAGENT_KEYWORD => Ok(RuleTarget::Subagent(spec.to_owned())),
        Some(spec) if tool == SKILL_KEYWORD => Ok(RuleTarget::Skill(spec.to_owned())),
        Some(spec) if tool == FETCH_KEYWORD => Ok(RuleTarget::Domain(DomainRule::parse(spec)?)),
        Some(spec) if PATH_TOOLS.contains(&tool) => Ok(RuleTarget::Path {
            tool: tool.to_owned(),
            pattern: PathPattern::parse(spec, context.list, context.anchors)?,
        }),
        Some(_) => Err(RuleError::SpecifierNotSupported(tool.to_owned())),
    }
}

fn mcp_target(tool: &str, rest: &str, specifier: Option<&str>) -> Result<RuleTarget, RuleError> {
    if specifier.is_some() {
        return Err(RuleError::SpecifierNotSupported(tool.to_owned()));
    }
    let valid_part = |part: &str| !part.is_empty() && !part.contains('*');
    match rest.split_once("__") {
        None if valid_part(rest) => Ok(RuleTarget::McpServer(rest.to_owned())),
        Some((server, "*")) if valid_part(server) => Ok(RuleTarget::McpServer(server.to_owned())),
        Some((server, name)) if valid_part(server) && valid_part(name) => {
            Ok(RuleTarget::Tool(tool.to_owned()))
        }
        _ => Err(RuleError::BadMcpName(tool.to_owned())),
    }
}

fn is_known(tool: &str, extra: &[String]) -> bool {
    BUILTIN_TOOLS.contains(&tool) || extra.iter().any(|name| name == tool)
}

fn known_list(extra: &[String]) -> String {
    let mut names: Vec<&str> = BUILTIN_TOOLS.to_vec();
    for name in extra {
        if !names.contains(&name.as_str()) {
            names.push(name);
        }
    }
    names.push("mcp__<server>__<tool>");
    names.join(", ")
}

#[cfg(test)]
mod tests;
