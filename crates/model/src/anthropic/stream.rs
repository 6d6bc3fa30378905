//! Accumulates an Anthropic Messages event stream into one assistant reply.
//!
//! Pure: fed server-sent events by the transport or by tests. Text blocks stream to
//! the user; `tool_use` blocks collect their `input_json_delta` pieces; `ping`,
//! thinking blocks and unknown events are ignored; an `error` event ends the
//! answer with the provider's message. Token usage comes from
//! `message_start` and is brought up to date by `message_delta` (whose counts
//! are running totals); the `stop_reason` is kept (`max_tokens`: the reply
//! was cut at the output limit). It must never accept a stream that
//! stopped before `message_stop` (or at least a `stop_reason`).

use crate::openai::stream::invalid_json;
use crate::transport::{SseEvent, StreamAccumulator};
use crate::{AssistantReply, ModelError};
use agenthub_protocol::{StopReason, ToolCall, Usage};
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// One Messages answer as it streams in: its content blocks by index and
/// whether the provider said it is complete. The transport feeds it; when the
/// stream ends, [`MessagesStream::finish`] gives the reply.
#[derive(Debug, Default)]
pub struct MessagesStream {
    blocks: BTreeMap<usize, BlockState>,
    stop_reason: Option<String>,
    stopped: bool,
    usage: Option<WireUsage>,
}

