//! Token usage as providers report it, in one shape for every provider, so
//! that a run can keep it per request and sum it.

use serde::{Deserialize, Serialize};
use std::ops::{Add, AddAssign};

/// The tokens one model request used (or several, summed).
///
/// `input_tokens` counts every token of the prompt, including the part
/// served from the provider's prompt cache and the part written to it;
/// `cache_read_tokens` and `cache_creation_tokens` say how many of them
/// that was. So `input_tokens + output_tokens` is what the request
/// took of the context window, whichever provider answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Usage {
    /// Tokens of the prompt (the history and tool definitions sent).
    pub input_tokens: u64,
    /// Tokens the model generated.
    pub output_tokens: u64,
    /// Of `input_tokens`, those read from the provider's prompt cache.
    #[serde(default)]
    pub cache_read_tokens: u64,
    /// Of `input_tokens`, those written to the provider's prompt cache
    /// (Anthropic's `cache_creation_input_tokens`; others report none).
    #[serde(default)]
    pub cache_creation_tokens: u64,
}

impl Usage {
    /// Sums two optional usages: `None` only when neither is known.
    pub fn combine(first: Option<Usage>, second: Option<Usage>) -> Option<Usage> {
        match (first, second) {
            (Some(first), Some(second)) => Some(first + second),
            (known, None) | (None, known) => known,
        }
    }
}

impl Add for Usage {
    type Output = Usage;

    fn add(self, other: Usage) -> Usage {
        Usage {
            input_tokens: self.input_tokens.saturating_add(other.input_tokens),
            output_tokens: self.output_tokens.saturating_add(other.output_tokens),
            cache_read_tokens: self
                .cache_read_tokens
                .saturating_add(other.cache_read_tokens),
            cache_creation_tokens: self
                .cache_creation_tokens
                .saturating_add(other.cache_creation_tokens),
        }
    }
}

impl AddAssign for Usage {
    fn add_assign(&mut self, other: Usage) {
        *self = *self + other;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usage(input: u64, output: u64, cached: u64) -> Usage {
        Usage {
            input_tokens: input,
            output_tokens: output,
            cache_read_tokens: cached,
            cache_creation_tokens: cached / 2,
        }
    }

    #[test]
    fn usages_add_field_by_field() {
        assert_eq!(usage(10, 2, 4) + usage(5, 1, 0), usage(15, 3, 4));
    }

    #[test]
    fn combining_keeps_what_is_known_and_none_only_when_nothing_is() {
        assert_eq!(
            [
                Usage::combine(Some(usage(1, 1, 0)), Some(usage(2, 3, 1))),
                Usage::combine(None, Some(usage(2, 3, 1))),
                Usage::combine(Some(usage(1, 1, 0)), None),
                Usage::combine(None, None),
            ],
            [
                Some(usage(3, 4, 1)),
                Some(usage(2, 3, 1)),
                Some(usage(1, 1, 0)),
                None
            ]
        );
    }

    #[test]
    fn usage_serializes_with_the_json_output_field_names() {
        assert_eq!(
            serde_json::to_value(usage(9, 4, 2)).unwrap(),
            serde_json::json!({"input_tokens": 9, "output_tokens": 4, "cache_read_tokens": 2,
                               "cache_creation_tokens": 1})
        );
    }

    #[test]
    fn a_usage_written_before_cache_writes_were_counted_reads_with_none() {
        let old: Usage = serde_json::from_str(
            r#"{"input_tokens": 9, "output_tokens": 4, "cache_read_tokens": 2}"#,
        )
        .unwrap();
        assert_eq!(old.cache_creation_tokens, 0);
    }
}
