//! Tool calls a model wrote as text (SPEC §33): many local servers
//! (llama.cpp without `--jinja`, llama-cpp-python, Ollama models whose
//! template has no tools) hand a small model's call back as
//! ```` ```json {"name": "Read", "arguments": {…}} ``` ```` text instead of in
//! the tool-call fields.
//!
//! [`TextCallModel`] wraps a model that is offered tools natively. When a
//! reply has no structured calls but its text holds calls of offered tools
//! ([`parse::find_text_calls`]), it either takes them as the reply's calls,
//! marked [`CallOrigin::Text`] and with fresh ids, so that they pass the very
//! same pipeline as any call ([`TextCalls::Take`], `--tool-protocol auto`), or
//! leaves the reply as the answer and warns through
//! [`ModelEvents::warning`] how to make them run ([`TextCalls::Warn`], `native`).
//! It never takes a call of a tool that was not offered, and never touches a
//! reply that has structured calls.

pub mod parse;

use crate::ids::CallIds;
use crate::{AssistantReply, ChatModel, ModelError, ModelEvents, ModelRequest, RequestPurpose};
use agenthub_protocol::{CallOrigin, Message, StopReason, ToolCall, Usage};
use futures::future::BoxFuture;
use parse::{find_text_calls, FoundCalls};
use std::sync::{Arc, Mutex};
use tokio_util::sync::CancellationToken;

/// What [`TextCallModel`] does with calls written as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextCalls {
    /// Takes them as the reply's tool calls (`--tool-protocol auto`).
    Take,
    /// Leaves the reply as the answer, with a warning (`native`).
    Warn,
}

/// A [`ChatModel`] that finds the tool calls its inner model wrote as text.
pub struct TextCallModel {
    inner: Arc<dyn ChatModel>,
    mode: TextCalls,
    ids: CallIds,
}

impl std::fmt::Debug for TextCallModel {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("TextCallModel")
            .field("mode", &self.mode)
            .finish_non_exhaustive()
    }
}

impl TextCallModel {
    /// Wraps `inner`, doing `mode` with the calls its replies write as text.
    pub fn new(inner: Arc<dyn ChatModel>, mode: TextCalls) -> Self {
        TextCallModel {
            inner,
            mode,
            ids: CallIds::new("text_call"),
        }
    }

    async fn ask(
        &self,
        request: ModelRequest<'_>,
        events: &dyn ModelEvents,
        cancel: &CancellationToken,
    ) -> Result<AssistantReply, ModelError> {
        let offered: Vec<&str> = request
            .tools
            .iter()
            .map(|tool| tool.name.as_str())
            .collect();
        let reply = match self.mode {
            TextCalls::Warn => self.inner.complete(request, events, cancel).await?,
            TextCalls::Take => {
                let held = HeldText::new(events);
                let reply = self.inner.complete(request, &held, cancel).await?;
                let found = text_calls(&reply, &offered);
                if found.calls.is_empty() {
                    held.release();
                    return Ok(reply);
                }
                return Ok(self.taken(reply.usage, reply.stop_reason, found, request.messages));
            }
        };
        let found = text_calls(&reply, &offered);
        if let Some(first) = found.calls.first() {
            events.warning(&native_warning(&first.name, found.calls.len()));
        }
        Ok(reply)
    }

    fn taken(
        &self,
        usage: Option<Usage>,
        stop_reason: Option<StopReason>,
        found: FoundCalls,
        history: &[Message],
    ) -> AssistantReply {
        let mut calls: Vec<ToolCall> = found
            .calls
            .into_iter()
            .map(|call| ToolCall::new("", call.name, call.arguments).from_origin(CallOrigin::Text))
            .collect();
        self.ids.assign(history, &mut calls);
        let content = (!found.rest.is_empty()).then_some(found.rest);
        AssistantReply {
            content,
            tool_calls: calls,
            usage,
            // The server's own reason: a cut reply stays cut (its calls never run).
            stop_reason,
        }
    }
}

/// The calls written in a reply without structured calls (none otherwise).
fn text_calls(reply: &AssistantReply, offered: &[&str]) -> FoundCalls {
    match (
        &reply.content,
        reply.tool_calls.is_empty(),
        offered.is_empty(),
    ) {
        (Some(text), true, false) => find_text_calls(text, offered),
        _ => FoundCalls::default(),
    }
}

/// The `[Warning]` of a reply whose calls stay its answer under `native`.
pub fn native_warning(first_tool: &str, count: usize) -> String {
    let calls = if count == 1 {
        format!("a call of \"{first_tool}\"")
    } else {
        format!("{count} tool calls (the first of \"{first_tool}\")")
    };
    format!(
        "the server returned {calls} as text, not as a tool call, so it was taken as the \
         answer; to run such calls pass --tool-protocol auto (or react), or use a server that \
         parses tool calls (e.g. llama.cpp with --jinja)"
    )
}

/// Streams text as it comes until a call could be starting (`{`, a fence,
/// a tag), then holds the rest until the reply is known not to be a call.
struct HeldText<'e> {
    events: &'e dyn ModelEvents,
    held: Mutex<Option<String>>,
}

impl<'e> HeldText<'e> {
    fn new(events: &'e dyn ModelEvents) -> Self {
        HeldText {
            events,
            held: Mutex::new(None),
        }
    }

    /// Sends what was held: the reply turned out to be an answer.
    fn release(&self) {
        let held = self.held.lock().ok().and_then(|mut held| held.take());
        if let Some(text) = held.filter(|text| !text.is_empty()) {
            self.events.text_delta(&text);
        }
    }
}

impl ModelEvents for HeldText<'_> {
    fn text_delta(&self, text: &str) {
        let Ok(mut held) = self.held.lock() else {
            return;
        };
        match held.as_mut() {
            Some(held) => held.push_str(text),
            None => match text.find(['{', '`', '<']) {
                None => self.events.text_delta(text),
                Some(at) => {
                    let (shown, kept) = text.split_at(at);
                    if !shown.is_empty() {
                        self.events.text_delta(shown);
                    }
                    *held = Some(kept.to_owned());
                }
            },
        }
    }

    fn unanswered_usage(&self, usage: Usage) {
        self.events.unanswered_usage(usage);
    }

    fn warning(&self, text: &str) {
        self.events.warning(text);
    }
}

impl ChatModel for TextCallModel {
    fn complete<'a>(
        &'a self,
        request: ModelRequest<'a>,
        events: &'a dyn ModelEvents,
        cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, Result<AssistantReply, ModelError>> {
        match request.purpose {
            RequestPurpose::Turn => Box::pin(self.ask(request, events, cancel)),
            RequestPurpose::Summary | RequestPurpose::HookQuestion => {
                self.inner.complete(request, events, cancel)
            }
        }
    }

    fn subagent_model(&self) -> Option<Arc<dyn ChatModel>> {
        let inner = self.inner.subagent_model()?;
        Some(Arc::new(TextCallModel::new(inner, self.mode)))
    }

    fn reply_replayed(&self) {
        self.inner.reply_replayed();
    }
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