#[derive(Debug)]
enum BlockState {
    Text(String),
    ToolUse {
        id: String,
        name: String,
        start_input: Option<Value>,
        json: String,
    },
    Other,
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Event {
    MessageStart {
        #[serde(default)]
        message: Option<StartMessage>,
    },
    ContentBlockStart {
        index: usize,
        content_block: StartBlock,
    },
    ContentBlockDelta {
        index: usize,
        delta: BlockDelta,
    },
    MessageDelta {
        #[serde(default)]
        delta: Option<MessageDelta>,
        #[serde(default)]
        usage: Option<WireUsage>,
    },
    MessageStop,
    Error {
        #[serde(default)]
        error: Option<Value>,
    },
    #[serde(other)]
    Ignored,
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum StartBlock {
    Text {
        #[serde(default)]
        text: String,
    },
    ToolUse {
        #[serde(default)]
        id: String,
        #[serde(default)]
        name: String,
        #[serde(default)]
        input: Option<Value>,
    },
    #[serde(other)]
    Other,
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum BlockDelta {
    TextDelta {
        text: String,
    },
    InputJsonDelta {
        partial_json: String,
    },
    #[serde(other)]
    Other,
}

#[derive(Debug, Deserialize)]
struct StartMessage {
    #[serde(default)]
    usage: Option<WireUsage>,
}

/// `usage` as Messages reports it: `input_tokens` leaves out the tokens read
/// from or written to the prompt cache, which are counted apart.
#[derive(Debug, Default, Deserialize)]
struct WireUsage {
    #[serde(default)]
    input_tokens: Option<u64>,
    #[serde(default)]
    output_tokens: Option<u64>,
    #[serde(default)]
    cache_read_input_tokens: Option<u64>,
    #[serde(default)]
    cache_creation_input_tokens: Option<u64>,
}

impl WireUsage {
    /// Takes every count `later` reports, keeps the others.
    fn update(&mut self, later: WireUsage) {
        self.input_tokens = later.input_tokens.or(self.input_tokens);
        self.output_tokens = later.output_tokens.or(self.output_tokens);
        self.cache_read_input_tokens = later
            .cache_read_input_tokens
            .or(self.cache_read_input_tokens);
        self.cache_creation_input_tokens = later
            .cache_creation_input_tokens
            .or(self.cache_creation_input_tokens);
    }

    /// AgentHub's usage, whose `input_tokens` counts the whole prompt.
    fn usage(&self) -> Usage {
        let cache_read = self.cache_read_input_tokens.unwrap_or(0);
        let cache_creation = self.cache_creation_input_tokens.unwrap_or(0);
        Usage {
            input_tokens: self
                .input_tokens
                .unwrap_or(0)
                .saturating_add(cache_read)
                .saturating_add(cache_creation),
            output_tokens: self.output_tokens.unwrap_or(0),
            cache_read_tokens: cache_read,
            cache_creation_tokens: cache_creation,
        }
    }
}

#[derive(Debug, Deserialize)]
struct MessageDelta {
    #[serde(default)]
    stop_reason: Option<String>,
}

impl StreamAccumulator for MessagesStream {
    fn on_event(&mut self, event: &SseEvent) -> Result<Option<String>, ModelError> {
        let data = event.data.trim();
        if data.is_empty() || data == "[DONE]" {
            return Ok(None);
        }
        let parsed: Event =
            serde_json::from_str(data).map_err(|error| invalid_json(&error, data))?;
        match parsed {
            Event::MessageStart { message } => {
                self.on_usage(message.and_then(|message| message.usage));
            }
            Event::ContentBlockStart {
                index,
                content_block,
            } => {
                let (state, text) = start_state(content_block);
                self.blocks.insert(index, state);
                return Ok(text);
            }
            Event::ContentBlockDelta { index, delta } => return self.on_delta(index, delta),
            Event::MessageDelta { delta, usage } => {
                if let Some(reason) = delta.and_then(|delta| delta.stop_reason) {
                    self.stop_reason = Some(reason);
                }
                self.on_usage(usage);
            }
            Event::MessageStop => self.stopped = true,
            Event::Error { error } => return Err(ModelError::Provider(error_message(error))),
            Event::Ignored => {}
        }
        Ok(None)
    }

    fn is_done(&self) -> bool {
        self.stopped
    }

    fn restart(&mut self) {
        *self = MessagesStream::default();
    }
}

fn start_state(block: StartBlock) -> (BlockState, Option<String>) {
    match block {
        StartBlock::Text { text } => {
            let shown = (!text.is_empty()).then(|| text.clone());
            (BlockState::Text(text), shown)
        }
        StartBlock::ToolUse { id, name, input } => (
            BlockState::ToolUse {
                id,
                name,
                start_input: input,
                json: String::new(),
            },
            None,
        ),
        StartBlock::Other => (BlockState::Other, None),
    }
}

fn error_message(error: Option<Value>) -> String {
    error
        .as_ref()
        .and_then(|error| error.get("message"))
        .and_then(Value::as_str)
        .unwrap_or("(no message)")
        .to_owned()
}

impl MessagesStream {
    fn on_usage(&mut self, usage: Option<WireUsage>) {
        if let Some(later) = usage {
            self.usage
                .get_or_insert_with(WireUsage::default)
                .update(later);
        }
    }

    fn on_delta(&mut self, index: usize, delta: BlockDelta) -> Result<Option<String>, ModelError> {
        let block = self
            .blocks
            .entry(index)
            .or_insert_with(|| BlockState::Text(String::new()));
        match (block, delta) {
            (BlockState::Text(text), BlockDelta::TextDelta { text: piece }) => {
                text.push_str(&piece);
                Ok(Some(piece))
            }
            (BlockState::ToolUse { json, .. }, BlockDelta::InputJsonDelta { partial_json }) => {
                json.push_str(&partial_json);
                Ok(None)
            }
            (_, BlockDelta::Other) | (BlockState::Other, _) => Ok(None),
            (_, BlockDelta::TextDelta { .. }) | (_, BlockDelta::InputJsonDelta { .. }) => {
                Err(ModelError::Protocol(format!(
                    "content block {index} received a delta of another kind than it started with"
                )))
            }
        }
    }

    /// The reply, once the stream ended; text blocks are joined in order and
    /// tool calls keep the provider's ids (empty when missing: the model fills those in);
    /// the usage is `None` when the provider reported none.
    pub fn finish(self) -> Result<AssistantReply, ModelError> {
        if !self.stopped && self.stop_reason.is_none() {
            return Err(ModelError::Protocol(
                "the stream ended before the answer was complete (no message_stop)".to_owned(),
            ));
        }
        let mut text = String::new();
        let mut tool_calls = Vec::new();
        for block in self.blocks.into_values() {
            match block {
                BlockState::Text(piece) => text.push_str(&piece),
                BlockState::ToolUse {
                    id,
                    name,
                    start_input,
                    json,
                } => tool_calls.push(ToolCall::new(id, name, arguments(start_input, json))),
                BlockState::Other => {}
            }
        }
        Ok(AssistantReply {
            content: (!text.is_empty()).then_some(text),
            tool_calls,
            usage: self.usage.as_ref().map(WireUsage::usage),
            stop_reason: self.stop_reason.as_deref().and_then(stop_reason),
        })
    }
}

/// A Messages `stop_reason` as a [`StopReason`] (the same names); `None`
/// for one the loop does not know.
fn stop_reason(reason: &str) -> Option<StopReason> {
    serde_json::from_value(Value::String(reason.to_owned())).ok()
}

/// The streamed JSON when there was any, else the input given at block start.
fn arguments(start_input: Option<Value>, json: String) -> String {
    if !json.trim().is_empty() {
        return json;
    }
    match start_input {
        Some(input) if !input.is_null() => input.to_string(),
        _ => "{}".to_owned(),
    }
}

#[cfg(test)]
#[path = "stream_tests.rs"]
mod tests;
