//! Replay and hooks (contract §25): without `HookReplay::Run` no hook runs
//! and what the recorded hooks said stands; with it the configuration's
//! PreToolUse hooks run on the recorded payloads, and a recorded block is
//! gone when the hook is.

use crate::support::{decided, policy, pre_tool_use_hook, Place};
use agenthub_hooks::HookRegistry;
use agenthub_policy::{PermissionMode, RuleList};
use agenthub_protocol::PermissionEffect::{Allow, Ask, Deny};
use agenthub_replay::{replay_session, Change, HookReplay};
use serde_json::{json, Value};

#[tokio::test]
async fn a_new_pre_tool_use_hook_runs_on_the_recorded_payloads_only_when_hooks_run() {
    let place = Place::new();
    std::fs::write(place.ws.join("README.md"), "hello\n").unwrap();
    let git_status = (RuleList::Allow, "Bash(git status:*)");
    let rules = policy(&place.ws, PermissionMode::Default, &[git_status]);
    let calls = json!([
        {"id": "c1", "name": "Read", "arguments": {"file_path": "README.md"}},
        {"id": "c2", "name": "Bash", "arguments": {"command": "git status"}},
        {"id": "c3", "name": "Bash", "arguments": {"command": "rm -rf build"}},
    ]);
    let session = place
        .record(place.configuration(rules, HookRegistry::new()), calls)
        .await;
    let guard = place.script(
        "guard.sh",
        "#!/bin/sh\ninput=$(cat)\necho \"$input\" >> \"$(dirname \"$0\")/seen.jsonl\"\ncase \"$input\" in\n  *'git status'*) echo 'no git in CI' >&2; exit 2 ;;\nesac\nexit 0\n",
    );
    let seen_file = place.dir.path().join("seen.jsonl");
    let configuration = || {
        let rules = policy(&place.ws, PermissionMode::Default, &[git_status]);
        place.configuration(rules, pre_tool_use_hook("Bash", &guard))
    };

    let without = replay_session(&configuration(), &session, HookReplay::Recorded).await;
    assert_eq!((without.changed(), seen_file.exists()), (false, false));

    let with = replay_session(&configuration(), &session, HookReplay::Run).await;
    let replayed: Vec<_> = with
        .calls
        .iter()
        .map(|call| call.replayed.clone())
        .collect();
    let seen: Vec<(Value, Value, Value)> = std::fs::read_to_string(&seen_file)
        .unwrap()
        .lines()
        .map(|line| {
            let payload: Value = serde_json::from_str(line).unwrap();
            (
                payload["hook_event_name"].clone(),
                payload["tool_use_id"].clone(),
                payload["session_id"].clone(),
            )
        })
        .collect();
    let id = json!(session.record.session_id);
    assert_eq!(
        (replayed, seen),
        (
            vec![
                decided(Allow, "default"),
                decided(Deny, &format!("hook {}", guard.display())),
                decided(Ask, "default"),
            ],
            vec![
                (json!("PreToolUse"), json!("c2"), id.clone()),
                (json!("PreToolUse"), json!("c3"), id),
            ]
        )
    );
}

#[tokio::test]
async fn a_recorded_hook_block_stands_until_hooks_run_again_without_that_hook() {
    let place = Place::new();
    let guard = place.script(
        "guard.sh",
        "#!/bin/sh\ncat > /dev/null\necho 'not here' >&2\nexit 2\n",
    );
    let blocking = pre_tool_use_hook("Bash", &guard);
    let rules = policy(&place.ws, PermissionMode::Default, &[]);
    let make = json!([{"id": "c1", "name": "Bash", "arguments": {"command": "make"}}]);
    let session = place
        .record(place.configuration(rules, blocking), make)
        .await;
    let recorded_block = decided(Deny, &format!("hook {}", guard.display()));

    let rules = policy(&place.ws, PermissionMode::Default, &[]);
    let kept = replay_session(
        &place.configuration(rules, HookRegistry::new()),
        &session,
        HookReplay::Recorded,
    )
    .await;
    let rules = policy(&place.ws, PermissionMode::Default, &[]);
    let again = replay_session(
        &place.configuration(rules, HookRegistry::new()),
        &session,
        HookReplay::Run,
    )
    .await;
    let first = |calls: &[agenthub_replay::ReplayedCall]| {
        let call = &calls[0];
        (call.recorded.clone(), call.replayed.clone(), call.change)
    };
    assert_eq!(
        (first(&kept.calls), first(&again.calls)),
        (
            (
                recorded_block.clone(),
                recorded_block.clone(),
                Change::Unchanged
            ),
            (recorded_block, decided(Ask, "default"), Change::NowAsked)
        )
    );
}
