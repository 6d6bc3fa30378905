//! Bash command patterns, as Claude Code writes them:
//!
//! | pattern | matches |
//! |---|---|
//! | `npm run build` | exactly that command |
//! | `npm run test:*` | `npm run test`, and `npm run test` followed by a space and anything |
//! | `ls *` | `ls`, `ls -la`; never `lsof` (the space is a word boundary) |
//! | `ls*` | `ls`, `lsof`, `ls -la` |
//! | `git * main` | `*` anywhere matches any text, spaces included |
//!
//! A pattern is matched against ONE simple command (the engine splits compound
//! commands first), whose words are joined by single spaces. `:*` is special
//! only at the very end; elsewhere `:` is literal. A pattern never matches a
//! compound command, because it is never shown one.

use regex::Regex;
use thiserror::Error;

/// A compiled `Bash(…)` specifier (see the table above): matched against one
/// simple command at a time.
#[derive(Debug, Clone)]
pub struct BashPattern {
    regex: Regex,
}

/// Why a `Bash(…)` specifier is not a usable pattern.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BashPatternError {
    /// `Bash(:*)`: a prefix rule with no prefix would match every command.
    #[error("the command prefix before ':*' is empty")]
    EmptyPrefix,
    /// A NUL byte, which no command can contain.
    #[error("the command pattern contains a NUL byte")]
    Nul,
    /// The pattern is too large to compile (what the regex engine said).
    #[error("the command pattern does not compile: {0}")]
    Regex(String),
}

impl BashPattern {
    /// Compiles a specifier (the text inside `Bash(…)`); runs of whitespace
    /// count as one space.
    pub fn parse(specifier: &str) -> Result<BashPattern, BashPatternError> {
        if specifier.contains('\0') {
            return Err(BashPatternError::Nul);
        }
        let normalized = specifier.split_whitespace().collect::<Vec<_>>().join(" ");
        let (body, any_arguments) = match normalized.strip_suffix(":*") {
            Some(prefix) => (prefix.trim_end(), true),
            None => match normalized.strip_suffix(" *") {
                Some(prefix) => (prefix, true),
                None => (normalized.as_str(), false),
            },
        };
        if body.is_empty() {
            return Err(BashPatternError::EmptyPrefix);
        }
        let escaped = body
            .split('*')
            .map(regex::escape)
            .collect::<Vec<_>>()
            .join(".*");
        let tail = if any_arguments { "(?: .*)?" } else { "" };
        let regex = Regex::new(&format!("^(?s:{escaped}{tail})$"))
            .map_err(|error| BashPatternError::Regex(error.to_string()))?;
        Ok(BashPattern { regex })
    }

    /// `command` is one simple command, its words joined by single spaces.
    pub fn matches(&self, command: &str) -> bool {
        self.regex.is_match(command)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, command: &str) -> bool {
        BashPattern::parse(pattern).unwrap().matches(command)
    }

    #[test]
    fn pattern_table() {
        let table = [
            ("npm run build", "npm run build", true),
            ("npm run build", "npm run build --prod", false),
            ("npm run test:*", "npm run test", true),
            ("npm run test:*", "npm run test --watch", true),
            ("npm run test:*", "npm run tests", false),
            ("ls *", "ls", true),
            ("ls *", "ls -la", true),
            ("ls *", "lsof", false),
            ("ls *", "ls-evil", false),
            ("ls*", "lsof", true),
            ("git status *", "git status-foo", false),
            ("git status:*", "git status-foo", false),
            ("git * main", "git push origin main", true),
            ("git * main", "git push origin main2", false),
            ("* --version", "cargo --version", true),
            ("git:* push", "git:x push", true),
            ("git:* push", "git status push", false),
            ("echo a.b", "echo axb", false),
            ("ls   -la", "ls -la", true),
        ];
        for (pattern, command, expected) in table {
            assert_eq!(
                matches(pattern, command),
                expected,
                "{pattern} vs {command}"
            );
        }
    }

    #[test]
    fn an_empty_prefix_is_an_error() {
        assert_eq!(
            BashPattern::parse(":*").unwrap_err(),
            BashPatternError::EmptyPrefix
        );
    }
}
