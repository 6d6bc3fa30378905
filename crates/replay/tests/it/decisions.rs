//! A recorded session's calls decided again under new rules and modes
//! (contract §25): unchanged settings change nothing; a new deny rule newly
//! denies the call it matches, a new allow rule newly allows an asked one,
//! each call's decider worded as traces word it; no tool runs.

use crate::support::{decided, policy, Place};
use agenthub_hooks::HookRegistry;
use agenthub_policy::{PermissionMode, RuleList};
use agenthub_protocol::PermissionEffect::{Allow, Ask, Deny};
use agenthub_replay::{replay_session, Change, HookReplay, RecordedSession, ReplayedCall};
use serde_json::json;

const GIT_STATUS: (RuleList, &str) = (RuleList::Allow, "Bash(git status:*)");

/// A session that made a Read (allowed by default), `git status` (allowed
/// by a rule), `rm -rf build` (asked by default, refused with no one to ask).
async fn recorded(place: &Place) -> RecordedSession {
    std::fs::write(place.ws.join("README.md"), "hello\n").unwrap();
    let rules = policy(&place.ws, PermissionMode::Default, &[GIT_STATUS]);
    let calls = json!([
        {"id": "c1", "name": "Read", "arguments": {"file_path": "README.md"}},
        {"id": "c2", "name": "Bash", "arguments": {"command": "git status"}},
        {"id": "c3", "name": "Bash", "arguments": {"command": "rm -rf build"}},
    ]);
    let configuration = place.configuration(rules, HookRegistry::new());
    place.record(configuration, calls).await
}

/// (call id, recorded effect, replayed effect, change) of every call.
fn changes(calls: &[ReplayedCall]) -> Vec<(&str, &str, &str, Change)> {
    calls
        .iter()
        .map(|call| {
            (
                call.tool_use_id.as_str(),
                call.recorded.effect.as_str(),
                call.replayed.effect.as_str(),
                call.change,
            )
        })
        .collect()
}

#[tokio::test]
async fn unchanged_settings_change_nothing() {
    let place = Place::new();
    let session = recorded(&place).await;
    let rules = policy(&place.ws, PermissionMode::Default, &[GIT_STATUS]);
    let configuration = place.configuration(rules, HookRegistry::new());
    let replay = replay_session(&configuration, &session, HookReplay::Recorded).await;
    assert_eq!(
        (replay.calls.len(), replay.changed(), replay.skipped),
        (3, false, vec![])
    );
}

#[tokio::test]
async fn a_new_deny_rule_newly_denies_the_call_it_matches() {
    let place = Place::new();
    let session = recorded(&place).await;
    let deny_git = (RuleList::Deny, "Bash(git:*)");
    let rules = policy(&place.ws, PermissionMode::Default, &[GIT_STATUS, deny_git]);
    let configuration = place.configuration(rules, HookRegistry::new());
    let replay = replay_session(&configuration, &session, HookReplay::Recorded).await;
    let call = |id: &str, tool: &str, recorded, replayed, change| ReplayedCall {
        agent_id: None,
        tool_use_id: id.to_owned(),
        tool_name: tool.to_owned(),
        recorded,
        replayed,
        change,
    };
    let no_one_asked = agenthub_replay::Decided {
        approval: Some((Deny, "no one to ask".to_owned())),
        ..decided(Ask, "default")
    };
    assert_eq!(
        (
            replay.session_id == session.record.session_id,
            replay.workspace == place.ws,
            replay.calls,
            replay.skipped
        ),
        (
            true,
            true,
            vec![
                call(
                    "c1",
                    "Read",
                    decided(Allow, "default"),
                    decided(Allow, "default"),
                    Change::Unchanged
                ),
                call(
                    "c2",
                    "Bash",
                    decided(Allow, "rule Bash(git status:*) (command line)"),
                    decided(Deny, "rule Bash(git:*) (command line)"),
                    Change::NewlyDenied
                ),
                call(
                    "c3",
                    "Bash",
                    no_one_asked,
                    decided(Ask, "default"),
                    Change::Unchanged
                ),
            ],
            vec![]
        )
    );
}

#[tokio::test]
async fn a_new_allow_rule_newly_allows_an_asked_call() {
    let place = Place::new();
    let session = recorded(&place).await;
    let allow_rm = (RuleList::Allow, "Bash(rm:*)");
    let rules = policy(&place.ws, PermissionMode::Default, &[GIT_STATUS, allow_rm]);
    let configuration = place.configuration(rules, HookRegistry::new());
    let replay = replay_session(&configuration, &session, HookReplay::Recorded).await;
    assert_eq!(
        changes(&replay.calls),
        vec![
            ("c1", "allow", "allow", Change::Unchanged),
            ("c2", "allow", "allow", Change::Unchanged),
            ("c3", "ask", "allow", Change::NewlyAllowed),
        ]
    );
}

#[tokio::test]
async fn replay_runs_no_tool() {
    let place = Place::new();
    let accept_edits = policy(&place.ws, PermissionMode::AcceptEdits, &[]);
    let write = json!([{"id": "w1", "name": "Write", "arguments": {"file_path": "made.txt", "content": "x"}}]);
    let session = place
        .record(
            place.configuration(accept_edits, HookRegistry::new()),
            write,
        )
        .await;
    std::fs::remove_file(place.ws.join("made.txt")).unwrap();
    let accept_edits = policy(&place.ws, PermissionMode::AcceptEdits, &[]);
    let configuration = place.configuration(accept_edits, HookRegistry::new());
    let replay = replay_session(&configuration, &session, HookReplay::Recorded).await;
    assert_eq!(
        (changes(&replay.calls), place.ws.join("made.txt").exists()),
        (vec![("w1", "allow", "allow", Change::Unchanged)], false)
    );
}
