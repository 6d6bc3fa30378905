//! The model trait.

use agenthub_protocol::{Message, StopReason, ToolCall, ToolSpec, Usage};
use futures::future::BoxFuture;
use thiserror::Error;
use tokio_util::sync::CancellationToken;

/// One model request: the whole history, the tools on offer, and what the
/// request is for.
#[derive(Debug, Clone, Copy)]
pub struct ModelRequest<'a> {
    /// The whole history so far, oldest first. A model keeps no conversation
    /// state between requests: everything it may know is here.
    pub messages: &'a [Message],
    /// The tools the model may call in this reply; empty for none.
    pub tools: &'a [ToolSpec],
    /// A turn of the conversation, a compaction summary or a `prompt`
    /// hook's question. Part of the request (not a method of its own) so
    /// that a wrapper model forwards it by forwarding the request.
    pub purpose: RequestPurpose,
}

/// What a [`ModelRequest`] asks for. Real models answer every purpose the
/// same way; the scripted model answers a summary from its script's
/// `summaries` and a hook question from its `hook_answers`, and the ReAct
/// wrapper renders only turns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum RequestPurpose {
    /// The conversation's next reply: text, tool calls, or both.
    #[default]
    Turn,
    /// A summary of the history (contract §12 "Compaction"): the last
    /// message asks for it, and no tools are offered.
    Summary,
    /// A `prompt` hook's question (docs/hooks.md "Handler types"): an
    /// instruction and the question, no tools; the answer should be
    /// `{"ok": true}` or `{"ok": false, "reason": "..."}`.
    HookQuestion,
}

impl<'a> ModelRequest<'a> {
    /// A compaction summary request for `messages` (no tools).
    pub fn summary(messages: &'a [Message]) -> Self {
        ModelRequest {
            messages,
            tools: &[],
            purpose: RequestPurpose::Summary,
        }
    }

    /// A `prompt` hook's question (no tools).
    pub fn hook_question(messages: &'a [Message]) -> Self {
        ModelRequest {
            messages,
            tools: &[],
            purpose: RequestPurpose::HookQuestion,
        }
    }
}

/// One assistant message: text, tool calls, or both. Serialisable so that a
/// journal can record it (contract §18 "Durability").
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct AssistantReply {
    /// The reply's text; `None` when the model only called tools.
    pub content: Option<String>,
    /// The tools the model asks to run, each with an id its tool result
    /// will answer; empty for a final answer.
    pub tool_calls: Vec<ToolCall>,
    /// The tokens the request used, when the provider reported them; `None`
    /// when it did not (a missing usage is never an error) and for the
    /// scripted model.
    pub usage: Option<Usage>,
    /// How the provider said the reply ended (OpenAI's `finish_reason`,
    /// Anthropic's `stop_reason`); `None` when it said nothing the loop
    /// knows. [`StopReason::MaxTokens`]: the reply was cut at the output
    /// limit and is not complete (contract §33).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<StopReason>,
}

impl AssistantReply {
    /// A reply with `content` and `tool_calls`, no usage and no stop reason reported.
    pub fn new(content: Option<String>, tool_calls: Vec<ToolCall>) -> Self {
        AssistantReply {
            content,
            tool_calls,
            usage: None,
            stop_reason: None,
        }
    }

    /// Whether the reply was cut at the output limit (contract §33).
    pub fn was_cut(&self) -> bool {
        self.stop_reason == Some(StopReason::MaxTokens)
    }

    /// The reply as the [`Message::Assistant`] appended to the history
    /// (the usage is not part of it).
    pub fn into_message(self) -> Message {
        Message::Assistant {
            content: self.content,
            tool_calls: self.tool_calls,
        }
    }
}

/// Receives what a model streams while it answers.
pub trait ModelEvents: Send + Sync {
    /// A piece of assistant text, as it arrives.
    fn text_delta(&self, _text: &str) {}

    /// Tokens spent by requests that ended without a reply (a ReAct turn
    /// whose replies stayed unreadable after its corrections): the caller
    /// counts them as it counts a reply's usage (contract §22).
    fn unanswered_usage(&self, _usage: Usage) {}

