//! The script file's shape (contract §9): turns, summaries, hook answers and
//! subagents, parsed with the JSON path of anything malformed. It only
//! reads and checks a script; replaying it is the model's (`mod.rs`).

use serde::Deserialize;
use serde_json::error::Category;
use serde_json::Value;
use thiserror::Error;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, expecting = "an object {\"turns\": [...]}")]
pub(super) struct ScriptFile {
    /// The task the script was written for, used when the run names none.
    #[serde(default)]
    pub(super) prompt: Option<String>,
    pub(super) turns: Vec<WireTurn>,
    /// Answers to summary requests, in order; a built summary after the last.
    #[serde(default)]
    pub(super) summaries: Vec<String>,
    /// Answers to `prompt` hooks, in order (`{"ok": true}` …).
    #[serde(default)]
    pub(super) hook_answers: Vec<String>,
    /// The scripts of the subagents, in the order they start (contract §17).
    #[serde(default)]
    pub(super) subagents: Vec<SubagentScript>,
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

/// A turn as the script file writes it: a [`ScriptedTurn`], the token
/// usage its reply reports (`"usage": {"input_tokens", "output_tokens", …}`),
/// so that cost and budgets can be tested offline, and the stop reason it
/// reports (`"stop_reason": "max_tokens"`: a reply cut at the output limit,
/// so that the loop's continuation can be tested offline).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a turn object {\"content\": ..., \"tool_calls\": [...], \"usage\": {...}}"
)]
pub(super) struct WireTurn {
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    tool_calls: Vec<ScriptedCall>,
    #[serde(default)]
    usage: Option<agenthub_protocol::Usage>,
    #[serde(default)]
    stop_reason: Option<agenthub_protocol::StopReason>,
}

/// What a turn's reply reports besides its text and calls.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct TurnReport {
    pub(super) usage: Option<agenthub_protocol::Usage>,
    pub(super) stop_reason: Option<agenthub_protocol::StopReason>,
}

impl WireTurn {
    /// The turn and what its reply reports.
    pub(super) fn split(self) -> (ScriptedTurn, TurnReport) {
        let turn = ScriptedTurn {
            content: self.content,
            tool_calls: self.tool_calls,
        };
        let report = TurnReport {
            usage: self.usage,
            stop_reason: self.stop_reason,
        };
        (turn, report)
    }
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

/// Parses script text into its parts, refusing what cannot be replayed;
/// `source` names the script in errors.
pub(super) fn parse(source: &str, text: &str) -> Result<ScriptFile, ScriptError> {
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
    let turns: Vec<ScriptedTurn> = script
        .turns
        .iter()
        .map(|turn| turn.clone().split().0)
        .collect();
    check_turns(source, "$.turns", &turns)?;
    for (index, subagent) in script.subagents.iter().enumerate() {
        check_turns(
            source,
            &format!("$.subagents[{index}].turns"),
            &subagent.turns,
        )?;
    }
    Ok(script)
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
pub(super) fn call_id(call: &ScriptedCall, turn_index: usize, call_index: usize) -> String {
    call.id
        .clone()
        .unwrap_or_else(|| format!("call_{}_{}", turn_index + 1, call_index + 1))
}
