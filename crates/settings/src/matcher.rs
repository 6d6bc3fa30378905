//! Matchers (docs/hooks.md "Where hooks are configured"): absent, `""` or `"*"` match
//! everything; a value made only of letters, digits, `_`, `-`, spaces, `,` and
//! `|` is an exact name or a list of exact names; anything else is an
//! unanchored regular expression. Matching is case-sensitive.

use regex::Regex;
use std::fmt;
use thiserror::Error;

#[derive(Debug, Clone)]
enum Kind {
    All,
    Names(Vec<String>),
    Pattern(Regex),
}

/// A compiled matcher, with the text it was written as.
#[derive(Debug, Clone)]
pub struct Matcher {
    raw: Option<String>,
    kind: Kind,
}

/// A matcher that is neither match-all nor a list of names and does not
/// compile as a regular expression.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invalid matcher regex {pattern:?}: {message}")]
pub struct MatcherError {
    /// The matcher as written.
    pub pattern: String,
    /// The regex compiler's reason.
    pub message: String,
}

impl Matcher {
    /// The matcher that accepts every target.
    pub fn all() -> Matcher {
        Matcher {
            raw: None,
            kind: Kind::All,
        }
    }

    /// Compiles a matcher as written in a settings file (`None` = absent).
    pub fn parse(raw: Option<&str>) -> Result<Matcher, MatcherError> {
        let Some(text) = raw else {
            return Ok(Matcher::all());
        };
        let kind = if text.is_empty() || text == "*" {
            Kind::All
        } else if text.chars().all(is_exact_char) {
            Kind::Names(
                text.split(['|', ','])
                    .map(str::trim)
                    .filter(|name| !name.is_empty())
                    .map(str::to_owned)
                    .collect(),
            )
        } else {
            Kind::Pattern(Regex::new(text).map_err(|error| MatcherError {
                pattern: text.to_owned(),
                message: error.to_string(),
            })?)
        };
        Ok(Matcher {
            raw: Some(text.to_owned()),
            kind,
        })
    }

    /// Whether `target` (a tool name, a `source`, a `reason`) is matched.
    pub fn matches(&self, target: &str) -> bool {
        match &self.kind {
            Kind::All => true,
            Kind::Names(names) => names.iter().any(|name| name == target),
            Kind::Pattern(regex) => regex.is_match(target),
        }
    }

    /// The matcher as written; `None` when it was absent.
    pub fn raw(&self) -> Option<&str> {
        self.raw.as_deref()
    }

    /// A canonical key: every match-all spelling is `*`.
    pub fn key(&self) -> &str {
        match (&self.kind, &self.raw) {
            (Kind::All, _) | (_, None) => "*",
            (_, Some(raw)) => raw,
        }
    }
}

impl fmt::Display for Matcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

fn is_exact_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ' ' | ',' | '|')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accepted(matcher: Option<&str>, targets: &[&str]) -> Vec<String> {
        let matcher = Matcher::parse(matcher).unwrap();
        targets
            .iter()
            .filter(|target| matcher.matches(target))
            .map(|target| target.to_string())
            .collect()
    }

    const TOOLS: &[&str] = &[
        "Bash",
        "BashOutput",
        "Edit",
        "Write",
        "NotebookEdit",
        "Read",
    ];

    #[test]
    fn absent_empty_and_star_match_every_tool() {
        for matcher in [None, Some(""), Some("*")] {
            assert_eq!(accepted(matcher, TOOLS), TOOLS.to_vec());
        }
    }

    #[test]
    fn a_plain_name_matches_that_tool_only_not_a_longer_name() {
        assert_eq!(accepted(Some("Bash"), TOOLS), vec!["Bash"]);
    }

    #[test]
    fn a_pipe_list_matches_each_listed_name_exactly() {
        assert_eq!(accepted(Some("Edit|Write"), TOOLS), vec!["Edit", "Write"]);
    }

    #[test]
    fn a_comma_list_with_spaces_matches_each_listed_name_exactly() {
        assert_eq!(accepted(Some("Edit, Write"), TOOLS), vec!["Edit", "Write"]);
    }

    #[test]
    fn a_regex_is_unanchored() {
        assert_eq!(
            accepted(Some("Edit.*"), TOOLS),
            vec!["Edit", "NotebookEdit"]
        );
    }

    #[test]
    fn an_anchored_regex_matches_the_whole_name_only() {
        assert_eq!(accepted(Some("^Edit$"), TOOLS), vec!["Edit"]);
    }

    #[test]
    fn an_mcp_server_prefix_in_exact_charset_matches_no_tool() {
        let tools = ["mcp__memory__create_entities", "mcp__memory"];
        assert_eq!(
            accepted(Some("mcp__memory"), &tools[..1]),
            Vec::<String>::new()
        );
    }

    #[test]
    fn an_mcp_regex_matches_the_server_tools() {
        let tools = ["mcp__memory__create_entities", "mcp__github__search"];
        assert_eq!(
            accepted(Some("mcp__memory__.*"), &tools),
            vec!["mcp__memory__create_entities"]
        );
    }

    #[test]
    fn a_hyphenated_name_is_exact() {
        let agents = ["code-reviewer", "senior-code-reviewer"];
        assert_eq!(
            accepted(Some("code-reviewer"), &agents),
            vec!["code-reviewer"]
        );
    }

    #[test]
    fn matching_is_case_sensitive() {
        assert_eq!(accepted(Some("bash"), TOOLS), Vec::<String>::new());
    }

    #[test]
    fn an_invalid_regex_is_an_error_naming_the_pattern() {
        let error = Matcher::parse(Some("Edit(")).unwrap_err();
        assert_eq!(error.pattern, "Edit(");
    }

    #[test]
    fn every_match_all_spelling_has_the_key_star() {
        let keys: Vec<String> = [None, Some(""), Some("*")]
            .into_iter()
            .map(|raw| Matcher::parse(raw).unwrap().key().to_owned())
            .collect();
        assert_eq!(keys, vec!["*", "*", "*"]);
    }
}
