//! Tool call ids for calls that arrived without one (or with one already used),
//! so that every call in the history can be paired with exactly one result.
//!
//! Ids are deterministic per model instance (`<prefix>_1`, `<prefix>_2`, …) so
//! tests and transcripts are reproducible; they must never repeat an id the
//! history already holds.

use agenthub_protocol::{Message, ToolCall};
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};

/// Hands out fresh ids.
#[derive(Debug)]
pub(crate) struct CallIds {
    prefix: &'static str,
    next: AtomicU64,
}

impl CallIds {
    pub(crate) fn new(prefix: &'static str) -> Self {
        CallIds {
            prefix,
            next: AtomicU64::new(1),
        }
    }

    fn fresh(&self, taken: &HashSet<String>) -> String {
        loop {
            let number = self.next.fetch_add(1, Ordering::Relaxed);
            let id = format!("{}_{number}", self.prefix);
            if !taken.contains(&id) {
                return id;
            }
        }
    }

    /// Gives each call without an id, or with an id the history or an earlier
    /// call of this reply already uses, a fresh one.
    pub(crate) fn assign(&self, history: &[Message], calls: &mut [ToolCall]) {
        let mut taken: HashSet<String> = history
            .iter()
            .flat_map(|message| message.tool_calls().iter().map(|call| call.id.clone()))
            .collect();
        for call in calls.iter_mut() {
            if call.id.trim().is_empty() || taken.contains(&call.id) {
                call.id = self.fresh(&taken);
            }
            taken.insert(call.id.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_and_repeated_ids_get_fresh_ones_and_others_are_kept() {
        let ids = CallIds::new("gen");
        let history = vec![Message::Assistant {
            content: None,
            tool_calls: vec![
                ToolCall::new("call_0", "Echo", "{}"),
                ToolCall::new("gen_1", "Echo", "{}"),
            ],
        }];
        let mut calls = vec![
            ToolCall::new("", "Echo", "{}"),
            ToolCall::new("call_0", "Echo", "{}"),
            ToolCall::new("call_9", "Echo", "{}"),
            ToolCall::new("call_9", "Echo", "{}"),
        ];
        ids.assign(&history, &mut calls);
        let assigned: Vec<&str> = calls.iter().map(|call| call.id.as_str()).collect();
        assert_eq!(assigned, vec!["gen_2", "gen_3", "call_9", "gen_4"]);
    }
}
