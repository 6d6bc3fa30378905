//! The scripted model (SPEC §9): replays a script file's turns in order, one per
//! model request, so that runs, tests and demos need no network and no key.

use crate::{AssistantReply, ChatModel, ModelError, ModelEvents, ModelRequest};
use agenthub_protocol::{Message, ToolCall};
use futures::future::BoxFuture;
use serde::Deserialize;
use serde_json::error::Category;
use serde_json::Value;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use thiserror::Error;
use tokio_util::sync::CancellationToken;

/// The placeholder replaced by the content of the latest tool message.
pub const LAST_TOOL_RESULT: &str = "{{last_tool_result}}";

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, expecting = "an object {\"turns\": [...]}")]
struct ScriptFile {
    /// The task the script was written for, used when the run names none.
    #[serde(default)]
    prompt: Option<String>,
    turns: Vec<ScriptedTurn>,
    /// Answers to summary requests, in order; a built summary after the last.
    #[serde(default)]
    summaries: Vec<String>,
    /// Answers to `prompt` hooks, in order (`{"ok": true}` …).
    #[serde(default)]
    hook_answers: Vec<String>,
    /// The scripts of the subagents, in the order they start (SPEC §17).
    #[serde(default)]
    subagents: Vec<SubagentScript>,
}

/// One subagent's script: its turns, replayed as a script's are.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a subagent object {\"turns\": [...]}"
)]
pub struct SubagentScript {
    /// The subagent's replies, one per model request it makes.
    pub turns: Vec<ScriptedTurn>,
}

/// One scripted assistant message.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a turn object {\"content\": ..., \"tool_calls\": [...]}"
)]
pub struct ScriptedTurn {
    /// The reply's text; `{{last_tool_result}}` in it is replaced by the
    /// content of the latest tool message when the turn is replayed.
    #[serde(default)]
    pub content: Option<String>,
    /// The tool calls the reply makes, in order.
    #[serde(default)]
    pub tool_calls: Vec<ScriptedCall>,
}

/// One scripted tool call.
///
/// `arguments` is an object (serialized for the call) or a string passed on verbatim.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a tool call object {\"id\": ..., \"name\": ..., \"arguments\": ...}"
)]
pub struct ScriptedCall {
    /// The call's id; when absent, `call_<turn>_<call>` (both counted from 1).
    #[serde(default)]
    pub id: Option<String>,
    /// The tool to call (which may be unknown, to test that failure).
    pub name: String,
    /// The arguments: an object, or a string sent verbatim so that malformed
    /// JSON can be tested; `{}` when absent.
    #[serde(default = "empty_object")]
    pub arguments: Value,
}

fn empty_object() -> Value {
    Value::Object(Default::default())
}

/// A script file that cannot be replayed; the CLI reports it before the run
/// starts (exit status 2).
#[derive(Debug, Error)]
pub enum ScriptError {
    /// The text is not JSON.
    #[error("script {file} is not valid JSON: {message}")]
    InvalidJson {
        /// The script, as named by the caller.
        file: String,
        /// The JSON parser's reason, with line and column.
        message: String,
    },
    /// The file could not be read.
    #[error("cannot read script {file}: {message}")]
    Unreadable {
        /// The script's path.
        file: String,
        /// The operating system's reason.
        message: String,
    },
    /// The JSON does not have the script's shape (an unknown key, a missing
    /// `name`, arguments that are neither object nor string, a repeated id).
    #[error("malformed script {file} at {path}: {message}")]
    Malformed {
        /// The script, as named by the caller.
        file: String,
        /// Where: `$.turns[0].tool_calls[1].arguments`, `$` for the root.
        path: String,
        /// What is wrong and what was expected.
        message: String,
    },
}

