//! The loop guard (contract §22, §33): a model that calls the same tool with
//! the same input again and again — in a row, or with other calls between
//! (`Edit, Write, Edit, Write…`) — is told so on the call that makes
//! `noteAfter` identical calls among its last `2 × stopAfter` calls, and the
//! run ends as `failed` on the one that makes `stopAfter`, before that call
//! runs.
//!
//! The note never tells a model that a call with side effects (a tool not
//! declared read-only: Edit, Write, Bash, MCP tools, Task) returned the same
//! as before: such a call did its work again. Only a read-only call repeated
//! in a row is said to have the same result.
//!
//! It is a piece of the one pipeline (`Run::decide_call` asks it first, in
//! call order), not a branch of the loop. It only counts and words: it never
//! runs, blocks or rewrites a call itself.

use agenthub_protocol::ToolCall;
use serde_json::Value;
use std::collections::VecDeque;
use std::sync::Mutex;

/// After how many identical calls the guard notes, and stops; 0 turns that
/// limit off. Settings `loopGuard: {"noteAfter", "stopAfter"}`. Identical
/// calls are counted among the last `2 × stop_after` calls (`2 ×
/// note_after` when the stop is off), whatever lies between them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoopGuardLimits {
    /// The call that makes this many identical calls, and every one after
    /// it, gets a note after its result (default 3).
    pub note_after: u32,
    /// The call that makes this many ends the run, unrun (default 5).
    pub stop_after: u32,
}

impl Default for LoopGuardLimits {
    fn default() -> Self {
        LoopGuardLimits {
            note_after: 3,
            stop_after: 5,
        }
    }
}

impl LoopGuardLimits {
    /// How many of the latest calls (this one included) are searched for
    /// calls identical to it.
    fn window(self) -> usize {
        let basis = match self.stop_after {
            0 => self.note_after,
            stop => stop,
        };
        2 * basis as usize
    }
}

/// Whether running a call again can change anything: what the note may say
/// about its result. Read from the tool's declared effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CallKind {
    /// A read-only tool: repeated in a row, its result is the same.
    ReadOnly,
    /// Anything else (a tool that writes or runs, or no tool known by that
    /// name): each repeat was made again.
    SideEffects,
}

/// What the guard says about one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Repeat {
    /// Not repeated often enough to matter.
    Fine,
    /// Runs as usual; this note follows its result.
    Note(String),
    /// Does not run; the run fails with this error (`loop: …`).
    Stop(String),
}

/// The calls of one run so far: the latest ones (as many as the largest
/// window asked for), and how many identical calls in a row ended them.
#[derive(Debug, Default)]
pub(crate) struct RepeatTracker {
    seen: Mutex<Seen>,
}

#[derive(Debug, Default)]
struct Seen {
    recent: VecDeque<CallKey>,
    streak: u32,
}

/// What makes two calls the same: the tool and its input (as JSON when it
/// parses, so that spacing does not matter; else the raw text).
#[derive(Debug, Clone, PartialEq)]
struct CallKey {
    tool: String,
    input: Result<Value, String>,
}

impl CallKey {
    fn of(call: &ToolCall) -> Self {
        let raw = &call.function.arguments;
        CallKey {
            tool: call.function.name.clone(),
            input: serde_json::from_str(raw).map_err(|_| raw.clone()),
        }
    }
}

/// How often a call was made: its count (this call included) and whether
/// all of those calls came in a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Count {
    count: u32,
    in_a_row: bool,
}

impl RepeatTracker {
    /// Counts `call` (of a tool of `kind`) and says what it gets under `limits`.
    pub(crate) fn observe(
        &self,
        limits: LoopGuardLimits,
        call: &ToolCall,
        kind: CallKind,
    ) -> Repeat {
        let key = CallKey::of(call);
        let Ok(mut seen) = self.seen.lock() else {
            return Repeat::Fine;
        };
        let window = limits.window();
        seen.streak = match seen.recent.back() {
            Some(last) if *last == key => seen.streak + 1,
            _ => 1,
        };
        seen.recent.push_back(key);
        while seen.recent.len() > window.max(1) {
            seen.recent.pop_front();
        }
        let Some(key) = seen.recent.back() else {
            return Repeat::Fine;
        };
        let among = seen.recent.iter().filter(|earlier| *earlier == key).count();
        let among = u32::try_from(among).unwrap_or(u32::MAX);
        let count = Count {
            count: among.max(seen.streak),
            in_a_row: seen.streak >= among,
        };
        verdict(limits, call, kind, count)
    }
}

