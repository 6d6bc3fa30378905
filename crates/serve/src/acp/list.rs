//! `session/list` (contract §31): the sessions of one workspace as an
//! editor lists past threads — each one's id, folder, title (the first line
//! of its first prompt) and when it was last written (RFC 3339) — most
//! recent first, a page at a time.
//!
//! It only shapes what the facade finds ([`agenthub::list_sessions`], the
//! one reader of transcripts `agenthub sessions list` uses too); it never
//! opens a transcript itself. The cursor is opaque to the client: the
//! position of the next page in the list.

use super::rpc::{RpcError, INVALID_PARAMS};
use agenthub::SessionSummary;
use serde_json::{json, Value};

/// The most sessions one answer holds.
pub const PAGE: usize = 50;

/// The page of `sessions` that `cursor` (from a previous answer's
/// `nextCursor`) points at, as ACP's `ListSessionsResponse`.
pub fn page(sessions: &[SessionSummary], cursor: Option<&str>) -> Result<Value, RpcError> {
    let from = match cursor {
        None => 0,
        Some(cursor) => start_of(cursor, sessions.len())?,
    };
    let to = sessions.len().min(from + PAGE);
    let listed: Vec<Value> = sessions[from..to].iter().map(info).collect();
    let mut answer = json!({ "sessions": listed });
    if to < sessions.len() {
        answer["nextCursor"] = Value::String(to.to_string());
    }
    Ok(answer)
}

/// One session as ACP's `SessionInfo`.
pub fn info(session: &SessionSummary) -> Value {
    json!({
        "sessionId": session.saved.record.session_id,
        "cwd": session.saved.record.workspace,
        "title": session.title(),
        "updatedAt": session.updated_at(),
    })
}

/// Where the page `cursor` names begins; a cursor this agent did not give
/// (or past the end of the list) is refused, naming it.
fn start_of(cursor: &str, len: usize) -> Result<usize, RpcError> {
    cursor
        .parse::<usize>()
        .ok()
        .filter(|start| *start > 0 && *start <= len)
        .ok_or_else(|| {
            RpcError::new(
                INVALID_PARAMS,
                format!(
                    "invalid params for session/list: at cursor: {cursor:?} is not a cursor \
                     this agent gave (there are {len} sessions)"
                ),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenthub::SavedSession;
    use std::time::{Duration, SystemTime};

    fn summary(index: usize) -> SessionSummary {
        let record = serde_json::from_value(json!({
            "session_id": format!("s{index}"), "workspace": "/w", "model": null,
            "created": "2026-12-04T19:00:00Z", "version": "0"
        }))
        .unwrap();
        SessionSummary {
            path: format!("/t/s{index}.jsonl").into(),
            modified: SystemTime::UNIX_EPOCH + Duration::from_secs(1_796_000_000),
            saved: SavedSession {
                record,
                history: Vec::new(),
                first_prompt: Some(format!("\n  fix bug {index}  \nin detail")),
                turns: 1,
                last_status: None,
                permission_mode: None,
                warnings: Vec::new(),
            },
        }
    }

    fn ids(answer: &Value) -> Vec<String> {
        answer["sessions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|session| session["sessionId"].as_str().unwrap().to_owned())
            .collect()
    }

    #[test]
    fn a_session_is_listed_with_its_folder_title_and_time() {
        assert_eq!(
            info(&summary(7)),
            json!({"sessionId": "s7", "cwd": "/w", "title": "fix bug 7",
                   "updatedAt": "2026-11-30T00:53:20Z"})
        );
    }

    #[test]
    fn pages_follow_each_other_through_next_cursor_until_the_last() {
        let sessions: Vec<SessionSummary> = (0..PAGE + 2).map(summary).collect();
        let first = page(&sessions, None).unwrap();
        let cursor = first["nextCursor"].as_str().unwrap().to_owned();
        let second = page(&sessions, Some(&cursor)).unwrap();
        let expected: Vec<String> = (0..PAGE + 2).map(|index| format!("s{index}")).collect();
        assert_eq!(
            (
                [ids(&first), ids(&second)].concat(),
                second.get("nextCursor")
            ),
            (expected, None)
        );
    }

    #[test]
    fn a_cursor_this_agent_did_not_give_is_refused_naming_it() {
        let sessions: Vec<SessionSummary> = (0..3).map(summary).collect();
        assert_eq!(
            page(&sessions, Some("later")).err(),
            Some(RpcError::new(
                INVALID_PARAMS,
                "invalid params for session/list: at cursor: \"later\" is not a cursor this \
                 agent gave (there are 3 sessions)"
            ))
        );
    }
}