/// A [`ChatModel`] that replays a script's turns in order, one per request,
/// with no network and no key: for tests, demos and offline runs. A request
/// after the last turn fails with [`ModelError::ScriptExhausted`].
#[derive(Debug)]
pub struct ScriptedModel {
    source: String,
    prompt: Option<String>,
    turns: Vec<ScriptedTurn>,
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
        let mut deserializer = serde_json::Deserializer::from_str(text);
        let script: ScriptFile =
            serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
                let path = json_path(&error.path().to_string());
                let inner = error.into_inner();
                match inner.classify() {
                    Category::Syntax | Category::Eof => ScriptError::InvalidJson {
                        file: source.to_owned(),
                        message: inner.to_string(),
                    },
                    Category::Data | Category::Io => ScriptError::Malformed {
                        file: source.to_owned(),
                        path,
                        message: inner.to_string(),
                    },
                }
            })?;
        check_turns(source, "$.turns", &script.turns)?;
        for (index, subagent) in script.subagents.iter().enumerate() {
            check_turns(
                source,
                &format!("$.subagents[{index}].turns"),
                &subagent.turns,
            )?;
        }
        Ok(ScriptedModel {
            prompt: script.prompt,
            ..ScriptedModel::new(source, script.turns)
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

/// Refuses turns whose arguments are neither object nor string, or whose
/// calls share an id; `at` is the turns' JSON path.
fn check_turns(source: &str, at: &str, turns: &[ScriptedTurn]) -> Result<(), ScriptError> {
    for (turn_index, turn) in turns.iter().enumerate() {
        let mut ids = std::collections::HashSet::new();
        for (call_index, call) in turn.tool_calls.iter().enumerate() {
            if !(call.arguments.is_object() || call.arguments.is_string()) {
                return Err(ScriptError::Malformed {
                    file: source.to_owned(),
                    path: format!("{at}[{turn_index}].tool_calls[{call_index}].arguments"),
                    message: "expected a JSON object or a string".to_owned(),
                });
            }
            // Two calls of one message with one id could not each get their
            // own result: refuse the script before any tool runs.
            let id = call_id(call, turn_index, call_index);
            if !ids.insert(id.clone()) {
                return Err(ScriptError::Malformed {
                        file: source.to_owned(),
                        path: format!("{at}[{turn_index}].tool_calls[{call_index}].id"),
                        message: format!(
                            "the id {id:?} is already used by an earlier call of this turn; each call of a turn needs its own id"
                        ),
                    });
            }
        }
    }
    Ok(())
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

/// `$` for the root, else `$.turns[0].tool_calls[1]`; a trailing unknown
/// segment (`?`) says nothing and is dropped.
fn json_path(serde_path: &str) -> String {
    let known = serde_path.trim_end_matches('?').trim_end_matches('.');
    if known.is_empty() {
        "$".to_owned()
    } else {
        format!("$.{known}")
    }
}

/// The call's own id, or `call_<turn>_<call>` (both counted from 1).
fn call_id(call: &ScriptedCall, turn_index: usize, call_index: usize) -> String {
    call.id
        .clone()
        .unwrap_or_else(|| format!("call_{}_{}", turn_index + 1, call_index + 1))
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
    fn complete<'a>(
        &'a self,
        request: ModelRequest<'a>,
        events: &'a dyn ModelEvents,
        _cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, Result<AssistantReply, ModelError>> {
        Box::pin(async move {
            let index = self.next.fetch_add(1, Ordering::SeqCst);
            let turn = self
                .turns
                .get(index)
                .ok_or_else(|| ModelError::ScriptExhausted {
                    file: self.source.clone(),
                    request: index + 1,
                    turns: self.turns.len(),
                })?;
            let reply = self.reply(index, turn, request.messages);
            if let Some(text) = &reply.content {
                events.text_delta(text);
            }
            Ok(reply)
        })
    }

    /// A replayed reply was this script's next turn: the next request gets
    /// the turn after it.
    fn reply_replayed(&self) {
        self.next.fetch_add(1, Ordering::SeqCst);
    }

    /// A summary request uses no turn of the script: the next of its
    /// `summaries`, else a summary built from the history.
    fn summarize<'a>(
        &'a self,
        request: ModelRequest<'a>,
        _cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, Result<AssistantReply, ModelError>> {
        Box::pin(async move {
            let index = self.next_summary.fetch_add(1, Ordering::SeqCst);
            let summary = match self.summaries.get(index) {
                Some(text) => text.clone(),
                None => built_summary(request.messages),
            };
            Ok(AssistantReply::new(Some(summary), Vec::new()))
        })
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

    /// A `prompt` hook's question uses no turn: the next of `hook_answers`.
    fn answer_hook<'a>(
        &'a self,
        _request: ModelRequest<'a>,
        _cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, Result<AssistantReply, ModelError>> {
        Box::pin(async move {
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
        })
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
#[path = "scripted_tests.rs"]
mod tests;
