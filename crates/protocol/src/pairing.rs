//! The pairing invariant of contract §6: every tool call of an assistant message is
//! answered by exactly one tool message before the next non-tool message, and no
//! tool message answers an unknown or already-answered id.
//!
//! A violation is a bug in AgentHub, never a model or hook mistake: the loop
//! checks before every model request and fails the run loudly.

use crate::Message;
use std::collections::HashSet;
use thiserror::Error;

/// How a history breaks the pairing invariant; indexes are positions in the
/// history slice, so the bug can be found in the transcript.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PairingError {
    /// A tool call has no result before the next non-tool message (or the end).
    #[error(
        "tool call {id} (message {assistant_index}) has no tool result before message {next_index}"
    )]
    Unanswered {
        /// The unanswered call's id.
        id: String,
        /// The assistant message that made the call.
        assistant_index: usize,
        /// The message by which the result was due (the history's length when
        /// the call is still pending at the end).
        next_index: usize,
    },
    /// A tool message answers an id that no pending call has.
    #[error("tool message {index} answers {id}, which no pending tool call has")]
    Orphan {
        /// The id the tool message answers.
        id: String,
        /// The tool message.
        index: usize,
    },
    /// A tool message answers a call that already has its result.
    #[error("tool message {index} answers {id} a second time")]
    Duplicate {
        /// The id answered twice.
        id: String,
        /// The second tool message.
        index: usize,
    },
    /// One assistant message uses the same call id twice.
    #[error("assistant message {index} repeats tool call id {id}")]
    RepeatedCallId {
        /// The repeated id.
        id: String,
        /// The assistant message.
        index: usize,
    },
}

/// Checks the whole history; `Ok` when every call is paired.
///
/// A trailing assistant message whose calls have no results yet is unpaired too:
/// the check runs right before a model request, when nothing may be pending.
///
/// ```
/// use agenthub_protocol::{check_pairing, Message, PairingError, ToolCall};
///
/// let call = Message::Assistant {
///     content: None,
///     tool_calls: vec![ToolCall::new("call_1", "Read", r#"{"file_path":"a"}"#)],
/// };
/// let answered = [call.clone(), Message::tool("call_1", "contents")];
/// assert_eq!(check_pairing(&answered), Ok(()));
/// assert_eq!(
///     check_pairing(&[call]),
///     Err(PairingError::Unanswered {
///         id: "call_1".into(),
///         assistant_index: 0,
///         next_index: 1,
///     })
/// );
/// ```
pub fn check_pairing(history: &[Message]) -> Result<(), PairingError> {
    let mut pending: Vec<String> = Vec::new();
    let mut pending_from = 0;
    let mut answered: HashSet<&str> = HashSet::new();
    for (index, message) in history.iter().enumerate() {
        match message {
            Message::Tool { tool_call_id, .. } => {
                if let Some(position) = pending.iter().position(|id| id == tool_call_id) {
                    pending.remove(position);
                    answered.insert(tool_call_id);
                } else if answered.contains(tool_call_id.as_str()) {
                    return Err(PairingError::Duplicate {
                        id: tool_call_id.clone(),
                        index,
                    });
                } else {
                    return Err(PairingError::Orphan {
                        id: tool_call_id.clone(),
                        index,
                    });
                }
            }
            other => {
                unanswered(&pending, pending_from, index)?;
                answered.clear();
                pending = call_ids(other, index)?;
                pending_from = index;
            }
        }
    }
    unanswered(&pending, pending_from, history.len())
}

fn unanswered(
    pending: &[String],
    assistant_index: usize,
    next_index: usize,
) -> Result<(), PairingError> {
    match pending.first() {
        Some(id) => Err(PairingError::Unanswered {
            id: id.clone(),
            assistant_index,
            next_index,
        }),
        None => Ok(()),
    }
}

