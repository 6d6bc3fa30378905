//! Compaction through the real binary (contract §12): a long scripted session with
//! a tiny `contextWindow` compacts on its own; PreCompact and SessionStart
//! command hooks hear it (their stdin payloads asserted whole); the
//! transcript holds the compaction record then the summary; a resumed session
//! goes on from the compacted history.

use crate::support::history;
use crate::support::home;

use home::Home;
use serde_json::{json, Value};

/// `agenthub run --script` on the long task; the JSON report.
fn run(home: &Home, script: Value, flags: &[&str]) -> Value {
    home.run_json(script, flags, "a long task")
}

fn echo(id: &str, text: &str) -> Value {
    json!({"tool_calls": [{"id": id, "name": "Echo", "arguments": {"text": text}}]})
}

/// The estimated tokens of the system prompt this home's runs send (bytes / 4,
/// rounded up, + 4: the library's estimate), read from a probe run.
fn system_prompt_tokens(home: &Home) -> u64 {
    system_prompt_tokens_with(home, json!({"turns": [{"content": "probe"}]}), &[])
}

/// [`system_prompt_tokens`] for runs with `flags`, probed with `script`.
fn system_prompt_tokens_with(home: &Home, script: Value, flags: &[&str]) -> u64 {
    let probe = run(home, script, flags);
    let id = probe["session_id"].as_str().unwrap();
    let system = history::history_records(&home.records(id))
        .into_iter()
        .find(|record| record["type"] == "message")
        .unwrap();
    let text = system["message"]["content"].as_str().unwrap();
    (text.len() as u64).div_ceil(4) + 4
}

/// Hooks that append their whole stdin, one line each, and a context window
/// whose compaction limit (half of it) sits 110 tokens above the system
/// prompt: the long first round crosses it, the short second does not.
fn logging_settings(home: &Home, limit: u64) -> Value {
    let window = 2 * limit;
    let log = |name: &str| {
        json!([{"hooks": [{"type": "command",
            "command": format!("cat >> {0}; echo >> {0}", home.base.join(name).display())}]}])
    };
    json!({
        "contextWindow": window,
        "autoCompactThreshold": 0.5,
        "hooks": {"PreCompact": log("precompact.log"), "PostCompact": log("postcompact.log"),
                  "SessionStart": log("start.log")}
    })
}

#[test]
fn a_long_session_compacts_with_its_hooks_and_resumes_from_the_compacted_history() {
    let home = Home::new();
    let limit = system_prompt_tokens(&home) + 110;
    home.settings(logging_settings(&home, limit));
    let long = "z".repeat(300);
    let first = run(
        &home,
        json!({"turns": [echo("c1", &long), echo("c2", "tail"), {"content": "done"}],
               "summaries": ["the task echoed a long text"]}),
        &[],
    );
    let id = first["session_id"].as_str().unwrap().to_owned();
    let transcript = home.transcript(&id).display().to_string();
    let cwd = home.base.join("ws").display().to_string();
    let common = |event: &str| {
        json!({"session_id": id, "transcript_path": transcript, "cwd": cwd,
               "permission_mode": "default", "hook_event_name": event})
    };
    let with = |mut base: Value, extra: Value| {
        base.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        base
    };
    assert_eq!(
        (first["status"].clone(), first["result"].clone()),
        (json!("completed"), json!("done"))
    );
    assert_eq!(
        home.lines("precompact.log"),
        vec![with(
            common("PreCompact"),
            json!({"trigger": "auto", "custom_instructions": ""})
        )]
    );
    assert_eq!(
        home.lines("postcompact.log"),
        vec![with(
            common("PostCompact"),
            json!({"trigger": "auto", "compact_summary": "the task echoed a long text"})
        )]
    );
    assert_eq!(
        home.lines("start.log"),
        vec![
            with(
                common("SessionStart"),
                json!({"source": "startup", "model": "scripted"})
            ),
            with(
                common("SessionStart"),
                json!({"source": "compact", "model": "scripted"})
            ),
        ]
    );

    let records = home.records(&id);
    let at = records
        .iter()
        .position(|record| record["type"] == "compaction")
        .unwrap();
    let mut compaction = records[at].clone();
    let (before, after) = (
        compaction["tokens_before"].take(),
        compaction["tokens_after"].take(),
    );
    let summary = &records[at + 1];
    // The summary keeps the first message's `<system-reminder>` (contract §33).
    let first = history::first_user_content(&records).unwrap();
    let reminder = first.strip_suffix("a long task").unwrap();
    assert_eq!(
        (
            compaction,
            [&summary["type"], &summary["subtype"], &summary["content"]]
        ),
        (
            json!({"type": "compaction", "trigger": "auto", "tokens_before": null,
                   "tokens_after": null, "kept": 0, "sessionId": id}),
            [
                &json!("system"),
                &json!("compact_summary"),
                &json!(format!(
                    "{reminder}{}\n\nthe task echoed a long text",
                    agenthub::crates::core::SUMMARY_HEADER
                ))
            ]
        )
    );
    assert!(before.as_u64().unwrap() >= limit && after.as_u64().unwrap() < limit);

    let resumed = run(
        &home,
        json!({"turns": [{"content": "last: {{last_tool_result}}"}]}),
        &["--resume", &id],
    );
    assert_eq!(resumed["result"], json!("last: tail"));
}

#[test]
fn under_react_the_compaction_summary_comes_from_the_scripts_summaries_not_a_turn() {
    let home = Home::new();
    let react = ["--tool-protocol", "react"];
    let probe = json!({"turns": [{"content": "Final Answer: probe"}]});
    let limit = system_prompt_tokens_with(&home, probe, &react) + 110;
    home.settings(logging_settings(&home, limit));
    let action = |text: &str| {
        json!({"content": format!(
            "Thought: echo\nAction: Echo\nAction Input: {}",
            json!({"text": text})
        )})
    };
    let report = run(
        &home,
        json!({"turns": [action(&"z".repeat(300)), action("tail"), {"content": "Final Answer: done"}],
               "summaries": ["the task echoed a long text"]}),
        &react,
    );
    let summaries: Vec<Value> = home
        .lines("postcompact.log")
        .into_iter()
        .map(|line| line["compact_summary"].clone())
        .collect();
    assert_eq!(
        (report["result"].clone(), summaries),
        (json!("done"), vec![json!("the task echoed a long text")])
    );
}
