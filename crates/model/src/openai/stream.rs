//! Accumulates a Chat Completions event stream into one assistant reply.
//!
//! Pure: fed server-sent events by the transport or by tests. Handles text deltas,
//! tool-call argument deltas split across chunks, parallel calls told apart by
//! `index` (or by position when a server leaves `index` out), the token usage
//! (the last `usage` object sent wins: servers that report it on every chunk
//! report running totals), `[DONE]`, `arguments` sent as an object, error objects inside
//! the stream, and the `finish_reason` (`"length"`: the reply was cut at the output
//! limit, kept as [`StopReason::MaxTokens`]). It must never accept a stream that
//! stopped before the answer was finished, nor lose a cut.

use crate::transport::{provider_message, SseEvent, StreamAccumulator};
use crate::{AssistantReply, ModelError};
use agenthub_protocol::{StopReason, ToolCall, Usage};
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// One Chat Completions answer as it streams in: its text, its tool calls by
/// index and whether the server said it is complete. The transport feeds it;
/// when the stream ends, [`ChatStream::finish`] gives the reply.
#[derive(Debug, Default)]
pub struct ChatStream {
    text: String,
    calls: BTreeMap<u32, PartialCall>,
    finish_reason_seen: bool,
    /// The last `finish_reason` the loop knows, mapped.
    stop_reason: Option<StopReason>,
    done: bool,
    usage: Option<Usage>,
}

#[derive(Debug, Default)]
struct PartialCall {
    id: String,
    name: String,
    arguments: String,
}

#[derive(Debug, Deserialize)]
struct Chunk {
    #[serde(default)]
    choices: Option<Vec<Choice>>,
    #[serde(default)]
    error: Option<Value>,
    #[serde(default)]
    usage: Option<WireUsage>,
}

/// `usage` as Chat Completions reports it (with `stream_options.include_usage`).
#[derive(Debug, Deserialize)]
struct WireUsage {
    #[serde(default)]
    prompt_tokens: Option<u64>,
    #[serde(default)]
    completion_tokens: Option<u64>,
    #[serde(default)]
    prompt_tokens_details: Option<PromptDetails>,
}

#[derive(Debug, Deserialize)]
struct PromptDetails {
    #[serde(default)]
    cached_tokens: Option<u64>,
}

impl WireUsage {
    /// `prompt_tokens` already counts the cached tokens.
    fn usage(self) -> Usage {
        Usage {
            input_tokens: self.prompt_tokens.unwrap_or(0),
            output_tokens: self.completion_tokens.unwrap_or(0),
            cache_read_tokens: self
                .prompt_tokens_details
                .and_then(|details| details.cached_tokens)
                .unwrap_or(0),
            cache_creation_tokens: 0,
        }
    }
}

#[derive(Debug, Deserialize)]
struct Choice {
    #[serde(default)]
    delta: Option<Delta>,
    #[serde(default)]
    finish_reason: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Delta {
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    tool_calls: Option<Vec<CallDelta>>,
}

#[derive(Debug, Deserialize)]
struct CallDelta {
    #[serde(default)]
    index: Option<u32>,
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    function: Option<FunctionDelta>,
}

#[derive(Debug, Deserialize)]
struct FunctionDelta {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    arguments: Option<Value>,
}

impl StreamAccumulator for ChatStream {
    fn on_event(&mut self, event: &SseEvent) -> Result<Option<String>, ModelError> {
        let data = event.data.trim();
        if data == "[DONE]" {
            self.done = true;
            return Ok(None);
        }
        if data.is_empty() {
            return Ok(None);
        }
        let chunk: Chunk =
            serde_json::from_str(data).map_err(|error| invalid_json(&error, data))?;
        if chunk.error.is_some() {
            return Err(ModelError::Provider(provider_message(data)));
        }
        if let Some(usage) = chunk.usage {
            self.usage = Some(usage.usage());
        }
        let mut text = String::new();
        for choice in chunk.choices.unwrap_or_default() {
            if let Some(reason) = &choice.finish_reason {
                self.finish_reason_seen = true;
                self.stop_reason = finish_reason(reason).or(self.stop_reason);
            }
            let Some(delta) = choice.delta else { continue };
            if let Some(content) = delta.content {
                text.push_str(&content);
            }
            for (position, call) in delta.tool_calls.unwrap_or_default().into_iter().enumerate() {
                self.on_call_delta(position, call);
            }
        }
        self.text.push_str(&text);
        Ok((!text.is_empty()).then_some(text))
    }

    fn is_done(&self) -> bool {
        self.done
    }

    fn restart(&mut self) {
        *self = ChatStream::default();
    }
}

impl ChatStream {
    fn on_call_delta(&mut self, position: usize, delta: CallDelta) {
        let index = delta
            .index
            .unwrap_or_else(|| u32::try_from(position).unwrap_or(u32::MAX));
        let call = self.calls.entry(index).or_default();
        if let Some(id) = delta.id.filter(|id| !id.is_empty()) {
            call.id = id;
        }
        let Some(function) = delta.function else {
            return;
        };
        if let Some(name) = function.name.filter(|name| *name != call.name) {
            call.name.push_str(&name);
        }
        match function.arguments {
            Some(Value::String(piece)) => call.arguments.push_str(&piece),
            Some(Value::Null) | None => {}
            Some(object) => call.arguments.push_str(&object.to_string()),
        }
    }

    /// The reply, once the stream ended; calls keep the ids the server sent
    /// (empty when it sent none: the model fills those in), and the usage is
    /// `None` when the server reported none.
    pub fn finish(self) -> Result<AssistantReply, ModelError> {
        if !self.done && !self.finish_reason_seen {
            return Err(ModelError::Protocol(
                "the stream ended before the answer was complete (no finish_reason, no [DONE])"
                    .to_owned(),
            ));
        }
        let tool_calls = self
            .calls
            .into_values()
            .map(|call| {
                let arguments = if call.arguments.trim().is_empty() {
                    "{}".to_owned()
                } else {
                    call.arguments
                };
                ToolCall::new(call.id, call.name, arguments)
            })
            .collect();
        Ok(AssistantReply {
            content: (!self.text.is_empty()).then_some(self.text),
            tool_calls,
            usage: self.usage,
            stop_reason: self.stop_reason,
        })
    }
}

/// A Chat Completions `finish_reason` as a [`StopReason`]; `None` for one
/// the loop does not know.
pub fn finish_reason(reason: &str) -> Option<StopReason> {
    match reason {
        "stop" => Some(StopReason::EndTurn),
        "tool_calls" | "function_call" => Some(StopReason::ToolUse),
        "length" => Some(StopReason::MaxTokens),
        "content_filter" => Some(StopReason::Refusal),
        _ => None,
    }
}

/// An event that is not JSON, quoted (shortened) with serde's reason.
pub(crate) fn invalid_json(error: &serde_json::Error, data: &str) -> ModelError {
    let quoted: String = data.chars().take(200).collect();
    ModelError::Protocol(format!(
        "a stream event is not valid JSON ({error}): {quoted}"
    ))
}

#[cfg(test)]
#[path = "stream_tests.rs"]
mod tests;
