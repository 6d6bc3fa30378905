//! `${VAR}` and `${VAR:-default}` in configuration strings, as Claude Code
//! expands them in `.mcp.json`. A `$` not followed by `{` is kept as written;
//! a variable that is unset and has no default is an error, never an empty
//! string (a server started with a half-empty command line fails obscurely).

use thiserror::Error;

/// Why a string could not be expanded.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ExpandError {
    /// `${NAME}` names a variable that is not set, and gives no default.
    #[error("environment variable {0} is not set (write ${{{0}:-default}} for a default)")]
    Unset(String),
    /// `${` without its closing `}`.
    #[error("\"${{\" is not closed by \"}}\" in {0:?}")]
    Unclosed(String),
    /// `${}` or a name with characters no variable name has.
    #[error("{0:?} is not an environment variable name")]
    BadName(String),
}

/// Expands every `${VAR}` / `${VAR:-default}` in `text` with `lookup`.
///
/// ```
/// use agenthub_mcp::{expand, ExpandError};
///
/// let lookup = |name: &str| (name == "HOME").then(|| "/home/ada".to_owned());
/// assert_eq!(expand("${HOME}/bin", &lookup), Ok("/home/ada/bin".to_owned()));
/// assert_eq!(expand("${PORT:-8080}", &lookup), Ok("8080".to_owned()));
/// assert_eq!(expand("${TOKEN}", &lookup), Err(ExpandError::Unset("TOKEN".to_owned())));
/// ```
pub fn expand(text: &str, lookup: &dyn Fn(&str) -> Option<String>) -> Result<String, ExpandError> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let end = after
            .find('}')
            .ok_or_else(|| ExpandError::Unclosed(text.to_owned()))?;
        out.push_str(&substitute(&after[..end], lookup)?);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

fn substitute(inner: &str, lookup: &dyn Fn(&str) -> Option<String>) -> Result<String, ExpandError> {
    let (name, default) = match inner.split_once(":-") {
        Some((name, default)) => (name, Some(default)),
        None => (inner, None),
    };
    let valid = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid {
        return Err(ExpandError::BadName(name.to_owned()));
    }
    match (lookup(name), default) {
        (Some(value), _) => Ok(value),
        (None, Some(default)) => Ok(default.to_owned()),
        (None, None) => Err(ExpandError::Unset(name.to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lookup(name: &str) -> Option<String> {
        match name {
            "USER" => Some("ada".to_owned()),
            "EMPTY" => Some(String::new()),
            _ => None,
        }
    }

    #[test]
    fn every_variable_in_a_string_is_replaced() {
        assert_eq!(
            expand("/home/${USER}/x-${USER}", &lookup),
            Ok("/home/ada/x-ada".to_owned())
        );
    }

    #[test]
    fn a_set_variable_wins_over_its_default_even_when_empty() {
        assert_eq!(expand("[${EMPTY:-d}]", &lookup), Ok("[]".to_owned()));
    }

    #[test]
    fn an_unset_variable_takes_its_default() {
        assert_eq!(
            expand("${HOST:-localhost}:${PORT:-80}", &lookup),
            Ok("localhost:80".to_owned())
        );
    }

    #[test]
    fn an_unset_variable_without_default_is_an_error_naming_it() {
        assert_eq!(
            expand("Bearer ${TOKEN}", &lookup),
            Err(ExpandError::Unset("TOKEN".to_owned()))
        );
    }

    #[test]
    fn a_dollar_without_brace_is_kept() {
        assert_eq!(
            expand("$USER costs $5", &lookup),
            Ok("$USER costs $5".to_owned())
        );
    }

    #[test]
    fn an_unclosed_reference_is_an_error() {
        assert_eq!(
            expand("${USER", &lookup),
            Err(ExpandError::Unclosed("${USER".to_owned()))
        );
    }

    #[test]
    fn an_empty_or_odd_name_is_an_error() {
        assert_eq!(
            expand("${}", &lookup),
            Err(ExpandError::BadName(String::new()))
        );
        assert_eq!(
            expand("${A-B}", &lookup),
            Err(ExpandError::BadName("A-B".to_owned()))
        );
    }
}
