//! What reaches a hook: its stdin, its environment, which hooks a matcher
//! selects, and that the same hook in two files runs once.

use super::support::*;
use serde_json::{json, Value};

/// A hook that saves its stdin to `.agenthub/<file>`.
fn recorder(case: &Case, file: &str) -> String {
    case.hook(
        &format!("record-{file}.sh"),
        &format!("cat > .agenthub/{file}"),
    )
}

fn saved(case: &Case, file: &str) -> Value {
    serde_json::from_str(&case.read(&format!(".agenthub/{file}"))).unwrap()
}

#[test]
fn pre_tool_use_stdin_is_one_object_with_the_common_and_event_fields_and_an_absolute_path() {
    let case = Case::new();
    case.write("notes.txt", "hi\n");
    let hook = recorder(&case, "stdin.json");
    case.hooks(&[("PreToolUse", None, command(&hook))]);
    case.script(json!([
        {"content": "reading", "tool_calls": [call("toolu_1", "Read", json!({"file_path": "notes.txt"}))]},
        {"content": "done"}
    ]));
    let (report, _) = case.report();
    assert_eq!(
        saved(&case, "stdin.json"),
        json!({
            "session_id": report["session_id"],
            "transcript_path": case.transcript_path().display().to_string(),
            "cwd": case.workspace.display().to_string(),
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": "Read",
            "tool_input": {"file_path": case.path("notes.txt")},
            "tool_use_id": "toolu_1"
        })
    );
}

#[test]
fn post_tool_use_stdin_carries_the_response_and_the_duration() {
    let case = Case::new();
    let hook = recorder(&case, "stdin.json");
    case.hooks(&[("PostToolUse", None, command(&hook))]);
    case.echo_script("hello");
    case.report();
    let mut stdin = saved(&case, "stdin.json");
    let duration = stdin.as_object_mut().unwrap().remove("duration_ms");
    let fields: Vec<&str> = stdin
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        (
            fields,
            stdin["tool_response"].clone(),
            duration.is_some_and(|d| d.is_u64())
        ),
        (
            vec![
                "cwd",
                "hook_event_name",
                "permission_mode",
                "session_id",
                "tool_input",
                "tool_name",
                "tool_response",
                "tool_use_id",
                "transcript_path"
            ],
            json!({"text": "hello"}),
            true
        )
    );
}

#[test]
fn stop_stdin_carries_the_candidate_answer_and_stop_hook_active() {
    let case = Case::new();
    let hook = recorder(&case, "stdin.json");
    case.hooks(&[("Stop", None, command(&hook))]);
    case.answer_script(&["all done"]);
    case.report();
    let stdin = saved(&case, "stdin.json");
    assert_eq!(
        (
            stdin["hook_event_name"].clone(),
            stdin["stop_hook_active"].clone(),
            stdin["last_assistant_message"].clone()
        ),
        (json!("Stop"), json!(false), json!("all done"))
    );
}

#[test]
fn session_end_stdin_carries_claude_codes_reason_and_the_outcome() {
    let case = Case::new();
    let hook = recorder(&case, "stdin.json");
    case.hooks(&[("SessionEnd", None, command(&hook))]);
    case.answer_script(&["all done"]);
    case.report();
    let stdin = saved(&case, "stdin.json");
    assert_eq!(
        (
            stdin["hook_event_name"].clone(),
            stdin["reason"].clone(),
            stdin["agenthub_outcome"].clone()
        ),
        (json!("SessionEnd"), json!("other"), json!("completed"))
    );
}

#[test]
fn quotes_command_substitution_and_newlines_reach_the_script_intact() {
    let case = Case::new();
    let hook = recorder(&case, "stdin.json");
    case.hooks(&[("PreToolUse", None, command(&hook))]);
    let tricky = "he said \"hi\" $(touch pwned) `touch pwned2` 'single'\nsecond line\\n";
    case.echo_script(tricky);
    case.report();
    assert_eq!(
        (
            saved(&case, "stdin.json")["tool_input"]["text"].clone(),
            case.workspace.join("pwned").exists()
        ),
        (json!(tricky), false)
    );
}

#[test]
fn hooks_get_the_project_and_session_variables_and_placeholders_in_exec_form() {
    let case = Case::new();
    case.hook(
        "env.sh",
        "cat > /dev/null\necho \"$1|$AGENTHUB_PROJECT_DIR|$CLAUDE_PROJECT_DIR|$AGENTHUB_SESSION_ID|$CLAUDE_CODE_SESSION_ID|$(pwd)\" > .agenthub/env.txt",
    );
    let exec_form = json!({"type": "command", "command": "${CLAUDE_PROJECT_DIR}/.agenthub/hooks/env.sh", "args": ["${CLAUDE_PROJECT_DIR}/x"]});
    case.hooks(&[("UserPromptSubmit", None, exec_form)]);
    case.answer_script(&["done"]);
    let (report, _) = case.report();
    let root = case.workspace.display().to_string();
    let session = report["session_id"].as_str().unwrap().to_owned();
    assert_eq!(
        case.read(".agenthub/env.txt"),
        format!("{root}/x|{root}|{root}|{session}|{session}|{root}\n")
    );
}

