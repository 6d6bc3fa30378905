//! The top-level `decision` of a hook's stdout JSON, read once into types.
//!
//! Claude Code's spellings ([`WireDecision`]) mean different things per
//! event: PreToolUse reads `allow`/`approve` as approve and `block`/`deny` as
//! block; the others read only `block`. What a spelling means on an event
//! is its [`WireContract`](crate::events::WireContract)'s table; a spelling
//! the event does not read — or one nobody knows (`"maybe"`) — lets the
//! action go on, as in Claude Code. This module must never reject a string
//! value: only a non-string `decision`, or one on an event that reads none,
//! is a contract error (see `wire.rs`).

use serde::Deserialize;

/// A `decision` spelling as written on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum WireDecision {
    /// `"approve"`.
    Approve,
    /// `"allow"`.
    Allow,
    /// `"block"`.
    Block,
    /// `"deny"`.
    Deny,
    /// Any other string: no event reads it.
    #[serde(other)]
    Unknown,
}

impl WireDecision {
    /// The spelling `text` names (never fails: an unknown word is
    /// [`WireDecision::Unknown`]).
    pub(crate) fn parse(text: &str) -> Self {
        serde_json::from_value(serde_json::Value::String(text.to_owned()))
            .unwrap_or(WireDecision::Unknown)
    }
}

/// What a `decision` means once its event has read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Decision {
    /// Let the call go ahead (PreToolUse's legacy `approve`).
    Approve,
    /// Block the action (or, on Stop, keep the model going).
    Block,
}

/// `decision: "block"` and nothing else: the table of most events.
pub(crate) const BLOCK: &[(WireDecision, Decision)] = &[(WireDecision::Block, Decision::Block)];

/// What `spelling` means on an event whose table is `table`; `None` lets the
/// action go on.
pub(crate) fn meaning(table: &[(WireDecision, Decision)], spelling: &str) -> Option<Decision> {
    let spelling = WireDecision::parse(spelling);
    table
        .iter()
        .find(|(written, _)| *written == spelling)
        .map(|(_, meaning)| *meaning)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_known_spelling_reads_as_itself() {
        assert_eq!(
            ["approve", "allow", "block", "deny"].map(WireDecision::parse),
            [
                WireDecision::Approve,
                WireDecision::Allow,
                WireDecision::Block,
                WireDecision::Deny
            ]
        );
    }

    #[test]
    fn an_unknown_or_differently_cased_spelling_is_unknown_not_an_error() {
        assert_eq!(
            ["maybe", "Block", ""].map(WireDecision::parse),
            [WireDecision::Unknown; 3]
        );
    }

    #[test]
    fn an_unknown_spelling_means_nothing_so_the_action_goes_on() {
        assert_eq!(meaning(BLOCK, "maybe"), None);
    }

    #[test]
    fn a_spelling_the_event_does_not_read_means_nothing() {
        assert_eq!(meaning(BLOCK, "deny"), None);
        assert_eq!(meaning(BLOCK, "block"), Some(Decision::Block));
    }
}