    /// Something about the reply the person should know, without the
    /// `[Warning]` prefix (a tool call the server returned as text under
    /// `--tool-protocol native`). Models never print; the caller shows it.
    fn warning(&self, _text: &str) {}

    /// A request failed and is sent again after a wait (contract §33: every
    /// retry is visible); told before the wait.
    fn retrying(&self, _retry: &Retry) {}
}

/// One retry of a model request, as [`ModelEvents::retrying`] is told it.
/// Its `Display` is the line a person reads: `retry 1/3 in 1 s: <why>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Retry {
    /// Which retry this is, counted from 1.
    pub number: u32,
    /// How many retries the policy allows.
    pub allowed: u32,
    /// How long the request waits before it is sent again, in milliseconds.
    pub wait_millis: u64,
    /// Why the attempt before it failed.
    pub error: ModelError,
}

impl std::fmt::Display for Retry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "retry {}/{} in {} s: {}",
            self.number,
            self.allowed,
            seconds(self.wait_millis),
            self.error
        )
    }
}

/// Ignores every streamed event.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoModelEvents;

impl ModelEvents for NoModelEvents {}

/// Why a model produced no reply. The agent loop fails the run with this
/// message (a run whose request was cancelled ends as cancelled instead). No
/// message carries an API key.
#[derive(Debug, Clone, PartialEq, Eq, Error, serde::Serialize, serde::Deserialize)]
pub enum ModelError {
    /// The scripted model was asked more often than its script has turns.
    #[error(
        "the script {file} has no turn left for model request {request} (it has {turns} turns)"
    )]
    ScriptExhausted {
        /// The script, as named when it was loaded.
        file: String,
        /// Which model request found no turn, counted from 1.
        request: usize,
        /// How many turns the script has.
        turns: usize,
    },
    /// The provider answered with an HTTP error status that is not retried,
    /// or still did after every retry.
    #[error("the provider answered {status}: {message}")]
    Status {
        /// The HTTP status code.
        status: u16,
        /// The provider's own error message, from its answer's body.
        message: String,
    },
    /// The request could not be sent: no connection, a TLS failure, a
    /// refused connection. Never used for a server that answered.
    #[error("the provider could not be reached: {0}")]
    Transport(String),
    /// The provider did not finish its answer within the request timeout
    /// (`API_TIMEOUT_MS`, settings `apiTimeoutMs`), after every retry.
    #[error(
        "the provider did not answer within {} s (raise the limit with API_TIMEOUT_MS or the settings key apiTimeoutMs, in milliseconds)",
        seconds(*millis)
    )]
    Timeout {
        /// The request timeout, in milliseconds.
        millis: u64,
    },
    /// The provider started answering, then sent nothing for the stream
    /// idle limit, after every retry.
    #[error(
        "the provider started answering, then sent nothing for {} s (the stream idle limit)",
        seconds(*millis)
    )]
    StreamSilent {
        /// The idle limit, in milliseconds.
        millis: u64,
    },
    /// The provider answered, then the connection broke off mid-answer.
    #[error("the provider's answer broke off: {0}")]
    Interrupted(String),
    /// The run's spending reached `--max-budget-usd`: no request was sent.
    #[error(
        "budget exceeded: ${} spent, the limit is ${} (--max-budget-usd); no further model request was made",
        dollars(*spent_micros),
        dollars(*limit_micros)
    )]
    BudgetExceeded {
        /// What the requests so far cost, in millionths of a US dollar.
        spent_micros: u64,
        /// The limit, in millionths of a US dollar.
        limit_micros: u64,
    },
    /// An answer arrived but is not what the protocol promises: not an event
    /// stream, an event that is not JSON, a stream that ended early, or a
    /// ReAct reply that stayed unreadable after corrections.
    #[error("the provider's answer could not be read: {0}")]
    Protocol(String),
    /// The provider reported an error inside the stream, after it had
    /// started answering (e.g. overloaded).
    #[error("the provider reported an error during its answer: {0}")]
    Provider(String),
    /// The request could not be built: the body did not serialize, or the
    /// key cannot go in a header.
    #[error("the request could not be encoded: {0}")]
    Encode(String),
    /// The caller's cancel token fired before the reply was complete.
    #[error("the model request was cancelled")]
    Cancelled,
}

