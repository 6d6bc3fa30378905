//! Compaction (contract §12): the older part of the history becomes one summary
//! message written by the model, so a long session fits its context window.
//!
//! The compacted history is the leading system messages (the system prompt),
//! then the summary, then the `kept` latest messages. `kept` is chosen so that no
//! tool call is split from its results ([`kept_suffix`]), so the pairing
//! invariant holds after every compaction. PreCompact hooks run first (a block
//! cancels a manual compaction; an automatic one goes on), SessionStart hooks
//! with `source: "compact"` after. The transcript gets the `compaction`
//! record, then the summary message.
//!
//! This module never drops a message without a summary standing for it, and
//! never sends tools with a summary request.

use crate::budget::estimate_tokens;
use crate::run::Run;
use crate::AgentEvent;
use agenthub_hooks::{PreCompactContext, SessionSource, SessionStartContext};
use agenthub_model::{ModelRequest, NoModelEvents};
use agenthub_protocol::{CompactionRecord, CompactionTrigger, Message};
use thiserror::Error;

/// How many of the latest messages a compaction tries to keep as they are.
pub const KEEP_LATEST: usize = 4;

/// The instruction that ends a summary request.
pub const SUMMARY_INSTRUCTION: &str = "Summarise the conversation so far for your own later use: \
the user's requests, what was done (files read and changed, commands run and their results), \
decisions taken, and what remains to do. Be concise and keep exact names, paths and errors. \
Answer with the summary only.";

/// The words before the summary in the message that replaces the older history.
pub const SUMMARY_HEADER: &str =
    "This session continues an earlier conversation that was compacted. Summary of it:";

/// Why a compaction did not happen.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CompactionError {
    /// Nothing before the kept messages could be summarised.
    #[error("nothing to compact: the history has no older messages to summarise")]
    NothingToCompact,
    /// A PreCompact hook blocked a manual compaction.
    #[error("a PreCompact hook blocked the compaction: {0}")]
    Blocked(String),
    /// The model could not write the summary.
    #[error("the summary request failed: {0}")]
    SummaryFailed(String),
    /// The run was cancelled while compacting.
    #[error("the compaction was cancelled")]
    Cancelled,
}

/// The number of leading system messages: the system prompt, always kept.
pub fn leading_system(history: &[Message]) -> usize {
    history
        .iter()
        .take_while(|message| matches!(message, Message::System { .. }))
        .count()
}

/// How many of the latest messages to keep, about `want`: the kept suffix
/// starts at a user or assistant message with every earlier tool call
/// answered before it, after the leading system messages. Earlier starts are
/// tried first (keeping a little more), then later ones; 0 when none fits.
pub fn kept_suffix(history: &[Message], want: usize) -> usize {
    let first = leading_system(history);
    let len = history.len();
    let target = len.saturating_sub(want).max(first);
    let cuts = cut_points(history, first);
    let start = cuts
        .iter()
        .rev()
        .find(|cut| **cut <= target && **cut > first)
        .or_else(|| cuts.iter().find(|cut| **cut > target))
        .copied()
        .unwrap_or(len);
    len - start
}

/// [`kept_suffix`], made shorter (by whole rounds) until the kept messages
/// use at most `max_tokens` (estimated): a compaction must leave room, or
/// the next request would compact again at once.
pub fn kept_within(history: &[Message], want: usize, max_tokens: u64) -> usize {
    let len = history.len();
    let mut start = len - kept_suffix(history, want);
    let cuts = cut_points(history, leading_system(history));
    let mut tokens = estimate_tokens(&history[start..]);
    while start < len && tokens > max_tokens {
        let next = cuts.iter().copied().find(|cut| *cut > start).unwrap_or(len);
        tokens -= estimate_tokens(&history[start..next]);
        start = next;
    }
    len - start
}

