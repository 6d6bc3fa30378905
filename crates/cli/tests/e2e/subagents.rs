//! Subagents through the real binary (contract §17): command hooks hear a
//! subagent's calls with its `agent_id` and `agent_type`, SubagentStart and
//! SubagentStop fire with their documented fields, the transcript records the
//! subagent's messages under its id while a resumed session rebuilds only
//! its own history, and `agenthub agents list` reads a project's definitions
//! only once the project is trusted.

use crate::support::history;
use crate::support::home;

use home::Home;
use serde_json::{json, Value};

/// `agenthub run --script` with `script`, the project trusted and every
/// call allowed, and extra `flags`; the JSON report.
fn run(home: &Home, script: Value, flags: &[&str]) -> Value {
    let mut all = vec!["--trust-project", "--permission-mode", "bypassPermissions"];
    all.extend_from_slice(flags);
    home.run_json(script, &all, "go")
}

/// A parent that starts one general-purpose subagent and reports its answer;
/// the subagent runs `echo hi`, then answers `child done`.
fn one_subagent() -> Value {
    json!({
        "turns": [
            {"tool_calls": [{"id": "t1", "name": "Task", "arguments": {
                "description": "say hi", "prompt": "run echo hi", "subagent_type": "general-purpose"}}]},
            {"content": "parent: {{last_tool_result}}"}
        ],
        "subagents": [{"turns": [
            {"tool_calls": [{"id": "b1", "name": "Bash", "arguments": {"command": "echo hi"}}]},
            {"content": "child done"}
        ]}]
    })
}

fn hook(file: &str) -> Value {
    json!([{"hooks": [{"type": "command", "command": format!("(cat; echo) >> ../{file}")}]}])
}

#[test]
fn command_hooks_hear_the_subagent_and_the_transcript_records_its_messages_under_its_id() {
    let home = Home::new();
    home.write(
        "ws/.agenthub/settings.json",
        &json!({"hooks": {
            "PreToolUse": hook("pre.jsonl"),
            "SubagentStart": hook("start.jsonl"),
            "SubagentStop": hook("stop.jsonl"),
        }})
        .to_string(),
    );
    let report = run(&home, one_subagent(), &[]);
    assert_eq!(report["result"], "parent: child done");

    let pre = home.lines("pre.jsonl");
    let fields = |record: &Value| {
        (
            record["hook_event_name"].clone(),
            record["tool_name"].clone(),
            record.get("agent_type").cloned(),
        )
    };
    assert_eq!(
        pre.iter().map(fields).collect::<Vec<_>>(),
        vec![
            (json!("PreToolUse"), json!("Task"), None),
            (
                json!("PreToolUse"),
                json!("Bash"),
                Some(json!("general-purpose"))
            ),
        ]
    );
    let agent_id = pre[1]["agent_id"].as_str().unwrap().to_owned();
    let start = home.lines("start.jsonl");
    assert_eq!(
        (
            start.len(),
            &start[0]["hook_event_name"],
            &start[0]["agent_id"],
            &start[0]["agent_type"]
        ),
        (
            1,
            &json!("SubagentStart"),
            &json!(agent_id),
            &json!("general-purpose")
        )
    );
    let stop = home.lines("stop.jsonl");
    assert_eq!(
        (
            &stop[0]["hook_event_name"],
            &stop[0]["agent_id"],
            &stop[0]["last_assistant_message"],
            &stop[0]["stop_hook_active"]
        ),
        (
            &json!("SubagentStop"),
            &json!(agent_id),
            &json!("child done"),
            &json!(false)
        )
    );

    let id = report["session_id"].as_str().unwrap();
    let records = history::history_records(&home.records(id));
    let child: Vec<Value> = records
        .iter()
        .filter(|record| record["type"] == "message" && record.get("agent_id").is_some())
        .map(|record| {
            assert_eq!(record["agent_id"], json!(agent_id));
            record["message"]["role"].clone()
        })
        .collect();
    assert_eq!(
        child,
        vec![
            json!("system"),
            json!("user"),
            json!("assistant"),
            json!("tool"),
            json!("assistant")
        ]
    );
    assert_eq!(records.last().unwrap()["type"], "outcome");
}

#[test]
fn a_resumed_session_rebuilds_only_its_own_history() {
    let home = Home::new();
    let first = run(&home, one_subagent(), &[]);
    let id = first["session_id"].as_str().unwrap().to_owned();
    let resumed = run(
        &home,
        json!({"turns": [{"content": "last: {{last_tool_result}}"}]}),
        &["--resume", &id],
    );
    assert_eq!(resumed["result"], "last: child done");
}

const DEFINITION: &str = "---\nname: NAME\ndescription: DESC\ntools: Read, Grep\n---\nYou look.\n";

