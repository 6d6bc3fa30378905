//! The scripted model (contract §9): replays a script file's turns in order, one per
//! model request, so that runs, tests and demos need no network and no key.

use crate::{AssistantReply, ChatModel, ModelError, ModelEvents, ModelRequest, RequestPurpose};
use agenthub_protocol::{Message, ToolCall};
use futures::future::BoxFuture;
use serde_json::Value;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio_util::sync::CancellationToken;

/// The placeholder replaced by the content of the latest tool message.
pub const LAST_TOOL_RESULT: &str = "{{last_tool_result}}";

mod script_file;

use script_file::{call_id, TurnReport};
pub use script_file::{ScriptError, ScriptedCall, ScriptedTurn, SubagentScript};

/// A [`ChatModel`] that replays a script's turns in order, one per request,
/// with no network and no key: for tests, demos and offline runs. A request
/// after the last turn fails with [`ModelError::ScriptExhausted`].
#[derive(Debug)]
pub struct ScriptedModel {
    source: String,
    prompt: Option<String>,
    turns: Vec<ScriptedTurn>,
    /// The usage and stop reason each turn's reply reports (the script's
    /// `"usage"` and `"stop_reason"`).
    reports: Vec<TurnReport>,
    next: AtomicUsize,
    summaries: Vec<String>,
    next_summary: AtomicUsize,
    hook_answers: Vec<String>,
    next_hook_answer: AtomicUsize,
    subagents: Vec<SubagentScript>,
    next_subagent: AtomicUsize,
}

impl ScriptedModel {
    /// A model replaying `turns`; `source` names the script in errors (a
    /// path, or a test's name).
    pub fn new(source: impl Into<String>, turns: Vec<ScriptedTurn>) -> Self {
        ScriptedModel {
            source: source.into(),
            prompt: None,
            turns,
            reports: Vec::new(),
            next: AtomicUsize::new(0),
            summaries: Vec::new(),
            next_summary: AtomicUsize::new(0),
            hook_answers: Vec::new(),
            next_hook_answer: AtomicUsize::new(0),
            subagents: Vec::new(),
            next_subagent: AtomicUsize::new(0),
        }
    }

    /// The same model handing `subagents` to the subagents started, in
    /// order (the script's `"subagents"`); a subagent started after the last
    /// gets a script with no turns, so its first request fails naming it.
    pub fn with_subagents(mut self, subagents: Vec<SubagentScript>) -> Self {
        self.subagents = subagents;
        self
    }

    /// The same model answering `prompt` hooks with `answers`, in order (the
    /// script's `"hook_answers"`); a question after the last is an error.
    pub fn with_hook_answers(mut self, answers: Vec<String>) -> Self {
        self.hook_answers = answers;
        self
    }

    /// The same model answering summary requests with `summaries`, in order
    /// (the script's `"summaries"`); after the last, a summary built from
    /// the history.
    pub fn with_summaries(mut self, summaries: Vec<String>) -> Self {
        self.summaries = summaries;
        self
    }

    /// Reads a script file; a malformed one is reported with its JSON path.
    pub fn from_file(path: &Path) -> Result<Self, ScriptError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|error| ScriptError::Unreadable {
            file: file.clone(),
            message: error.to_string(),
        })?;
        Self::from_json(&file, &text)
    }

    /// Parses script text; `source` names it in errors.
    ///
    /// ```
    /// use agenthub_model::{ScriptError, ScriptedModel};
    ///
    /// let model = ScriptedModel::from_json(
    ///     "inline",
    ///     r#"{"turns": [{"tool_calls": [{"name": "Read", "arguments": {"file_path": "a"}}]},
    ///                   {"content": "It says: {{last_tool_result}}"}]}"#,
    /// )?;
    /// assert_eq!(model.turns().len(), 2);
    ///
    /// let broken = ScriptedModel::from_json("inline", r#"{"turns": [{"tool_calls": [{}]}]}"#);
    /// assert!(matches!(
    ///     broken,
    ///     Err(ScriptError::Malformed { path, .. }) if path == "$.turns[0].tool_calls[0]"
    /// ));
    /// # Ok::<(), ScriptError>(())
    /// ```
    pub fn from_json(source: &str, text: &str) -> Result<Self, ScriptError> {
        let script = script_file::parse(source, text)?;
        let (turns, reports) = script.turns.into_iter().map(|turn| turn.split()).unzip();
        Ok(ScriptedModel {
            prompt: script.prompt,
            reports,
            ..ScriptedModel::new(source, turns)
                .with_summaries(script.summaries)
                .with_hook_answers(script.hook_answers)
                .with_subagents(script.subagents)
        })
    }

    /// The script's own `prompt`, if it has one.
    pub fn prompt(&self) -> Option<&str> {
        self.prompt.as_deref()
    }
}
impl ScriptedModel {
    /// Every turn of the script, in replay order, whether replayed yet or not.
    pub fn turns(&self) -> &[ScriptedTurn] {
        &self.turns
    }

