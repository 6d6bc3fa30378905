//! The points of a session (contract §24) as its transcript tells them: the
//! user prompts of the conversation numbered from 1, the checkpoints of the
//! workspace's files taken during each, and the rewinds. A rewind of the
//! conversation to prompt N cuts every line from prompt N's own to the
//! rewind record out of the conversation (the transcript keeps them: it is
//! an audit, never rewritten); the prompts after it are numbered from N again.
//!
//! A prompt is a user text line of the session's own chain that does not
//! follow a candidate answer of the same run: a Stop hook's reason and the
//! answer schema's retry come right after an assistant message without tool
//! calls, a prompt after an outcome, tool results, or nothing.
//!
//! It only reads records; it never touches a file or the workspace.

use agenthub_protocol::claude_line::ContentBlock;
use agenthub_protocol::{Message, RewindRecord, TranscriptRecord};
use std::ops::RangeInclusive;

/// One user prompt of the conversation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptPoint {
    /// Its number: the conversation's prompts counted from 1.
    pub index: u32,
    /// Its transcript line, from 0.
    pub line: usize,
    /// When it was sent (the line's timestamp, RFC 3339), if the line says.
    pub time: Option<String>,
    /// The prompt's text.
    pub text: String,
}

/// One checkpoint record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckpointPoint {
    /// Its transcript line, from 0.
    pub line: usize,
    /// The commit in the workspace's checkpoint store.
    pub id: String,
    /// The prompt it was taken in.
    pub prompt_index: u32,
}

/// One rewind record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RewindPoint {
    /// Its transcript line, from 0.
    pub line: usize,
    /// The record.
    pub record: RewindRecord,
}

/// A session's prompts, checkpoints and rewinds, read line by line.
#[derive(Debug, Clone, Default)]
pub struct Timeline {
    prompts: Vec<PromptPoint>,
    checkpoints: Vec<CheckpointPoint>,
    rewinds: Vec<RewindPoint>,
    cuts: Vec<RangeInclusive<usize>>,
    /// The last line of the conversation was a candidate answer of a run
    /// that has not ended: a user text now is no prompt.
    after_answer: bool,
    /// The next line's number.
    next_line: usize,
}

impl Timeline {
    /// The timeline of a whole transcript's text; a line that is no record
    /// (a last line cut short) is counted and skipped.
    pub fn from_text(text: &str) -> Timeline {
        let mut timeline = Timeline::default();
        for line in text.lines() {
            timeline.feed_line(line);
        }
        timeline
    }

    /// Takes the next line of the transcript.
    pub fn feed_line(&mut self, line: &str) {
        match serde_json::from_str::<TranscriptRecord>(line) {
            Ok(record) => self.take(&record),
            Err(_) => self.next_line += 1,
        }
    }

    /// Takes the next record of the transcript.
    pub fn take(&mut self, record: &TranscriptRecord) {
        let line = self.next_line;
        self.next_line += 1;
        match record {
            TranscriptRecord::User(user) if !user.meta.is_sidechain => match user.prompt() {
                Some(text) => self.user_text(line, Some(user.meta.timestamp.clone()), text),
                None => self.after_answer = false,
            },
            TranscriptRecord::Assistant(assistant) if !assistant.meta.is_sidechain => {
                self.after_answer = !assistant
                    .message
                    .content
                    .iter()
                    .any(|block| matches!(block, ContentBlock::ToolUse { .. }));
            }
            TranscriptRecord::Message {
                agent_id: None,
                message,
            } => match message {
                Message::User { content } => {
                    self.user_text(line, None, agenthub_protocol::typed_prompt(content))
                }
                Message::Assistant { tool_calls, .. } => self.after_answer = tool_calls.is_empty(),
                Message::Tool { .. } => self.after_answer = false,
                Message::System { .. } => {}
            },
            TranscriptRecord::Outcome(_) => self.after_answer = false,
            TranscriptRecord::Checkpoint(record) => self.checkpoints.push(CheckpointPoint {
                line,
                id: record.id.clone(),
                prompt_index: record.prompt_index,
            }),
            TranscriptRecord::Rewind(record) => self.rewind(line, record),
            _ => {}
        }
    }