/// The indexes after `first` where the history may be cut: a user or
/// assistant message with no tool call before it still waiting for its result.
fn cut_points(history: &[Message], first: usize) -> Vec<usize> {
    let mut pending = std::collections::HashSet::new();
    let mut cuts = Vec::new();
    for (index, message) in history.iter().enumerate().skip(first) {
        let starts_turn = matches!(message, Message::User { .. } | Message::Assistant { .. });
        if starts_turn && pending.is_empty() {
            cuts.push(index);
        }
        match message {
            Message::Tool { tool_call_id, .. } => {
                pending.remove(tool_call_id.as_str());
            }
            other => pending.extend(other.tool_calls().iter().map(|call| call.id.as_str())),
        }
    }
    cuts
}

/// The compacted history: the leading system messages, `summary`, and the
/// `kept` latest messages of `history`.
pub fn compacted(history: &[Message], summary: Message, kept: usize) -> Vec<Message> {
    let first = leading_system(history);
    let mut out = history[..first].to_vec();
    out.push(summary);
    out.extend_from_slice(&history[history.len() - kept..]);
    out
}

/// The `<system-reminder>` block (contract §33) the summarised part's first
/// user message starts with, with the blank line after it; empty when it has
/// none. The summary keeps it, so the workspace context (memory files
/// included) survives compaction as it did in the system prompt.
fn reminder_block(summarised: &[Message]) -> &str {
    let first = summarised.iter().find_map(|message| match message {
        Message::User { content } => Some(content.as_str()),
        _ => None,
    });
    first.map_or("", |content| {
        &content[..content.len() - agenthub_protocol::typed_prompt(content).len()]
    })
}

/// The message that stands for the summarised history.
pub fn summary_message(summary: &str) -> Message {
    Message::user(format!("{SUMMARY_HEADER}\n\n{summary}"))
}

