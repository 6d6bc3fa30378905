//! The context budget (contract §12 "Compaction"): how many tokens the model's
//! context window holds, when the history is near enough to it to compact,
//! and how many tokens a history uses.
//!
//! Tokens are estimated offline as characters / 4 (plus a few per message):
//! no tokenizer is loaded, so a run's memory stays small (contract §12
//! "Memory"). When the provider reports usage (issue 11 item 5, the
//! `AssistantReply.usage` seam), that count is the better one: see
//! [`TokenTally`]. This module never asks the model anything.

use agenthub_protocol::Message;

/// The window assumed for a model this module does not know.
pub const DEFAULT_CONTEXT_WINDOW: u64 = 128_000;

/// The fraction of the window at which a history is compacted, by default.
pub const DEFAULT_AUTO_COMPACT_THRESHOLD: f64 = 0.8;

/// Known context windows by model-name prefix, most specific first.
const KNOWN_WINDOWS: &[(&str, u64)] = &[
    ("gpt-4.1", 1_047_576),
    ("gpt-4o", 128_000),
    ("gpt-4-turbo", 128_000),
    ("gpt-4", 8_192),
    ("gpt-3.5-turbo", 16_385),
    ("o1", 200_000),
    ("o3", 200_000),
    ("o4", 200_000),
    ("claude", 200_000),
    ("llama3.1", 128_000),
    ("llama3.2", 128_000),
    ("llama3.3", 128_000),
    ("llama3", 8_192),
    ("qwen2.5-coder", 32_768),
    ("qwen2.5", 32_768),
    ("qwen3", 40_960),
    ("mistral", 32_768),
    ("deepseek", 128_000),
    ("gemma2", 8_192),
];

/// The context window of a model this module knows, by its name (a
/// provider prefix such as `openai/` and letter case are ignored).
///
/// ```
/// use agenthub_core::known_context_window;
/// assert_eq!(known_context_window("claude-sonnet-4-5"), Some(200_000));
/// assert_eq!(known_context_window("ollama/qwen2.5-coder:7b"), Some(32_768));
/// assert_eq!(known_context_window("my-own-model"), None);
/// ```
pub fn known_context_window(model: &str) -> Option<u64> {
    let name = model
        .rsplit('/')
        .next()
        .unwrap_or(model)
        .to_ascii_lowercase();
    KNOWN_WINDOWS
        .iter()
        .find(|(prefix, _)| name.starts_with(prefix))
        .map(|(_, window)| *window)
}

/// How many tokens the model holds and when to compact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContextBudget {
    /// The context window, in tokens.
    pub window: u64,
    /// Compact when the history uses this fraction of the window.
    pub threshold: f64,
}

impl ContextBudget {
    /// The budget of `model`: `window` when the settings give one, else the
    /// model's known window, else [`DEFAULT_CONTEXT_WINDOW`]; `threshold`
    /// when given, else [`DEFAULT_AUTO_COMPACT_THRESHOLD`].
    pub fn for_model(model: Option<&str>, window: Option<u64>, threshold: Option<f64>) -> Self {
        ContextBudget {
            window: window
                .or_else(|| model.and_then(known_context_window))
                .unwrap_or(DEFAULT_CONTEXT_WINDOW),
            threshold: threshold.unwrap_or(DEFAULT_AUTO_COMPACT_THRESHOLD),
        }
    }

    /// The token count at which a history is compacted.
    pub fn limit(&self) -> u64 {
        (self.window as f64 * self.threshold) as u64
    }

    /// Whether `prompt` alone fits the window (contract §29): a prompt
    /// larger than the window is refused before any request, never
    /// compacted into a summary of itself.
    pub fn check_prompt(&self, prompt: &str) -> Result<(), PromptTooLarge> {
        let tokens = estimate_message_tokens(&Message::user(prompt));
        match tokens > self.window {
            true => Err(PromptTooLarge {
                tokens,
                bytes: prompt.len(),
                window: self.window,
            }),
            false => Ok(()),
        }
    }
}