/// The history with an error result `content` given to every tool call that has
/// none before the next non-tool message (or the end), right after the
/// results its assistant message did get; and how many were given. A session
/// killed during a tool call leaves such calls in its transcript (contract §26):
/// this is how it resumes. Orphan and duplicate results are left as they are.
///
/// ```
/// use agenthub_protocol::{answer_unanswered, Message, ToolCall};
///
/// let call = Message::Assistant {
///     content: None,
///     tool_calls: vec![ToolCall::new("call_1", "Bash", r#"{"command":"sleep 9"}"#)],
/// };
/// let (history, answered) = answer_unanswered(vec![call.clone()], "stopped");
/// assert_eq!((history, answered), (vec![call, Message::tool_error("call_1", "stopped")], 1));
/// ```
pub fn answer_unanswered(history: Vec<Message>, content: &str) -> (Vec<Message>, usize) {
    let mut answered = Vec::with_capacity(history.len());
    let mut pending: Vec<String> = Vec::new();
    let mut added = 0;
    for message in history {
        match &message {
            Message::Tool { tool_call_id, .. } => pending.retain(|id| id != tool_call_id),
            other => {
                added += pending.len();
                answered.extend(pending.drain(..).map(|id| Message::tool_error(id, content)));
                pending = other
                    .tool_calls()
                    .iter()
                    .map(|call| call.id.clone())
                    .collect();
            }
        }
        answered.push(message);
    }
    added += pending.len();
    answered.extend(pending.drain(..).map(|id| Message::tool_error(id, content)));
    (answered, added)
}

fn call_ids(message: &Message, index: usize) -> Result<Vec<String>, PairingError> {
    let mut ids: Vec<String> = Vec::new();
    for call in message.tool_calls() {
        if ids.contains(&call.id) {
            return Err(PairingError::RepeatedCallId {
                id: call.id.clone(),
                index,
            });
        }
        ids.push(call.id.clone());
    }
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ToolCall;

    fn calls(ids: &[&str]) -> Message {
        Message::Assistant {
            content: None,
            tool_calls: ids
                .iter()
                .map(|id| ToolCall::new(*id, "Echo", "{}"))
                .collect(),
        }
    }

    #[test]
    fn fully_paired_history_passes() {
        let history = vec![
            Message::user("hi"),
            calls(&["a", "b"]),
            Message::tool("a", "1"),
            Message::tool("b", "2"),
            Message::system("context"),
            Message::assistant_text("done"),
        ];
        assert_eq!(check_pairing(&history), Ok(()));
    }

    #[test]
    fn a_missing_result_before_the_next_message_fails() {
        let history = vec![
            calls(&["a", "b"]),
            Message::tool("a", "1"),
            Message::system("x"),
        ];
        assert_eq!(
            check_pairing(&history),
            Err(PairingError::Unanswered {
                id: "b".into(),
                assistant_index: 0,
                next_index: 2
            })
        );
    }

    #[test]
    fn a_pending_call_at_the_end_fails() {
        assert_eq!(
            check_pairing(&[calls(&["a"])]),
            Err(PairingError::Unanswered {
                id: "a".into(),
                assistant_index: 0,
                next_index: 1
            })
        );
    }

    #[test]
    fn an_orphan_tool_message_fails() {
        assert_eq!(
            check_pairing(&[Message::user("x"), Message::tool("z", "1")]),
            Err(PairingError::Orphan {
                id: "z".into(),
                index: 1
            })
        );
    }

    #[test]
    fn a_second_answer_to_the_same_call_fails() {
        let history = vec![
            calls(&["a"]),
            Message::tool("a", "1"),
            Message::tool("a", "2"),
        ];
        assert_eq!(
            check_pairing(&history),
            Err(PairingError::Duplicate {
                id: "a".into(),
                index: 2
            })
        );
    }

    #[test]
    fn unanswered_calls_get_the_result_after_their_messages_answers() {
        let history = vec![
            calls(&["a", "b"]),
            Message::tool("a", "1"),
            Message::user("next"),
            calls(&["c"]),
        ];
        assert_eq!(
            answer_unanswered(history, "gone"),
            (
                vec![
                    calls(&["a", "b"]),
                    Message::tool("a", "1"),
                    Message::tool_error("b", "gone"),
                    Message::user("next"),
                    calls(&["c"]),
                    Message::tool_error("c", "gone"),
                ],
                2
            )
        );
    }

    #[test]
    fn a_paired_history_is_answered_unchanged() {
        let history = vec![
            calls(&["a"]),
            Message::tool("a", "1"),
            Message::assistant_text("ok"),
        ];
        assert_eq!(answer_unanswered(history.clone(), "gone"), (history, 0));
    }

    #[test]
    fn repeated_call_ids_in_one_message_fail() {
        assert_eq!(
            check_pairing(&[calls(&["a", "a"])]),
            Err(PairingError::RepeatedCallId {
                id: "a".into(),
                index: 0
            })
        );
    }
}
