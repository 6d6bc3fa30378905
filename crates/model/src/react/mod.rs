//! The text ReAct protocol (the Go seed article's `Thought:` / `Action:` /
//! `Action Input:` / `Observation:` / `Final Answer:`), for models without
//! native tool calling.
//!
//! [`ReactModel`] wraps any [`ChatModel`] used without tools: it renders the
//! tools and the protocol into the prompt, and parses each reply into either a
//! tool call (with a generated id, so it takes the very same pipeline as a
//! native call: hooks, permission, pairing) or a final answer. A reply it
//! cannot read is sent back with a correction, a bounded number of times;
//! when the request fails, its error quotes the last raw reply, so the user
//! sees what the model said (the run's outcome keeps it in the transcript),
//! and the tokens its requests used go to [`ModelEvents::unanswered_usage`]. The
//! agent loop does not know this wrapper exists, and it must stay that way.

pub mod parse;
pub mod render;

use crate::ids::CallIds;
use crate::{AssistantReply, ChatModel, ModelError, ModelEvents, ModelRequest, RequestPurpose};
use agenthub_protocol::{Message, ToolCall, Usage};
use futures::future::BoxFuture;
use parse::{parse_reply, Parsed};
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// How many unreadable replies are answered with a correction before giving up.
pub const DEFAULT_MAX_CORRECTIONS: u32 = 2;

/// A [`ChatModel`] that speaks ReAct text to an inner model.
pub struct ReactModel {
    inner: Arc<dyn ChatModel>,
    ids: CallIds,
    max_corrections: u32,
}

impl std::fmt::Debug for ReactModel {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("ReactModel")
            .field("max_corrections", &self.max_corrections)
            .finish_non_exhaustive()
    }
}

impl ReactModel {
    /// Wraps `inner`, which from now on is asked without tools and with the
    /// ReAct instructions as its first system message; allows
    /// [`DEFAULT_MAX_CORRECTIONS`] corrections per request.
    pub fn new(inner: Arc<dyn ChatModel>) -> Self {
        ReactModel {
            inner,
            ids: CallIds::new("react_call"),
            max_corrections: DEFAULT_MAX_CORRECTIONS,
        }
    }

    /// How many unreadable replies of one request are answered with a
    /// correction before the request fails with [`ModelError::Protocol`];
    /// 0 fails at the first.
    pub fn with_max_corrections(mut self, count: u32) -> Self {
        self.max_corrections = count;
        self
    }

    async fn ask(
        &self,
        request: ModelRequest<'_>,
        events: &dyn ModelEvents,
        cancel: &CancellationToken,
    ) -> Result<AssistantReply, ModelError> {
        let mut conversation = render::react_history(request.messages, request.tools);
        let mut corrections = 0;
        let mut usage = None;
        loop {
            let inner_request = ModelRequest {
                messages: &conversation,
                tools: &[],
                purpose: RequestPurpose::Turn,
            };
            let reply = self
                .inner
                .complete(inner_request, &RetriesOnly(events), cancel)
                .await?;
            usage = Usage::combine(usage, reply.usage);
            let stop_reason = reply.stop_reason;
            let text = reply.content.unwrap_or_default();
            let problem = match parse_reply(&text) {
                Ok(parsed) => {
                    let answer = self.reply_for(parsed, request.messages, events);
                    return Ok(AssistantReply {
                        usage,
                        stop_reason,
                        ..answer
                    });
                }
                Err(problem) => problem,
            };
            if corrections >= self.max_corrections {
                if let Some(usage) = usage {
                    events.unanswered_usage(usage);
                }
                return Err(ModelError::Protocol(format!(
                    "the model's reply does not follow the ReAct format ({problem}), \
                     still after {corrections} corrections; it replied: {}",
                    quoted_reply(&text)
                )));
            }
            corrections += 1;
            conversation.push(Message::assistant_text(text));
            conversation.push(Message::user(render::correction(&problem.to_string())));
        }
    }

    fn reply_for(
        &self,
        parsed: Parsed,
        history: &[Message],
        events: &dyn ModelEvents,
    ) -> AssistantReply {
        match parsed {
            Parsed::Final(answer) => {
                events.text_delta(&answer);
                AssistantReply::new(Some(answer), Vec::new())
            }
            Parsed::Action {
                thought,
                name,
                input,
            } => {
                let mut tool_calls = vec![ToolCall::new("", name, input)];
                self.ids.assign(history, &mut tool_calls);
                AssistantReply::new(thought, tool_calls)
            }
        }
    }
}

/// Passes the inner model's retries on, and nothing else: its raw text is
/// not what the user reads (the parsed answer is).
struct RetriesOnly<'a>(&'a dyn ModelEvents);

impl ModelEvents for RetriesOnly<'_> {
    fn retrying(&self, retry: &crate::Retry) {
        self.0.retrying(retry);
    }
}

/// The most characters of an unreadable reply kept in the error.
pub const MAX_QUOTED_REPLY: usize = 2000;

/// The model's raw reply as the error quotes it, so that the user (stderr,
/// the transcript's outcome) sees what it said: JSON-quoted, cut at
/// [`MAX_QUOTED_REPLY`] characters with a note.
fn quoted_reply(text: &str) -> String {
    let count = text.chars().count();
    if count <= MAX_QUOTED_REPLY {
        return serde_json::Value::from(text).to_string();
    }
    let kept: String = text.chars().take(MAX_QUOTED_REPLY).collect();
    format!(
        "{} (cut: the first {MAX_QUOTED_REPLY} of {count} characters)",
        serde_json::Value::from(kept)
    )
}

impl ChatModel for ReactModel {
    fn complete<'a>(
        &'a self,
        request: ModelRequest<'a>,
        events: &'a dyn ModelEvents,
        cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, Result<AssistantReply, ModelError>> {
        match request.purpose {
            RequestPurpose::Turn => Box::pin(self.ask(request, events, cancel)),
            // A summary or a `prompt` hook's question has no tools to render
            // as ReAct: the inner model answers it as it is (the scripted
            // model from its `summaries` and `hook_answers`).
            RequestPurpose::Summary | RequestPurpose::HookQuestion => {
                self.inner.complete(request, events, cancel)
            }
        }
    }

    /// The inner model's choice for a subagent, speaking ReAct too.
    fn subagent_model(&self) -> Option<std::sync::Arc<dyn ChatModel>> {
        let inner = self.inner.subagent_model()?;
        Some(std::sync::Arc::new(ReactModel::new(inner)))
    }

    /// A replayed reply was the inner model's.
    fn reply_replayed(&self) {
        self.inner.reply_replayed();
    }
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