fn verdict(limits: LoopGuardLimits, call: &ToolCall, kind: CallKind, seen: Count) -> Repeat {
    let tool = &call.function.name;
    let Count { count, in_a_row } = seen;
    let window = limits.window();
    if limits.stop_after > 0 && count >= limits.stop_after {
        let how = match in_a_row {
            true => format!("{count} times in a row with the same input"),
            false => format!("{count} times with the same input among the last {window} calls"),
        };
        return Repeat::Stop(format!(
            "loop: {tool} was called {how} ({}); the run was ended before that call ran \
             (settings loopGuard.stopAfter is {})",
            shortened(&call.function.arguments),
            limits.stop_after
        ));
    }
    if limits.note_after > 0 && count >= limits.note_after {
        let ending = match limits.stop_after {
            0 => String::new(),
            stop => format!(" The run ends at the {}th identical call.", stop),
        };
        if kind == CallKind::ReadOnly && in_a_row {
            return Repeat::Note(format!(
                "Note from AgentHub: this is call {count} in a row of {tool} with exactly the \
                 same input, so its result is the same as before. Do not repeat it: use the \
                 result, try something different, or give your final answer.{ending}"
            ));
        }
        let place = match in_a_row {
            true => " in a row".to_owned(),
            false => format!(" among your last {window} calls"),
        };
        return Repeat::Note(format!(
            "Note from AgentHub: this exact call ({tool} with the same input) was already made \
             {} times{place}, and it was made again now. Do not repeat it: check what the \
             earlier calls did, try something different, or give your final answer.{ending}",
            count - 1
        ));
    }
    Repeat::Fine
}

/// The most characters of a call's input quoted in the error.
const MAX_QUOTED_INPUT: usize = 200;