    fn user_text(&mut self, line: usize, time: Option<String>, text: &str) {
        if !std::mem::take(&mut self.after_answer) {
            self.prompts.push(PromptPoint {
                index: self.prompt_count() + 1,
                line,
                time,
                text: text.to_owned(),
            });
        }
    }

    fn rewind(&mut self, line: usize, record: &RewindRecord) {
        self.rewinds.push(RewindPoint {
            line,
            record: record.clone(),
        });
        self.after_answer = false;
        if !record.scope.restores_conversation() {
            return;
        }
        let kept = record.prompt_index.saturating_sub(1) as usize;
        if let Some(first_cut) = self.prompts.get(kept) {
            self.cuts.push(first_cut.line..=line);
            self.prompts.truncate(kept);
        }
    }

    /// The conversation's prompts, oldest first.
    pub fn prompts(&self) -> &[PromptPoint] {
        &self.prompts
    }

    /// How many prompts the conversation has.
    pub fn prompt_count(&self) -> u32 {
        self.prompts.len() as u32
    }

    /// Every checkpoint record, in transcript order.
    pub fn checkpoints(&self) -> &[CheckpointPoint] {
        &self.checkpoints
    }

    /// Every rewind record, in transcript order.
    pub fn rewinds(&self) -> &[RewindPoint] {
        &self.rewinds
    }

    /// Whether a rewind cut line `line` (from 0) out of the conversation.
    pub fn is_cut(&self, line: usize) -> bool {
        self.cuts.iter().any(|cut| cut.contains(&line))
    }

    /// Whether any rewind cut the conversation.
    pub fn has_cuts(&self) -> bool {
        !self.cuts.is_empty()
    }

