//! The loop guard (contract §22): a model that calls the same tool with the same
//! input again and again is told so on the `noteAfter`-th call in a row, and
//! the run ends as `failed` on the `stopAfter`-th, before that call runs.
//!
//! It is a piece of the one pipeline (`Run::decide_call` asks it first, in
//! call order), not a branch of the loop. It only counts and words: it never
//! runs, blocks or rewrites a call itself.

use agenthub_protocol::ToolCall;
use serde_json::Value;
use std::sync::Mutex;

/// After how many identical calls in a row the guard notes, and stops; 0
/// turns that limit off. Settings `loopGuard: {"noteAfter", "stopAfter"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoopGuardLimits {
    /// The call that makes this many identical calls in a row, and every
    /// one after it, gets a note after its result (default 3).
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

/// The calls of one run so far: the last one and how many in a row were it.
#[derive(Debug, Default)]
pub(crate) struct RepeatTracker {
    streak: Mutex<Option<(CallKey, u32)>>,
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

impl RepeatTracker {
    /// Counts `call` and says what it gets under `limits`.
    pub(crate) fn observe(&self, limits: LoopGuardLimits, call: &ToolCall) -> Repeat {
        let key = CallKey::of(call);
        let Ok(mut streak) = self.streak.lock() else {
            return Repeat::Fine;
        };
        let count = match streak.as_ref() {
            Some((last, count)) if *last == key => count + 1,
            _ => 1,
        };
        *streak = Some((key, count));
        verdict(limits, call, count)
    }
}

fn verdict(limits: LoopGuardLimits, call: &ToolCall, count: u32) -> Repeat {
    let tool = &call.function.name;
    if limits.stop_after > 0 && count >= limits.stop_after {
        return Repeat::Stop(format!(
            "loop: {tool} was called {count} times in a row with the same input ({}); \
             the run was ended before that call ran (settings loopGuard.stopAfter is {})",
            shortened(&call.function.arguments),
            limits.stop_after
        ));
    }
    if limits.note_after > 0 && count >= limits.note_after {
        let ending = match limits.stop_after {
            0 => String::new(),
            stop => format!(" The run ends at the {}th identical call.", stop),
        };
        return Repeat::Note(format!(
            "Note from AgentHub: this is call {count} in a row of {tool} with exactly the same \
             input, so its result is the same as before. Do not repeat it: use the result, try \
             something different, or give your final answer.{ending}"
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

    fn verdicts(limits: LoopGuardLimits, calls: &[ToolCall]) -> Vec<&'static str> {
        let tracker = RepeatTracker::default();
        calls
            .iter()
            .map(|call| match tracker.observe(limits, call) {
                Repeat::Fine => "fine",
                Repeat::Note(_) => "note",
                Repeat::Stop(_) => "stop",
            })
            .collect()
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
    fn another_call_in_between_starts_the_count_again() {
        let calls = [read("a"), read("a"), read("b"), read("a"), read("a")];
        assert_eq!(
            verdicts(LoopGuardLimits::default(), &calls),
            vec!["fine"; 5]
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
    fn the_stop_names_the_tool_the_count_the_input_and_the_setting() {
        let tracker = RepeatTracker::default();
        let limits = LoopGuardLimits {
            note_after: 0,
            stop_after: 2,
        };
        tracker.observe(limits, &read("a"));
        assert_eq!(
            tracker.observe(limits, &read("a")),
            Repeat::Stop(
                "loop: Read was called 2 times in a row with the same input ({\"file_path\": \"a\"}); \
                 the run was ended before that call ran (settings loopGuard.stopAfter is 2)"
                    .to_owned()
            )
        );
    }
}
