//! Why the model stopped writing a reply (contract §33), in Claude Code's
//! words: the `stop_reason` of a transcript's assistant line and of
//! `stream-json`'s assistant messages. A reply cut at the output limit
//! (`max_tokens`) is never a completed answer, so the loop must be told.
//!
//! Pure data: providers map their own signals to it (the model crate), the
//! loop decides what a cut means (the core crate).

use serde::{Deserialize, Serialize};

/// How a reply ended, as Claude Code names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The model finished its reply (OpenAI `finish_reason: "stop"`).
    EndTurn,
    /// The model stopped to have its tool calls run (OpenAI `"tool_calls"`).
    ToolUse,
    /// The reply was cut at the output limit (`max_tokens`; OpenAI
    /// `finish_reason: "length"`): not a completed reply.
    MaxTokens,
    /// The reply ended at one of the request's stop sequences.
    StopSequence,
    /// The provider refused or filtered the reply (OpenAI `"content_filter"`).
    Refusal,
    /// The provider paused a long turn (Anthropic's server tools).
    PauseTurn,
}

impl StopReason {
    /// The name written in transcripts and `stream-json`: `end_turn`, `max_tokens`, ….
    pub fn as_str(self) -> &'static str {
        match self {
            StopReason::EndTurn => "end_turn",
            StopReason::ToolUse => "tool_use",
            StopReason::MaxTokens => "max_tokens",
            StopReason::StopSequence => "stop_sequence",
            StopReason::Refusal => "refusal",
            StopReason::PauseTurn => "pause_turn",
        }
    }

    /// The reason a reply is recorded with: what the provider `reported`,
    /// where it says more than the reply itself; else `tool_use` for a reply
    /// with tool calls and `end_turn` for one without. A cut is always kept.
    ///
    /// ```
    /// use agenthub_protocol::StopReason;
    ///
    /// assert_eq!(StopReason::recorded(None, 1), StopReason::ToolUse);
    /// assert_eq!(StopReason::recorded(Some(StopReason::EndTurn), 2), StopReason::ToolUse);
    /// assert_eq!(StopReason::recorded(Some(StopReason::MaxTokens), 1), StopReason::MaxTokens);
    /// ```
    pub fn recorded(reported: Option<StopReason>, tool_calls: usize) -> StopReason {
        match reported {
            None | Some(StopReason::EndTurn | StopReason::ToolUse) if tool_calls > 0 => {
                StopReason::ToolUse
            }
            None | Some(StopReason::EndTurn | StopReason::ToolUse) => StopReason::EndTurn,
            Some(other) => other,
        }
    }
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_reason_serializes_as_the_name_it_is_written_with() {
        let all = [
            StopReason::EndTurn,
            StopReason::ToolUse,
            StopReason::MaxTokens,
            StopReason::StopSequence,
            StopReason::Refusal,
            StopReason::PauseTurn,
        ];
        let written: Vec<(String, String)> = all
            .iter()
            .map(|reason| {
                (
                    serde_json::to_value(reason)
                        .unwrap()
                        .as_str()
                        .unwrap()
                        .to_owned(),
                    reason.as_str().to_owned(),
                )
            })
            .collect();
        assert!(
            written.iter().all(|(json, name)| json == name),
            "{written:?}"
        );
    }

    #[test]
    fn a_reply_with_calls_that_the_provider_called_finished_is_recorded_as_tool_use() {
        assert_eq!(
            [
                StopReason::recorded(Some(StopReason::EndTurn), 1),
                StopReason::recorded(Some(StopReason::ToolUse), 0),
                StopReason::recorded(Some(StopReason::Refusal), 0),
            ],
            [
                StopReason::ToolUse,
                StopReason::EndTurn,
                StopReason::Refusal
            ]
        );
    }
}