/// A prompt that alone is larger than the model's context window.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the prompt is about {tokens} tokens ({bytes} bytes), more than the model's context \
     window of {window} tokens; it was not sent (shorten it, or set contextWindow if the \
     model holds more)"
)]
pub struct PromptTooLarge {
    /// The prompt's estimated tokens.
    pub tokens: u64,
    /// Its size in bytes.
    pub bytes: usize,
    /// The window it exceeds, in tokens.
    pub window: u64,
}

/// The estimated tokens of one message: its text and its tool calls'
/// names and arguments, at 4 characters a token, plus 4 for the framing.
pub fn estimate_message_tokens(message: &Message) -> u64 {
    let text = message.text().map_or(0, str::len);
    let calls: usize = message
        .tool_calls()
        .iter()
        .map(|call| call.function.name.len() + call.function.arguments.len() + call.id.len())
        .sum();
    ((text + calls) as u64).div_ceil(4) + 4
}

/// The estimated tokens of a whole history.
pub fn estimate_tokens(messages: &[Message]) -> u64 {
    messages.iter().map(estimate_message_tokens).sum()
}

/// The tokens of a growing history, counted once per message: the history
/// only grows between compactions, so each count reads only what is new
/// and a long session costs the same per turn. Reset it when the history
/// is replaced.
///
/// When a reply reports its request's tokens ([`TokenTally::reported`]),
/// the count in use is that report plus the estimate of the messages added
/// since; without a report it is the estimate alone.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct TokenTally {
    counted: usize,
    tokens: u64,
}

impl TokenTally {
    /// The tokens of `history`, counting only messages not counted before.
    pub(crate) fn tokens_in_use(&mut self, history: &[Message]) -> u64 {
        if history.len() < self.counted {
            *self = TokenTally::default();
        }
        self.tokens += estimate_tokens(&history[self.counted..]);
        self.counted = history.len();
        self.tokens
    }

    /// The provider counted the first `counted` messages as `tokens` (its
    /// request's input plus the reply): that count replaces the estimate.
    pub(crate) fn reported(&mut self, counted: usize, tokens: u64) {
        self.counted = counted;
        self.tokens = tokens;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prompt_larger_than_the_window_is_refused_with_its_size_and_the_window() {
        let budget = ContextBudget::for_model(None, Some(100), None);
        assert_eq!(
            (
                budget.check_prompt(&"x".repeat(384)),
                budget.check_prompt(&"x".repeat(400))
            ),
            (
                Ok(()),
                Err(PromptTooLarge {
                    tokens: 104,
                    bytes: 400,
                    window: 100
                })
            )
        );
    }

    #[test]
    fn settings_win_over_the_known_window_which_wins_over_the_default() {
        assert_eq!(
            [
                ContextBudget::for_model(Some("gpt-4o"), Some(1000), Some(0.5)),
                ContextBudget::for_model(Some("gpt-4o-mini"), None, None),
                ContextBudget::for_model(None, None, None),
            ],
            [
                ContextBudget {
                    window: 1000,
                    threshold: 0.5
                },
                ContextBudget {
                    window: 128_000,
                    threshold: 0.8
                },
                ContextBudget {
                    window: 128_000,
                    threshold: 0.8
                },
            ]
        );
    }

    #[test]
    fn known_windows_match_the_most_specific_prefix() {
        let names = [
            "gpt-4.1-mini",
            "gpt-4",
            "llama3.1:8b",
            "llama3:8b",
            "o3-mini",
        ];
        let windows: Vec<Option<u64>> = names.iter().map(|n| known_context_window(n)).collect();
        assert_eq!(
            windows,
            vec![
                Some(1_047_576),
                Some(8_192),
                Some(128_000),
                Some(8_192),
                Some(200_000)
            ]
        );
    }

    #[test]
    fn a_message_is_estimated_at_four_characters_a_token_plus_its_framing() {
        assert_eq!(estimate_message_tokens(&Message::user("a".repeat(40))), 14);
    }

    #[test]
    fn the_tally_counts_only_new_messages_and_restarts_on_a_shorter_history() {
        let mut tally = TokenTally::default();
        let history = vec![Message::user("abcd"), Message::user("abcd")];
        let first = tally.tokens_in_use(&history[..1]);
        let both = tally.tokens_in_use(&history);
        let after_reset = tally.tokens_in_use(&history[..1]);
        assert_eq!((first, both, after_reset), (5, 10, 5));
    }
}