impl Run<'_> {
    /// Compacts the history when it uses the budget's threshold or more;
    /// a failure is a warning and the run goes on uncompacted.
    pub(crate) async fn auto_compact(&mut self) {
        let tokens = self.tokens_in_use();
        if tokens < self.agent.budget().limit() {
            return;
        }
        match self.compact(CompactionTrigger::Auto, "", tokens).await {
            Ok(record) if record.tokens_after >= self.agent.budget().limit() => {
                self.emit(AgentEvent::Warning(&format!(
                    "the compacted history still uses {} tokens of the {} budgeted",
                    record.tokens_after,
                    self.agent.budget().limit()
                )))
            }
            Ok(_) | Err(CompactionError::NothingToCompact) => {}
            Err(error) => self.emit(AgentEvent::Warning(&format!(
                "automatic compaction did not happen: {error}"
            ))),
        }
    }

    /// Compacts the history now: PreCompact hooks, the summary request, the
    /// new history, its record, then SessionStart hooks (`compact`).
    pub(crate) async fn compact(
        &mut self,
        trigger: CompactionTrigger,
        instructions: &str,
        tokens_before: u64,
    ) -> Result<CompactionRecord, CompactionError> {
        // Half of what the leading system messages (the system prompt) leave
        // of the limit: they stay, so the room is what is left beside them.
        let fixed = estimate_tokens(&self.history[..leading_system(&self.history)]);
        let room = self.agent.budget().limit().saturating_sub(fixed) / 2;
        let kept = kept_within(&self.history, KEEP_LATEST, room).max(self.unsent_prompt(trigger));
        let end = self.history.len() - kept;
        if end <= leading_system(&self.history) {
            return Err(CompactionError::NothingToCompact);
        }
        self.pre_compact(trigger, instructions).await?;
        let summary = self.summarize(&self.history[..end], instructions).await?;
        let reminder = reminder_block(&self.history[..end]);
        let standing = Message::user(format!("{reminder}{SUMMARY_HEADER}\n\n{summary}"));
        let history = compacted(&self.history, standing, kept);
        let record = CompactionRecord {
            trigger,
            tokens_before,
            tokens_after: estimate_tokens(&history),
            kept,
        };
        self.emit(AgentEvent::Compaction(&record));
        self.emit(AgentEvent::Message(&history[leading_system(&history)]));
        self.replace_history(history);
        self.post_compact(trigger, &summary).await;
        self.after_compaction().await;
        Ok(record)
    }

    /// Before the run's first request, the messages from its prompt on: a
    /// prompt is never summarised before the model has read it (§29); the
    /// history before it may be. Afterwards, and for a compaction asked
    /// for between prompts (`/compact`), nothing must be kept.
    fn unsent_prompt(&self, trigger: CompactionTrigger) -> usize {
        if self.turns > 0 || trigger != CompactionTrigger::Auto {
            return 0;
        }
        self.history
            .iter()
            .rposition(|message| matches!(message, Message::User { .. }))
            .map_or(0, |index| self.history.len() - index)
    }

    async fn pre_compact(
        &self,
        trigger: CompactionTrigger,
        instructions: &str,
    ) -> Result<(), CompactionError> {
        let context = PreCompactContext {
            common: self.hook_common(),
            trigger,
            custom_instructions: instructions.to_owned(),
        };
        let ran = self
            .unless_cancelled(self.agent.hooks.run_pre_compact(context))
            .await
            .ok_or(CompactionError::Cancelled)?;
        self.emit_hook_run(&ran);
        match (ran.verdict.blocked, trigger) {
            (Some(reason), CompactionTrigger::Manual) => Err(CompactionError::Blocked(reason)),
            (Some(reason), CompactionTrigger::Auto) => {
                self.emit(AgentEvent::Warning(&format!(
                    "a PreCompact hook objected ({reason}); an automatic compaction goes on"
                )));
                Ok(())
            }
            (None, _) => Ok(()),
        }
    }

    async fn summarize(
        &self,
        part: &[Message],
        instructions: &str,
    ) -> Result<String, CompactionError> {
        let mut messages = part.to_vec();
        let instruction = match instructions.trim() {
            "" => SUMMARY_INSTRUCTION.to_owned(),
            extra => format!("{SUMMARY_INSTRUCTION}\n\nFocus: {extra}"),
        };
        messages.push(Message::user(instruction));
        let request = ModelRequest::summary(&messages);
        let reply = self
            .tally
            .api
            .time(self.unless_cancelled(self.agent.model.complete(
                request,
                &NoModelEvents,
                &self.cancel,
            )))
            .await
            .ok_or(CompactionError::Cancelled)?;
        let reply = reply.map_err(|error| CompactionError::SummaryFailed(error.to_string()))?;
        match reply.content.filter(|text| !text.trim().is_empty()) {
            Some(text) => Ok(text),
            None => Err(CompactionError::SummaryFailed(
                "the model answered with no text".to_owned(),
            )),
        }
    }

    /// SessionStart hooks with `source: "compact"`: their context joins the
    /// history; what else they say is only shown.
    /// Tells the PostCompact hooks (contract §21) the summary; they only observe.
    async fn post_compact(&self, trigger: CompactionTrigger, summary: &str) {
        let context = agenthub_hooks::PostCompactContext {
            common: self.hook_common(),
            trigger,
            compact_summary: summary.to_owned(),
        };
        if let Some(ran) = self
            .unless_cancelled(self.agent.hooks.run_post_compact(context))
            .await
        {
            self.emit_hook_run(&ran);
        }
    }

    async fn after_compaction(&mut self) {
        let start = SessionStartContext {
            common: self.hook_common(),
            source: SessionSource::Compact,
            model: self.agent.model_name.clone(),
        };
        let Some(started) = self
            .unless_cancelled(self.agent.hooks.run_session_start(start))
            .await
        else {
            return;
        };
        self.emit_hook_run(&started);
        self.push_context(started.verdict.context);
    }
}

#[cfg(test)]
#[path = "compaction_tests.rs"]
mod tests;
