//! A cut reply is never a completed answer (contract §33). A reply the
//! provider cut at the output limit (`max_tokens`) gets one continuation
//! request; cut again, the run fails (`max output tokens: …`, which the JSON
//! output reports as `error_max_output_tokens`), with a warning naming the
//! setting that raises the limit.
//!
//! What the continuation is:
//! - A cut reply of text stays in the history as it came, followed by a user
//!   message asking the model to go on where it stopped; the final answer is
//!   the cut text followed by the continuation's.
//! - A cut reply with tool calls runs none of them: the last call's JSON
//!   arguments may be cut (junk), and the calls before it are a plan the
//!   model did not finish. Each call is answered `Error [invalid_arguments]:
//!   the tool was not run: …` (so the history stays paired), which asks the
//!   model to make the calls again in a shorter reply.
//!
//! This module must never run a call of a cut reply, nor accept a cut reply
//! as an answer.

use crate::run::{Ending, Run};
use crate::AgentEvent;
use agenthub_protocol::{ErrorCode, Message, RunStatus, ToolCall};

/// The user message that asks for the rest of a cut reply of text.
pub(crate) const CONTINUE_PROMPT: &str = "Your reply was cut off at the output token limit. \
Continue exactly where it stopped, without repeating anything you already wrote.";

/// Why each call of a cut reply was not run.
const CUT_CALL: &str = "the reply was cut at the output token limit before it ended, so none \
of its tool calls ran (their arguments may be incomplete); make the calls again in a shorter reply";

/// The run's error when the continuation was cut too; it begins with
/// `max output tokens` (the JSON output's `error_max_output_tokens`).
const CUT_TWICE: &str = "max output tokens: the model's reply was cut at the output token limit, \
and so was its continuation (raise the limit with the settings key maxOutputTokens or \
--max-output-tokens)";

/// The warning told for a first cut.
const CUT_ONCE_WARNING: &str = "the model's reply was cut at the output token limit \
(settings maxOutputTokens, --max-output-tokens); asking it once to continue";

/// The warning told when the continuation was cut too.
const CUT_TWICE_WARNING: &str = "the model's reply was cut at the output token limit twice \
(the reply and its continuation): raise the limit with the settings key maxOutputTokens or \
--max-output-tokens";

/// The warning told for a final answer with no text.
const EMPTY_ANSWER_WARNING: &str = "the model's final answer is empty";

impl Run<'_> {
    /// After a reply cut at the output limit was pushed to the history:
    /// `Some` ends the run (its continuation was cut too), `None` asks the
    /// model for the continuation.
    pub(crate) async fn after_cut(&mut self, calls: &[ToolCall], text: String) -> Option<Ending> {
        if self.cut.take().is_some() {
            self.emit(AgentEvent::Warning(CUT_TWICE_WARNING));
            for call in calls {
                self.answer_cut_call(call);
            }
            self.stop_failure(CUT_TWICE).await;
            return Some(Ending::new(
                RunStatus::Failed,
                None,
                Some(CUT_TWICE.to_owned()),
            ));
        }
        self.emit(AgentEvent::Warning(CUT_ONCE_WARNING));
        if calls.is_empty() {
            self.cut = Some(text);
            self.push(Message::user(CONTINUE_PROMPT));
        } else {
            // The calls are made again: the cut text was not an answer.
            self.cut = Some(String::new());
            for call in calls {
                self.answer_cut_call(call);
            }
        }
        None
    }

    /// Answers one call of a cut reply without running it.
    fn answer_cut_call(&mut self, call: &ToolCall) {
        let content = ErrorCode::InvalidArguments.not_run_text(CUT_CALL);
        self.emit(AgentEvent::ToolCallEnded(
            call,
            &content,
            Some(ErrorCode::InvalidArguments),
        ));
        self.push(Message::tool_error(&call.id, content));
    }

    /// A reply that was not cut: its text, after the text of the cut reply
    /// it continues when it is the final answer (`calls` empty). A final
    /// answer with no text is told as a warning.
    pub(crate) fn continued(&mut self, text: String, calls: &[ToolCall]) -> String {
        let start = self.cut.take().unwrap_or_default();
        if !calls.is_empty() {
            return text;
        }
        let answer = start + &text;
        if answer.trim().is_empty() {
            self.emit(AgentEvent::Warning(EMPTY_ANSWER_WARNING));
        }
        answer
    }
}
