//! How much of an MCP tool's result the model reads (contract §21, §26):
//! `MAX_MCP_OUTPUT_TOKENS` (default 25,000), as Claude Code reads it. The
//! cap is declared on each MCP tool; the pipeline cuts there and saves the
//! whole result to a file, so nothing is lost. Tokens are counted as
//! [`CHARS_PER_TOKEN`] characters each, the usual estimate for English text
//! and code; this module never tokenises.

/// The cap when `MAX_MCP_OUTPUT_TOKENS` is not set.
pub const DEFAULT_MAX_MCP_OUTPUT_TOKENS: usize = 25_000;

/// Characters counted per token.
pub const CHARS_PER_TOKEN: usize = 4;

/// `MAX_MCP_OUTPUT_TOKENS` as `lookup` has it, else the default; a value
/// that is not a positive whole number is an error saying so.
///
/// ```
/// use agenthub_mcp::max_output_tokens;
/// assert_eq!(max_output_tokens(&|_| None), Ok(25_000));
/// assert_eq!(max_output_tokens(&|_| Some("800".to_owned())), Ok(800));
/// assert!(max_output_tokens(&|_| Some("lots".to_owned())).is_err());
/// ```
pub fn max_output_tokens(lookup: &dyn Fn(&str) -> Option<String>) -> Result<usize, BadOutputLimit> {
    match lookup("MAX_MCP_OUTPUT_TOKENS") {
        None => Ok(DEFAULT_MAX_MCP_OUTPUT_TOKENS),
        Some(text) => text
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|tokens| *tokens > 0)
            .ok_or(BadOutputLimit(text)),
    }
}

/// `MAX_MCP_OUTPUT_TOKENS` is not a positive whole number (its value as set).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("MAX_MCP_OUTPUT_TOKENS={0:?} is not a positive whole number")]
pub struct BadOutputLimit(pub String);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_limit_that_is_not_a_positive_whole_number_is_an_error_naming_it() {
        let error = max_output_tokens(&|_| Some("0".to_owned()));
        assert_eq!(error, Err(BadOutputLimit("0".to_owned())));
        assert_eq!(
            error.unwrap_err().to_string(),
            "MAX_MCP_OUTPUT_TOKENS=\"0\" is not a positive whole number"
        );
    }
}
