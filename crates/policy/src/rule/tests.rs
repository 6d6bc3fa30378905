//! Parsing whole rules: which target a text becomes, and which texts are errors.

use super::*;

fn anchors() -> PathAnchors {
    PathAnchors {
        workspace: PathBuf::from("/w/proj"),
        settings_root: PathBuf::from("/w/proj"),
        home: Some(PathBuf::from("/home/u")),
    }
}

fn parse(text: &str) -> Result<RuleTarget, RuleError> {
    let anchors = anchors();
    let extra = vec!["Deploy".to_owned()];
    parse_rule(
        text,
        RuleOrigin::CommandLine,
        RuleContext {
            list: RuleList::Deny,
            anchors: &anchors,
            extra_tools: &extra,
        },
    )
    .map(|rule| rule.target)
}

fn kind(target: &RuleTarget) -> String {
    match target {
        RuleTarget::Tool(name) => format!("tool {name}"),
        RuleTarget::McpServer(server) => format!("server {server}"),
        RuleTarget::Bash(_) => "bash".to_owned(),
        RuleTarget::Path { tool, .. } => format!("path {tool}"),
        RuleTarget::Subagent(name) => format!("subagent {name}"),
        RuleTarget::Skill(name) => format!("skill {name}"),
        RuleTarget::Domain(domain) => format!("domain {domain:?}"),
        RuleTarget::Inert { tool } => format!("inert {tool}"),
    }
}

#[test]
fn valid_rules_become_targets() {
    let table = [
        ("Bash", "tool Bash"),
        ("Bash(*)", "tool Bash"),
        ("Bash(npm run test:*)", "bash"),
        ("Read(./.env)", "path Read"),
        ("Edit(/src/**)", "path Edit"),
        ("Write(~/notes/**)", "path Write"),
        ("Glob(**/*.rs)", "path Glob"),
        ("Echo", "tool Echo"),
        ("Deploy", "tool Deploy"),
        ("mcp__puppeteer", "server puppeteer"),
        ("mcp__puppeteer__*", "server puppeteer"),
        ("mcp__puppeteer__navigate", "tool mcp__puppeteer__navigate"),
        ("WebFetch(domain:*)", "domain Any"),
        ("WebSearch", "inert WebSearch"),
        ("  Read  ", "tool Read"),
    ];
    for (text, expected) in table {
        assert_eq!(
            parse(text).map(|t| kind(&t)),
            Ok(expected.to_owned()),
            "{text}"
        );
    }
}

#[test]
fn a_registered_tool_with_a_claude_code_name_is_a_real_target_not_an_inert_one() {
    let anchors = anchors();
    let extra = vec!["WebSearch".to_owned()];
    let target = parse_rule(
        "WebSearch",
        RuleOrigin::CommandLine,
        RuleContext {
            list: RuleList::Deny,
            anchors: &anchors,
            extra_tools: &extra,
        },
    )
    .map(|rule| kind(&rule.target));
    assert_eq!(target, Ok("tool WebSearch".to_owned()));
}

#[test]
fn a_skill_rule_names_one_skill_once_the_skill_tool_exists_and_is_inert_before() {
    let anchors = anchors();
    let target = |extra: Vec<String>| {
        parse_rule(
            "Skill(pdf)",
            RuleOrigin::CommandLine,
            RuleContext {
                list: RuleList::Deny,
                anchors: &anchors,
                extra_tools: &extra,
            },
        )
        .map(|rule| kind(&rule.target))
    };
    assert_eq!(
        (target(vec!["Skill".to_owned()]), target(Vec::new())),
        (Ok("skill pdf".to_owned()), Ok("inert Skill".to_owned()))
    );
}

#[test]
fn malformed_rules_are_errors_naming_the_problem() {
    let known =
        "Read, Write, Edit, Bash, Glob, Grep, TodoWrite, Echo, Task, WebFetch, Deploy, mcp__<server>__<tool>";
    let table = [
        ("", "the rule is empty"),
        (
            "Bash(rm:* -rf",
            "the rule opens '(' but does not end with ')'",
        ),
        (
            "Bsh(rm *)",
            &format!("no tool is named Bsh; known tools: {known}") as &str,
        ),
        (
            "bash",
            &format!("no tool is named bash; known tools: {known}"),
        ),
        ("*", &format!("no tool is named *; known tools: {known}")),
        (
            "mcp__*",
            "\"mcp__*\" is not an MCP tool name (expected mcp__server or mcp__server__tool)",
        ),
        ("mcp__a(x)", "mcp__a rules take no specifier in parentheses"),
        (
            "Bash()",
            "the parentheses are empty; write Bash for the whole tool",
        ),
        ("Echo(hi)", "Echo rules take no specifier in parentheses"),
        (
            "Ba sh",
            "\"Ba sh\" is not a tool name (letters, digits, '_' and '-' only)",
        ),
        (
            "Read(!x)",
            "a negated pattern ('!…') cannot be a rule; use a deny or ask rule instead",
        ),
        ("Bash(:*)", "the command prefix before ':*' is empty"),
        (
            "WebFetch(example.com)",
            "WebFetch rules take domain:HOST (example.com, *.example.com, *): \"example.com\" \
             does not start with domain:",
        ),
        (
            "WebFetch(domain:exa mple.com)",
            "WebFetch rules take domain:HOST (example.com, *.example.com, *): \"exa mple.com\" \
             is not a domain: names are dot-separated labels of letters, digits, - and _",
        ),
    ];
    for (text, expected) in table {
        assert_eq!(
            parse(text).map(|t| kind(&t)).map_err(|e| e.to_string()),
            Err(expected.to_owned()),
            "{text}"
        );
    }
}