    fn reply(
        &self,
        request_index: usize,
        turn: &ScriptedTurn,
        history: &[Message],
    ) -> AssistantReply {
        let content = turn.content.as_ref().map(|text| substitute(text, history));
        let tool_calls = turn
            .tool_calls
            .iter()
            .enumerate()
            .map(|(call_index, call)| {
                let id = call_id(call, request_index, call_index);
                let arguments = match &call.arguments {
                    Value::String(raw) => raw.clone(),
                    other => other.to_string(),
                };
                ToolCall::new(id, call.name.clone(), arguments)
            })
            .collect();
        AssistantReply::new(content, tool_calls)
    }
}

fn substitute(text: &str, history: &[Message]) -> String {
    if !text.contains(LAST_TOOL_RESULT) {
        return text.to_owned();
    }
    let last = history
        .iter()
        .rev()
        .find_map(|message| match message {
            Message::Tool { content, .. } => Some(content.as_str()),
            _ => None,
        })
        .unwrap_or("");
    text.replace(LAST_TOOL_RESULT, last)
}

impl ChatModel for ScriptedModel {
    /// A turn takes the script's next turn; a summary takes the next of its
    /// `summaries` (else one built from the history) and a `prompt` hook's
    /// question the next of its `hook_answers`, neither using a turn.
    fn complete<'a>(
        &'a self,
        request: ModelRequest<'a>,
        events: &'a dyn ModelEvents,
        _cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, Result<AssistantReply, ModelError>> {
        Box::pin(async move {
            match request.purpose {
                RequestPurpose::Turn => self.turn(request.messages, events),
                RequestPurpose::Summary => Ok(self.summary(request.messages)),
                RequestPurpose::HookQuestion => self.hook_answer(),
            }
        })
    }

    /// A replayed reply was this script's next turn: the next request gets
    /// the turn after it.
    fn reply_replayed(&self) {
        self.next.fetch_add(1, Ordering::SeqCst);
    }

    /// The next of the script's `subagents`, as a model of its own.
    fn subagent_model(&self) -> Option<std::sync::Arc<dyn ChatModel>> {
        let index = self.next_subagent.fetch_add(1, Ordering::SeqCst);
        let source = format!("{} subagents[{index}]", self.source);
        let turns = match self.subagents.get(index) {
            Some(script) => script.turns.clone(),
            None => Vec::new(),
        };
        Some(std::sync::Arc::new(ScriptedModel::new(source, turns)))
    }
}

impl ScriptedModel {
    /// The script's next turn, its text streamed.
    fn turn(
        &self,
        history: &[Message],
        events: &dyn ModelEvents,
    ) -> Result<AssistantReply, ModelError> {
        let index = self.next.fetch_add(1, Ordering::SeqCst);
        let turn = self
            .turns
            .get(index)
            .ok_or_else(|| ModelError::ScriptExhausted {
                file: self.source.clone(),
                request: index + 1,
                turns: self.turns.len(),
            })?;
        let mut reply = self.reply(index, turn, history);
        let report = self.reports.get(index).copied().unwrap_or_default();
        reply.usage = report.usage;
        reply.stop_reason = report.stop_reason;
        if let Some(text) = &reply.content {
            events.text_delta(text);
        }
        Ok(reply)
    }

    /// A summary: the next of the script's `summaries`, else one built from
    /// the history.
    fn summary(&self, history: &[Message]) -> AssistantReply {
        let index = self.next_summary.fetch_add(1, Ordering::SeqCst);
        let summary = match self.summaries.get(index) {
            Some(text) => text.clone(),
            None => built_summary(history),
        };
        AssistantReply::new(Some(summary), Vec::new())
    }

    /// A `prompt` hook's answer: the next of the script's `hook_answers`.
    fn hook_answer(&self) -> Result<AssistantReply, ModelError> {
        let index = self.next_hook_answer.fetch_add(1, Ordering::SeqCst);
        let answer = self.hook_answers.get(index).ok_or_else(|| {
            ModelError::Protocol(format!(
                "the script {} has no hook answer left for prompt hook question {} (it has {} hook_answers)",
                self.source,
                index + 1,
                self.hook_answers.len()
            ))
        })?;
        Ok(AssistantReply::new(Some(answer.clone()), Vec::new()))
    }
}

/// The longest part of the first prompt a built summary quotes: a summary
/// of a summary must not grow.
const QUOTED_PROMPT_CHARS: usize = 200;

/// A summary made of what the history shows (its last message, the summary
/// instruction, left out): the first prompt (its start) and how much was said.
fn built_summary(messages: &[Message]) -> String {
    let history = &messages[..messages.len().saturating_sub(1)];
    let first_prompt: String = history
        .iter()
        .find_map(|message| match message {
            Message::User { content } => Some(content.as_str()),
            _ => None,
        })
        .unwrap_or("")
        .chars()
        .take(QUOTED_PROMPT_CHARS)
        .collect();
    let count = |keep: fn(&Message) -> bool| history.iter().filter(|m| keep(m)).count();
    let prompts = count(|message| matches!(message, Message::User { .. }));
    let calls: usize = history
        .iter()
        .map(|message| message.tool_calls().len())
        .sum();
    let results = count(|message| matches!(message, Message::Tool { .. }));
    format!(
        "Summary of {} earlier messages: the conversation began with <{first_prompt}>; \
         {prompts} user messages, {calls} tool calls, {results} tool results.",
        history.len()
    )
}

#[cfg(test)]
mod tests;