impl ModelError {
    /// Whether the model was asked at all: a spent budget refuses before
    /// any request, so that refusal is no model request of the run.
    pub fn request_was_made(&self) -> bool {
        !matches!(self, ModelError::BudgetExceeded { .. })
    }

    /// The run's error when a model request failed this way: `model request
    /// failed: …`, except a spent budget, whose text stands alone (it starts
    /// with `budget exceeded`, contract §22).
    pub fn run_error(&self) -> String {
        match self {
            ModelError::BudgetExceeded { .. } => self.to_string(),
            other => format!("model request failed: {other}"),
        }
    }
}

/// Milliseconds as seconds the way a person writes them: `600`, `0.25`.
fn seconds(millis: u64) -> String {
    (millis as f64 / 1000.0).to_string()
}

/// Millionths of a dollar as dollars with four decimals: `0.0123`.
fn dollars(micros: u64) -> String {
    format!("{:.4}", micros as f64 / 1_000_000.0)
}

/// A chat model: history and tool definitions in, one assistant message out.
///
/// Implement it to plug in a model AgentHub does not ship (a local engine, a
/// test double); the agent loop only ever sees this trait.
///
/// ```
/// use agenthub_model::{
///     AssistantReply, ChatModel, ModelError, ModelEvents, ModelRequest, NoModelEvents, RequestPurpose,
/// };
/// use agenthub_protocol::Message;
/// use futures::future::BoxFuture;
/// use tokio_util::sync::CancellationToken;
///
/// /// Answers every prompt with its length, and never calls a tool.
/// struct Counter;
///
/// impl ChatModel for Counter {
///     fn complete<'a>(
///         &'a self,
///         request: ModelRequest<'a>,
///         events: &'a dyn ModelEvents,
///         _cancel: &'a CancellationToken,
///     ) -> BoxFuture<'a, Result<AssistantReply, ModelError>> {
///         Box::pin(async move {
///             let prompt = request.messages.last().and_then(Message::text).unwrap_or("");
///             let answer = format!("{} characters", prompt.len());
///             events.text_delta(&answer);
///             Ok(AssistantReply::new(Some(answer), Vec::new()))
///         })
///     }
/// }
///
/// let history = [Message::user("hello")];
/// let request = ModelRequest { messages: &history, tools: &[], purpose: RequestPurpose::Turn };
/// let reply = futures::executor::block_on(Counter.complete(
///     request,
///     &NoModelEvents,
///     &CancellationToken::new(),
/// ));
/// assert_eq!(reply, Ok(AssistantReply::new(Some("5 characters".into()), vec![])));
/// ```
pub trait ChatModel: Send + Sync {
    /// Answers one request with the next assistant message. Streamed text
    /// goes to `events` as it arrives (a model that does not stream sends it
    /// once). A model that waits on IO ends with [`ModelError::Cancelled`]
    /// soon after `cancel` fires. It never runs a tool or changes the history.
    fn complete<'a>(
        &'a self,
        request: ModelRequest<'a>,
        events: &'a dyn ModelEvents,
        cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, Result<AssistantReply, ModelError>>;

    /// Tells the model that the loop took its next reply from a journal
    /// instead of asking it (a replayed step, contract §18): a model that keeps a
    /// position, like the scripted model, moves past the reply it would have
    /// given. The default does nothing. A wrapper model must forward it.
    fn reply_replayed(&self) {}

    /// The model a subagent started now talks to (contract §17), when it is not
    /// this one: the scripted model hands out its script's next
    /// `"subagents"` entry, in the order subagents start. `None` (the
    /// default): the subagent shares this model. A wrapper model must forward it.
    fn subagent_model(&self) -> Option<std::sync::Arc<dyn ChatModel>> {
        None
    }
}
