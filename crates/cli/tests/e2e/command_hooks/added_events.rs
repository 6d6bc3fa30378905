//! The events contract §21 added, each through a real command hook that saves
//! its stdin: StopFailure, PermissionDenied and InstructionsLoaded (PostCompact
//! runs in e2e::compaction, where a history long enough to compact is built).

use super::support::*;
use serde_json::{json, Value};

/// A hook that appends its stdin, one JSON line per run, to `.agenthub/<name>.log`.
fn logging_hook(case: &Case, name: &str) -> Value {
    command(&case.hook(
        &format!("{name}.sh"),
        &format!("cat >> .agenthub/{name}.log; echo >> .agenthub/{name}.log"),
    ))
}

/// The logged stdins, each without the common fields.
fn logged(case: &Case, name: &str) -> Vec<Value> {
    case.read(&format!(".agenthub/{name}.log"))
        .lines()
        .map(|line| {
            let mut stdin: Value = serde_json::from_str(line).unwrap();
            let fields = stdin.as_object_mut().unwrap();
            for common in ["session_id", "transcript_path", "cwd", "permission_mode"] {
                fields.remove(common);
            }
            stdin
        })
        .collect()
}

#[test]
fn stop_failure_hooks_get_the_error_the_run_ends_on() {
    let case = Case::new();
    case.hooks(&[("StopFailure", None, logging_hook(&case, "failure"))]);
    case.script(json!([
        {"content": "working", "tool_calls": [call("call_1", "Echo", json!({"text": "hi"}))]}
    ]));
    let (report, code) = case.report();
    let error = format!(
        "model request failed: the script {} has no turn left for model request 2 (it has 1 turns)",
        case.outside("script.json").display()
    );
    assert_eq!(
        (code, report["error"].clone(), logged(&case, "failure")),
        (
            1,
            json!(error),
            vec![json!({"hook_event_name": "StopFailure", "error": error})]
        )
    );
}

#[test]
fn permission_denied_hooks_get_the_refused_call_and_the_reason() {
    let case = Case::new();
    let mut settings = settings_with(&[(
        "PermissionDenied",
        Some("Bash"),
        logging_hook(&case, "denied"),
    )]);
    settings["permissions"] = json!({"deny": ["Bash"]});
    case.project_settings(settings);
    case.script(json!([
        {"content": "running", "tool_calls": [call("call_1", "Bash", json!({"command": "ls"}))]},
        {"content": "gave up"}
    ]));
    let (report, _) = case.report();
    let reason = report["permission_denials"][0]["reason"].clone();
    assert_eq!(
        logged(&case, "denied"),
        vec![
            json!({"hook_event_name": "PermissionDenied", "tool_name": "Bash",
                    "tool_input": {"command": "ls"}, "tool_use_id": "call_1",
                    "reason": reason})
        ]
    );
    assert!(
        reason.as_str().is_some_and(|text| text.contains("Bash")),
        "{reason}"
    );
}

#[test]
fn instructions_loaded_hooks_are_told_each_memory_file_when_a_session_starts() {
    let case = Case::new();
    case.write("AGENTS.md", "Answer briefly.\n");
    case.hooks(&[("InstructionsLoaded", None, logging_hook(&case, "loaded"))]);
    case.answer_script(&["done"]);
    case.report();
    assert_eq!(
        logged(&case, "loaded"),
        vec![json!({"hook_event_name": "InstructionsLoaded",
                    "file_path": case.path("AGENTS.md"), "load_reason": "session_start"})]
    );
}

#[test]
fn post_tool_batch_hooks_see_every_call_of_the_message_and_may_add_context() {
    let case = Case::new();
    let hook = case.hook(
        "batch.sh",
        "cat >> .agenthub/batch.log; echo >> .agenthub/batch.log\n\
         echo '{\"hookSpecificOutput\": {\"hookEventName\": \"PostToolBatch\", \"additionalContext\": \"both calls are done\"}}'",
    );
    let mut settings = settings_with(&[("PostToolBatch", None, command(&hook))]);
    settings["permissions"] = json!({"deny": ["Bash"]});
    case.project_settings(settings);
    case.script(json!([
        {"content": "two things", "tool_calls": [
            call("call_1", "Echo", json!({"text": "hi"})),
            call("call_2", "Bash", json!({"command": "ls"}))
        ]},
        {"content": "done"}
    ]));
    case.report();
    let messages = case.messages();
    assert_eq!(
        (logged(&case, "batch"), messages[4].clone()),
        (
            vec![json!({"hook_event_name": "PostToolBatch", "tool_calls": [
                {"tool_name": "Echo", "tool_use_id": "call_1", "tool_input": {"text": "hi"},
                 "is_error": false},
                {"tool_name": "Bash", "tool_use_id": "call_2", "tool_input": {"command": "ls"},
                 "is_error": true}
            ]})],
            json!({"role": "system", "content": "both calls are done"})
        )
    );
}

#[test]
fn a_user_prompt_expansion_hook_blocks_a_command_in_hooks_test() {
    // Slash commands are another issue's; the event's plumbing is tried
    // through `hooks test` with a real command hook and its matcher.
    let case = Case::new();
    let hook = case.hook(
        "no_deploy.sh",
        "grep -q '\"command_args\": *\"prod' && { echo 'no deploys to prod from here' >&2; exit 2; }; exit 0",
    );
    case.hooks(&[("UserPromptExpansion", Some("deploy"), command(&hook))]);
    case.trust();
    case.write(
        "payload.json",
        r#"{"expansion_type": "slash_command", "command_name": "deploy", "command_args": "prod", "prompt": "/deploy prod"}"#,
    );
    let output = agenthub(&case)
        .args([
            "hooks",
            "test",
            "UserPromptExpansion",
            "--input",
            "payload.json",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(
        (
            output.status.code(),
            stdout
                .lines()
                .skip_while(|line| *line != "merged result:")
                .collect::<Vec<_>>()
        ),
        (
            Some(0),
            vec![
                "merged result:",
                "  the prompt is blocked: no deploys to prod from here"
            ]
        )
    );
}