fn shortened(input: &str) -> String {
    match input.char_indices().nth(MAX_QUOTED_INPUT) {
        Some((cut, _)) => format!("{}…", &input[..cut]),
        None => input.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(path: &str) -> ToolCall {
        ToolCall::new("id", "Read", format!("{{\"file_path\": \"{path}\"}}"))
    }

    fn edit() -> ToolCall {
        ToolCall::new(
            "id",
            "Edit",
            r#"{"file_path": "a", "old_string": "x", "new_string": "xx"}"#,
        )
    }

    fn write() -> ToolCall {
        ToolCall::new("id", "Write", r#"{"file_path": "b", "content": "b"}"#)
    }

    fn kind_of(call: &ToolCall) -> CallKind {
        match call.name() {
            "Read" => CallKind::ReadOnly,
            _ => CallKind::SideEffects,
        }
    }

    fn verdicts(limits: LoopGuardLimits, calls: &[ToolCall]) -> Vec<&'static str> {
        let tracker = RepeatTracker::default();
        calls
            .iter()
            .map(|call| match tracker.observe(limits, call, kind_of(call)) {
                Repeat::Fine => "fine",
                Repeat::Note(_) => "note",
                Repeat::Stop(_) => "stop",
            })
            .collect()
    }

    /// What the guard says about the last of `calls`.
    fn last_verdict(limits: LoopGuardLimits, calls: &[ToolCall]) -> Option<Repeat> {
        let tracker = RepeatTracker::default();
        calls
            .iter()
            .map(|call| tracker.observe(limits, call, kind_of(call)))
            .last()
    }

    #[test]
    fn the_third_identical_call_is_noted_and_the_fifth_stops() {
        let calls = vec![read("a"); 5];
        assert_eq!(
            verdicts(LoopGuardLimits::default(), &calls),
            vec!["fine", "fine", "note", "note", "stop"]
        );
    }

    #[test]
    fn identical_calls_with_other_calls_between_still_count() {
        let calls = [read("a"), read("a"), read("b"), read("a"), read("a")];
        assert_eq!(
            verdicts(LoopGuardLimits::default(), &calls),
            vec!["fine", "fine", "fine", "note", "note"]
        );
    }

    #[test]
    fn alternating_edit_and_write_calls_are_noted_from_their_third_and_stopped_at_their_fifth() {
        let calls: Vec<ToolCall> = (0..11)
            .map(|n| if n % 2 == 0 { edit() } else { write() })
            .collect();
        assert_eq!(
            verdicts(LoopGuardLimits::default(), &calls),
            vec![
                "fine", "fine", "fine", "fine", "note", "note", "note", "note", "stop", "stop",
                "stop"
            ]
        );
    }

    #[test]
    fn only_the_last_two_times_stop_after_calls_are_counted() {
        let limits = LoopGuardLimits {
            note_after: 2,
            stop_after: 5,
        };
        let others = |count: usize| (0..count).map(|n| read(&format!("other{n}")));
        let within: Vec<ToolCall> = std::iter::once(read("a"))
            .chain(others(8))
            .chain([read("a")])
            .collect();
        let beyond: Vec<ToolCall> = std::iter::once(read("a"))
            .chain(others(9))
            .chain([read("a")])
            .collect();
        assert_eq!(
            (
                verdicts(limits, &within).last().copied(),
                verdicts(limits, &beyond).last().copied()
            ),
            (Some("note"), Some("fine"))
        );
    }

    #[test]
    fn inputs_that_differ_only_in_spacing_are_the_same_call() {
        let spaced = ToolCall::new("id", "Read", "{ \"file_path\" :  \"a\" }");
        let calls = [read("a"), spaced, read("a")];
        assert_eq!(
            verdicts(LoopGuardLimits::default(), &calls),
            vec!["fine", "fine", "note"]
        );
    }

    #[test]
    fn zero_turns_a_limit_off() {
        let calls = vec![read("a"); 6];
        let limits = LoopGuardLimits {
            note_after: 0,
            stop_after: 0,
        };
        assert_eq!(verdicts(limits, &calls), vec!["fine"; 6]);
    }

    #[test]
    fn with_the_stop_off_identical_calls_are_counted_among_twice_note_after() {
        let limits = LoopGuardLimits {
            note_after: 2,
            stop_after: 0,
        };
        let calls = [
            read("a"),
            read("b"),
            read("c"),
            read("d"),
            read("a"),
            read("a"),
        ];
        assert_eq!(
            verdicts(limits, &calls),
            vec!["fine", "fine", "fine", "fine", "fine", "note"]
        );
    }

    #[test]
    fn a_read_only_call_repeated_in_a_row_is_told_its_result_is_the_same() {
        assert_eq!(
            last_verdict(LoopGuardLimits::default(), &vec![read("a"); 3]),
            Some(Repeat::Note(
                "Note from AgentHub: this is call 3 in a row of Read with exactly the same input, \
                 so its result is the same as before. Do not repeat it: use the result, try \
                 something different, or give your final answer. The run ends at the 5th \
                 identical call."
                    .to_owned()
            ))
        );
    }

    #[test]
    fn a_call_with_side_effects_is_told_it_was_made_again_never_that_its_result_is_the_same() {
        assert_eq!(
            last_verdict(LoopGuardLimits::default(), &[edit(), edit(), edit()]),
            Some(Repeat::Note(
                "Note from AgentHub: this exact call (Edit with the same input) was already made \
                 2 times in a row, and it was made again now. Do not repeat it: check what the \
                 earlier calls did, try something different, or give your final answer. The run \
                 ends at the 5th identical call."
                    .to_owned()
            ))
        );
    }

    #[test]
    fn a_read_only_call_with_calls_between_is_not_told_its_result_is_the_same() {
        let calls = [edit(), read("a"), edit(), read("a"), edit(), read("a")];
        assert_eq!(
            last_verdict(LoopGuardLimits::default(), &calls),
            Some(Repeat::Note(
                "Note from AgentHub: this exact call (Read with the same input) was already made \
                 2 times among your last 10 calls, and it was made again now. Do not repeat it: \
                 check what the earlier calls did, try something different, or give your final \
                 answer. The run ends at the 5th identical call."
                    .to_owned()
            ))
        );
    }

    #[test]
    fn the_stop_names_the_tool_the_count_the_input_and_the_setting() {
        let limits = LoopGuardLimits {
            note_after: 0,
            stop_after: 2,
        };
        assert_eq!(
            last_verdict(limits, &[read("a"), read("a")]),
            Some(Repeat::Stop(
                "loop: Read was called 2 times in a row with the same input ({\"file_path\": \"a\"}); \
                 the run was ended before that call ran (settings loopGuard.stopAfter is 2)"
                    .to_owned()
            ))
        );
    }

    #[test]
    fn a_stop_across_other_calls_names_the_window() {
        let limits = LoopGuardLimits {
            note_after: 0,
            stop_after: 2,
        };
        assert_eq!(
            last_verdict(limits, &[read("a"), read("b"), read("a")]),
            Some(Repeat::Stop(
                "loop: Read was called 2 times with the same input among the last 4 calls \
                 ({\"file_path\": \"a\"}); the run was ended before that call ran (settings \
                 loopGuard.stopAfter is 2)"
                    .to_owned()
            ))
        );
    }
}