#[test]
fn each_matcher_fires_for_the_tools_it_names_only() {
    let case = Case::new();
    case.write("a.txt", "a\n");
    let matchers = [
        "",
        "*",
        "Echo",
        "Read|Echo",
        "Read, Glob",
        "Ech.*",
        "^Ech$",
        "echo",
    ];
    let mut hooks = vec![("PreToolUse", None, command(&case.hook("absent.sh", "echo \"absent $(grep -o '\"tool_name\":\"[A-Za-z]*' | cut -d'\"' -f4)\" >> .agenthub/fired.txt")))];
    for (position, matcher) in matchers.iter().enumerate() {
        let body = format!("echo \"{matcher} $(grep -o '\"tool_name\":\"[A-Za-z]*' | cut -d'\"' -f4)\" >> .agenthub/fired.txt");
        hooks.push((
            "PreToolUse",
            Some(*matcher),
            command(&case.hook(&format!("m{position}.sh"), &body)),
        ));
    }
    case.hooks(&hooks);
    case.script(json!([
        {"content": "calls", "tool_calls": [
            call("call_1", "Echo", json!({"text": "x"})),
            call("call_2", "Read", json!({"file_path": "a.txt"})),
            call("call_3", "Glob", json!({"pattern": "*.txt"}))]},
        {"content": "done"}
    ]));
    case.report();
    assert_eq!(
        case.read(".agenthub/fired.txt"),
        [
            "absent Echo",
            " Echo",
            "* Echo",
            "Echo Echo",
            "Read|Echo Echo",
            "Ech.* Echo",
            "absent Read",
            " Read",
            "* Read",
            "Read|Echo Read",
            "Read, Glob Read",
            "absent Glob",
            " Glob",
            "* Glob",
            "Read, Glob Glob",
            ""
        ]
        .join("\n")
    );
}

#[test]
fn a_matcher_on_user_prompt_submit_and_stop_is_ignored() {
    let case = Case::new();
    let hook = case.hook(
        "log.sh",
        "grep -o '\"hook_event_name\":\"[A-Za-z]*' >> .agenthub/fired.txt",
    );
    case.hooks(&[
        ("UserPromptSubmit", Some("NoSuchThing"), command(&hook)),
        ("Stop", Some("^nothing$"), command(&hook)),
    ]);
    case.answer_script(&["done"]);
    case.report();
    assert_eq!(
        case.read(".agenthub/fired.txt"),
        "\"hook_event_name\":\"UserPromptSubmit\n\"hook_event_name\":\"Stop\n"
    );
}

#[test]
fn the_same_hook_in_user_and_project_settings_runs_once() {
    let case = Case::new();
    let hook = case.hook("count.sh", "echo ran >> .agenthub/count.txt");
    case.user_settings(settings_with(&[(
        "PreToolUse",
        Some("Echo"),
        command(&hook),
    )]));
    case.hooks(&[("PreToolUse", Some("Echo"), command(&hook))]);
    case.echo_script("hello");
    case.report();
    assert_eq!(case.read(".agenthub/count.txt"), "ran\n");
}

#[test]
fn the_same_command_under_two_matchers_that_both_match_runs_once() {
    let case = Case::new();
    let hook = case.hook("count.sh", "echo ran >> .agenthub/count.txt");
    case.user_settings(settings_with(&[(
        "PreToolUse",
        Some("Ec.*"),
        command(&hook),
    )]));
    case.hooks(&[("PreToolUse", Some("Echo"), command(&hook))]);
    case.echo_script("hello");
    case.report();
    assert_eq!(case.read(".agenthub/count.txt"), "ran\n");
}

#[test]
fn the_same_command_under_matchers_for_different_tools_runs_for_each_tool() {
    let case = Case::new();
    let hook = case.hook("count.sh", "echo ran >> .agenthub/count.txt");
    case.hooks(&[
        ("PreToolUse", Some("Read"), command(&hook)),
        ("PreToolUse", Some("Echo"), command(&hook)),
    ]);
    case.echo_script("hello");
    case.report();
    assert_eq!(case.read(".agenthub/count.txt"), "ran\n");
}

#[test]
fn hook_records_name_the_settings_file_and_the_index_of_the_hook() {
    let case = Case::new();
    let first = case.hook("first.sh", "exit 0");
    let second = case.hook("second.sh", "echo 'no' >&2; exit 2");
    case.hooks(&[
        ("PreToolUse", None, command(&first)),
        ("PreToolUse", None, command(&second)),
    ]);
    case.echo_script("hello");
    case.report();
    let source = case.path(".agenthub/settings.json");
    assert_eq!(
        case.hook_records(),
        vec![
            json!({"type": "hook", "event": "PreToolUse", "hook": first, "tool_use_id": "call_1", "tool_name": "Echo",
                   "outcome": "ok", "source": source, "index": 0, "exit_code": 0}),
            json!({"type": "hook", "event": "PreToolUse", "hook": second, "tool_use_id": "call_1", "tool_name": "Echo",
                   "outcome": "blocked", "decision": "block", "source": source, "index": 1, "exit_code": 2}),
        ]
    );
}
