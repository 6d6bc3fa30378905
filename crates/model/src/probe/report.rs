//! What one probe request showed about a server (`agenthub doctor
//! --probe`, SPEC §33), and which tool protocol can work with it. Pure: the
//! chunks and bodies come from [`probe`](super::probe) or from tests.

use crate::text_calls::parse::find_text_calls;
use crate::ToolProtocol;
use serde_json::Value;
use std::time::Duration;

/// How the probe tool's call came back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallShape {
    /// In the provider's tool-call fields.
    Structured,
    /// Written in the reply's text (JSON, a fence or `<tool_call>` tags).
    Text,
    /// Not at all: no call of the probe tool, in either form.
    Absent,
}

/// Whether tool calls can work with a protocol, given the [`CallShape`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// They can.
    Works,
    /// They cannot; `instead` is the protocol that would.
    Fails {
        /// The protocol to use instead.
        instead: ToolProtocol,
    },
}

/// What the server's answer held, gathered chunk by chunk (or from one body
/// when it did not stream).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Observation {
    /// Whether the answer was an event stream.
    pub streamed: bool,
    /// The reply's text (reasoning left out).
    pub text: String,
    /// The names of the structured tool calls.
    pub call_names: Vec<String>,
    /// The last `finish_reason` sent.
    pub finish_reason: Option<String>,
    /// `usage.completion_tokens`, when the server reported usage.
    pub output_tokens: Option<u64>,
}

impl Observation {
    /// Takes one streamed chunk; `true` when it carried the reply's first
    /// token (text, reasoning or a tool call).
    pub fn on_chunk(&mut self, chunk: &Value) -> bool {
        let choice = chunk.pointer("/choices/0");
        let delta = choice.and_then(|choice| choice.get("delta"));
        let first = delta.is_some_and(|delta| self.take_message(delta));
        self.take_end(chunk, choice);
        first
    }

    /// An answer that was one JSON body, not a stream.
    pub fn from_body(body: &Value) -> Self {
        let mut observation = Observation::default();
        let choice = body.pointer("/choices/0");
        if let Some(message) = choice.and_then(|choice| choice.get("message")) {
            observation.take_message(message);
        }
        observation.take_end(body, choice);
        observation
    }

    /// Takes a delta or a message; `true` when it holds anything generated.
    fn take_message(&mut self, message: &Value) -> bool {
        let mut generated = false;
        if let Some(text) = message.get("content").and_then(Value::as_str) {
            self.text.push_str(text);
            generated |= !text.is_empty();
        }
        for key in ["reasoning_content", "reasoning"] {
            generated |= message
                .get(key)
                .and_then(Value::as_str)
                .is_some_and(|text| !text.is_empty());
        }
        let calls = message.get("tool_calls").and_then(Value::as_array);
        for call in calls.into_iter().flatten() {
            generated = true;
            if let Some(name) = call.pointer("/function/name").and_then(Value::as_str) {
                if !name.is_empty() {
                    self.call_names.push(name.to_owned());
                }
            }
        }
        generated
    }

    fn take_end(&mut self, chunk: &Value, choice: Option<&Value>) {
        if let Some(reason) = choice
            .and_then(|choice| choice.get("finish_reason"))
            .and_then(Value::as_str)
        {
            self.finish_reason = Some(reason.to_owned());
        }
        if let Some(tokens) = chunk
            .pointer("/usage/completion_tokens")
            .and_then(Value::as_u64)
        {
            self.output_tokens = Some(tokens);
        }
    }

    /// How the call of `tool` came back.
    pub fn shape(&self, tool: &str) -> CallShape {
        if self.call_names.iter().any(|name| name == tool) {
            CallShape::Structured
        } else if !find_text_calls(&self.text, &[tool]).calls.is_empty() {
            CallShape::Text
        } else {
            CallShape::Absent
        }
    }
}

/// The probe's findings, as `doctor --probe` reports them.
#[derive(Debug, Clone, PartialEq)]
pub struct ProbeReport {
    /// The endpoint asked.
    pub base_url: String,
    /// The model asked.
    pub model: String,
    /// Whether an API key went with the request.
    pub key_sent: bool,
    /// The `max_tokens` sent.
    pub max_tokens: u32,
    /// How the probe tool's call came back.
    pub tool_calls: CallShape,
    /// What the answer held.
    pub observation: Observation,
    /// From sending the request to the first generated token (streamed
    /// answers only).
    pub first_token: Option<Duration>,
    /// Generated tokens per second after the first (needs usage).
    pub tokens_per_second: Option<f64>,
}

impl ProbeReport {
    /// `Some(true)` when the reply stayed within `max_tokens`, `Some(false)`
    /// when it had more, `None` without usage to tell.
    pub fn max_tokens_honoured(&self) -> Option<bool> {
        self.observation
            .output_tokens
            .map(|tokens| tokens <= u64::from(self.max_tokens))
    }

    /// Whether tool calls can work under `protocol`. ReAct asks for calls in
    /// its own text format and sends no tools, so the server's tool support
    /// does not decide it.
    pub fn verdict(&self, protocol: ToolProtocol) -> Verdict {
        match (self.tool_calls, protocol) {
            (_, ToolProtocol::React) | (CallShape::Structured, _) => Verdict::Works,
            (CallShape::Text, ToolProtocol::Auto) => Verdict::Works,
            (CallShape::Text, ToolProtocol::Native) => Verdict::Fails {
                instead: ToolProtocol::Auto,
            },
            (CallShape::Absent, ToolProtocol::Native | ToolProtocol::Auto) => Verdict::Fails {
                instead: ToolProtocol::React,
            },
        }
    }
}

/// Tokens per second over `generating`, when both are known and non-zero.
pub(crate) fn rate(tokens: Option<u64>, generating: Option<Duration>) -> Option<f64> {
    let seconds = generating?.as_secs_f64();
    let tokens = tokens.filter(|tokens| *tokens > 0)?;
    (seconds > 0.0).then(|| tokens as f64 / seconds)
}

#[cfg(test)]
#[path = "report_tests.rs"]
mod tests;