    /// The checkpoint holding the files as they were before prompt `index`:
    /// the first taken for it after the prompt before it was sent (a
    /// command's inline shell takes one before its prompt is written, the
    /// model's rounds after); for the point after the
    /// last prompt (`prompt_count() + 1`), the last taken by a rewind since,
    /// so that a rewind is undone by rewinding to it. `None`: no checkpoint
    /// was taken since (the files are as the agent left them), or there is
    /// no such point.
    pub fn state_before(&self, index: u32) -> Option<&CheckpointPoint> {
        let count = self.prompt_count();
        if index == 0 || index > count + 1 {
            return None;
        }
        if index <= count {
            let before = index
                .checked_sub(2)
                .map(|earlier| self.prompts[earlier as usize].line);
            return self.checkpoints.iter().find(|point| {
                before.is_none_or(|sent| point.line > sent) && point.prompt_index >= index
            });
        }
        let last_prompt = self.prompts.last().map(|prompt| prompt.line);
        self.checkpoints
            .iter()
            .rev()
            .take_while(|point| last_prompt.is_none_or(|sent| point.line > sent))
            .find(|point| point.prompt_index >= index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenthub_protocol::{CheckpointRecord, OutcomeRecord, RewindScope, RunStatus, ToolCall};

    fn message(message: Message) -> TranscriptRecord {
        TranscriptRecord::Message {
            agent_id: None,
            message,
        }
    }

    fn outcome() -> TranscriptRecord {
        TranscriptRecord::Outcome(OutcomeRecord {
            status: RunStatus::Completed,
            result: None,
            error: None,
            turns: 1,
        })
    }

    fn checkpoint(id: &str, prompt_index: u32) -> TranscriptRecord {
        TranscriptRecord::Checkpoint(CheckpointRecord {
            id: id.into(),
            prompt_index,
        })
    }

    fn rewind(prompt_index: u32, scope: RewindScope) -> TranscriptRecord {
        TranscriptRecord::Rewind(RewindRecord {
            prompt_index,
            scope,
            time: "t".into(),
        })
    }

    /// One prompt whose run writes once: prompt, call, checkpoint, result, answer, outcome.
    fn writing_prompt(text: &str, checkpoint_id: &str, index: u32) -> Vec<TranscriptRecord> {
        vec![
            message(Message::user(text)),
            message(Message::Assistant {
                content: None,
                tool_calls: vec![ToolCall::new("c", "Bash", "{}")],
            }),
            checkpoint(checkpoint_id, index),
            message(Message::tool("c", "ok")),
            message(Message::assistant_text("done")),
            outcome(),
        ]
    }

    fn timeline(records: &[TranscriptRecord]) -> Timeline {
        let mut timeline = Timeline::default();
        for record in records {
            timeline.take(record);
        }
        timeline
    }

    fn texts(timeline: &Timeline) -> Vec<(u32, &str)> {
        timeline
            .prompts()
            .iter()
            .map(|prompt| (prompt.index, prompt.text.as_str()))
            .collect()
    }

    #[test]
    fn a_stop_hooks_reason_after_a_candidate_answer_is_no_prompt() {
        let records = vec![
            message(Message::system("be brief")),
            message(Message::user("first")),
            message(Message::assistant_text("done?")),
            message(Message::system("hook context")),
            message(Message::user("not yet: run the tests")),
            message(Message::assistant_text("done")),
            outcome(),
            message(Message::user("second")),
        ];
        assert_eq!(
            texts(&timeline(&records)),
            vec![(1, "first"), (2, "second")]
        );
    }

    #[test]
    fn a_conversation_rewind_cuts_from_the_prompt_and_numbers_the_next_prompt_after_the_kept_ones()
    {
        let mut records = writing_prompt("one", "c1", 1);
        records.extend(writing_prompt("two", "c2", 2));
        records.extend(writing_prompt("three", "c3", 3));
        records.push(rewind(2, RewindScope::Both));
        records.push(message(Message::user("two again")));
        let timeline = timeline(&records);
        assert_eq!(
            (
                texts(&timeline),
                (0..records.len())
                    .filter(|line| timeline.is_cut(*line))
                    .collect::<Vec<_>>()
            ),
            (vec![(1, "one"), (2, "two again")], (6..=18).collect())
        );
    }

    #[test]
    fn a_subagents_prompt_is_no_prompt_of_the_session() {
        let line = |sidechain: bool, text: &str| {
            format!(
                r#"{{"type":"user","message":{{"role":"user","content":"{text}"}},"uuid":"u","parentUuid":null,"sessionId":"s","timestamp":"2026-12-02T05:00:00.000Z","cwd":"/w","version":"0.1.0","isSidechain":{sidechain}}}"#
            )
        };
        let text = [line(false, "mine"), line(true, "the subagent's")].join("\n");
        let timeline = Timeline::from_text(&text);
        assert_eq!(
            timeline.prompts(),
            [PromptPoint {
                index: 1,
                line: 0,
                time: Some("2026-12-02T05:00:00.000Z".to_owned()),
                text: "mine".to_owned()
            }]
        );
    }

    #[test]
    fn a_code_rewind_keeps_the_conversation() {
        let mut records = writing_prompt("one", "c1", 1);
        records.push(rewind(1, RewindScope::Code));
        let timeline = timeline(&records);
        assert_eq!(
            (texts(&timeline), timeline.has_cuts()),
            (vec![(1, "one")], false)
        );
    }

    #[test]
    fn the_state_before_a_prompt_is_the_first_checkpoint_taken_after_it() {
        let mut records = writing_prompt("one", "c1", 1);
        records.extend(writing_prompt("two", "c2", 2));
        records.insert(9, checkpoint("c2-later", 2));
        let timeline = timeline(&records);
        assert_eq!(
            [1, 2, 3, 0].map(|index| timeline.state_before(index).map(|p| p.id.as_str())),
            [Some("c1"), Some("c2"), None, None]
        );
    }

    #[test]
    fn a_prompt_that_wrote_nothing_shares_the_state_of_the_next_checkpoint() {
        let mut records = vec![
            message(Message::user("look only")),
            message(Message::assistant_text("seen")),
            outcome(),
        ];
        records.extend(writing_prompt("write", "c2", 2));
        assert_eq!(
            timeline(&records).state_before(1).map(|p| p.id.clone()),
            Some("c2".to_owned())
        );
    }

    #[test]
    fn the_point_after_the_last_prompt_is_the_checkpoint_a_rewind_took_first() {
        let mut records = writing_prompt("one", "c1", 1);
        records.push(checkpoint("before-rewind", 2));
        records.push(rewind(1, RewindScope::Code));
        assert_eq!(
            timeline(&records).state_before(2).map(|p| p.id.clone()),
            Some("before-rewind".to_owned())
        );
    }
}