#[test]
fn agents_list_reads_a_projects_definitions_only_once_it_is_trusted() {
    let home = Home::new();
    home.write(
        "home/.claude/agents/mine.md",
        &DEFINITION
            .replace("NAME", "mine")
            .replace("DESC", "user one"),
    );
    home.write(
        "ws/.agenthub/agents/theirs.md",
        &DEFINITION
            .replace("NAME", "theirs")
            .replace("DESC", "project one"),
    );
    let untrusted = home.agenthub().args(["agents", "list"]).output().unwrap();
    let listed = String::from_utf8(untrusted.stdout).unwrap();
    let names: Vec<&str> = listed
        .lines()
        .filter(|line| !line.starts_with(' '))
        .collect();
    assert_eq!(
        names,
        vec![
            "general-purpose  Researches questions, searches code, does multi-step tasks.",
            "mine  user one"
        ]
    );
    let warning = String::from_utf8(untrusted.stderr).unwrap();
    assert!(
        warning.contains("- subagent definition (.agenthub/agents/theirs.md)"),
        "{warning}"
    );

    let trusted = home
        .agenthub()
        .args(["agents", "list", "--trust-project"])
        .output()
        .unwrap();
    let listed = String::from_utf8(trusted.stdout).unwrap();
    let theirs = home.ws().join(".agenthub/agents/theirs.md");
    assert!(
        listed.contains(&format!(
            "theirs  project one\n  tools: Read, Grep\n  model: inherit\n  file: {}\n",
            theirs.display()
        )),
        "{listed}"
    );
}

#[test]
fn a_definition_that_cannot_be_read_is_set_aside_with_a_warning_and_the_others_load() {
    let home = Home::new();
    home.write("home/.config/agenthub/agents/bad.md", "---\nname: bad\n");
    home.write(
        "home/.config/agenthub/agents/good.md",
        &DEFINITION.replace("NAME", "good").replace("DESC", "fine"),
    );
    let output = home.agenthub().args(["agents", "list"]).output().unwrap();
    let file = home.base.join("home/.config/agenthub/agents/bad.md");
    let listed = String::from_utf8(output.stdout).unwrap();
    let names: Vec<&str> = listed
        .lines()
        .filter(|line| !line.starts_with(' '))
        .map(|line| line.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(
        (
            output.status.code(),
            String::from_utf8(output.stderr).unwrap().trim().to_owned(),
            names
        ),
        (
            Some(0),
            format!(
                "agenthub: warning: invalid subagent definition {}:1: the front matter opened by '---' \
                 is never closed by a '---' line; the definition is set aside",
                file.display()
            ),
            vec!["general-purpose", "good"]
        )
    );
}

/// Three definitions as public projects write them: no front matter, a YAML
/// list of tools in a subfolder, and a `hooks` key.
fn public_style_definitions(home: &Home) {
    home.write("ws/.claude/agents/plain.md", "Review the diff.\n");
    home.write(
        "ws/.claude/agents/team/lister.md",
        "---\nname: lister\ndescription: Lists things\ntools:\n  - Read\n  - Grep\n---\nList.\n",
    );
    home.write(
        "ws/.claude/agents/guarded.md",
        "---\nname: guarded\ndescription: Runs guarded\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: echo 'the guarded agent may not run commands' >&2; exit 2\n---\nDo the task.\n",
    );
}

#[test]
fn definitions_without_front_matter_with_yaml_lists_in_subfolders_or_with_hooks_are_trusted_and_listed(
) {
    let home = Home::new();
    public_style_definitions(&home);
    let shown = home.agenthub().args(["trust", "--show"]).output().unwrap();
    let trusted = home
        .agenthub()
        .args(["agents", "list", "--trust-project"])
        .output()
        .unwrap();
    let listed = String::from_utf8(trusted.stdout).unwrap();
    let names: Vec<&str> = listed
        .lines()
        .filter(|line| !line.starts_with(' '))
        .collect();
    let show = String::from_utf8(shown.stdout).unwrap();
    assert_eq!(
        (
            shown.status.code(),
            show.contains(".claude/agents/team/lister.md"),
            show.contains("PreToolUse hook (matcher Bash): echo 'the guarded agent may not run commands' >&2; exit 2"),
            names
        ),
        (
            Some(0),
            true,
            true,
            vec![
                "general-purpose  Researches questions, searches code, does multi-step tasks.",
                "guarded  Runs guarded",
                "lister  Lists things",
                "plain  Review the diff.",
            ]
        )
    );
}

#[test]
fn a_definitions_own_hooks_run_for_that_subagent_only() {
    let home = Home::new();
    public_style_definitions(&home);
    let script = json!({
        "turns": [
            {"tool_calls": [{"id": "b0", "name": "Bash", "arguments": {"command": "echo parent"}}]},
            {"tool_calls": [{"id": "t1", "name": "Task", "arguments": {
                "description": "guarded", "prompt": "run echo hi", "subagent_type": "guarded"}}]},
            {"content": "parent: {{last_tool_result}}"}
        ],
        "subagents": [{"turns": [
            {"tool_calls": [{"id": "b1", "name": "Bash", "arguments": {"command": "echo hi"}}]},
            {"content": "child saw: {{last_tool_result}}"}
        ]}]
    });
    let report = run(&home, script, &[]);
    let transcript = home.records(report["session_id"].as_str().unwrap());
    let parent_bash = transcript
        .iter()
        .find_map(|line| {
            let content = &line["message"]["content"];
            content
                .as_array()?
                .iter()
                .find_map(|block| (block["tool_use_id"] == "b0").then(|| block["content"].clone()))
        })
        .unwrap();
    assert_eq!(
        (parent_bash, report["result"].clone()),
        (
            json!("[exit code: 0]\nparent"),
            json!(
                "parent: child saw: Error [hook_blocked]: the guarded agent may not run commands"
            )
        )
    );
}
