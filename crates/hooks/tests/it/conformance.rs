//! What reaches a hook: its stdin, its environment, which hooks a matcher
//! selects, and that the same hook in two files runs once.

use crate::support::*;
use agenthub_hooks::{CommandHooks, SessionEndContext, SessionEndReason};
use agenthub_protocol::RunStatus;
use serde_json::{json, Value};

/// A hook that saves its stdin to `.agenthub/<file>`.
fn recorder(case: &Case, file: &str) -> String {
    case.hook(
        &format!("record-{file}.sh"),
        &format!("cat > .agenthub/{file}"),
    )
}

#[tokio::test]
async fn pre_tool_use_stdin_is_one_object_with_the_common_and_event_fields_and_an_absolute_path() {
    let case = Case::new();
    case.write("notes.txt", "hi\n");
    let hook = recorder(&case, "stdin.json");
    let registry = case.registry(&[("PreToolUse", None, command(&hook))]);
    let read = call(
        agenthub_tools::builtin::Read,
        "toolu_1",
        "Read",
        json!({"file_path": case.path("notes.txt")}),
    );
    case.pre_tool_use(&registry, read).await;
    assert_eq!(
        case.saved(".agenthub/stdin.json"),
        json!({
            "session_id": SESSION,
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

#[tokio::test]
async fn post_tool_use_stdin_carries_the_response_and_the_duration() {
    let case = Case::new();
    let hook = recorder(&case, "stdin.json");
    let registry = case.registry(&[("PostToolUse", None, command(&hook))]);
    case.post_tool_use(&registry, echo("hello"), echoed("hello"))
        .await;
    let mut stdin = case.saved(".agenthub/stdin.json");
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

#[tokio::test]
async fn stop_stdin_carries_the_candidate_answer_and_stop_hook_active() {
    let case = Case::new();
    let hook = recorder(&case, "stdin.json");
    let registry = case.registry(&[("Stop", None, command(&hook))]);
    case.stop(&registry, "all done", false).await;
    let stdin = case.saved(".agenthub/stdin.json");
    assert_eq!(
        (
            stdin["hook_event_name"].clone(),
            stdin["stop_hook_active"].clone(),
            stdin["last_assistant_message"].clone()
        ),
        (json!("Stop"), json!(false), json!("all done"))
    );
}

#[tokio::test]
async fn session_end_stdin_carries_claude_codes_reason_and_the_outcome() {
    let case = Case::new();
    let hook = recorder(&case, "stdin.json");
    let registry = case.registry(&[("SessionEnd", None, command(&hook))]);
    let context = SessionEndContext {
        common: case.common(),
        reason: RunStatus::Completed,
        exit: SessionEndReason::Other,
    };
    registry.run_session_end(context).await;
    let stdin = case.saved(".agenthub/stdin.json");
    assert_eq!(
        (
            stdin["hook_event_name"].clone(),
            stdin["reason"].clone(),
            stdin["agenthub_outcome"].clone()
        ),
        (json!("SessionEnd"), json!("other"), json!("completed"))
    );
}

#[tokio::test]
async fn quotes_command_substitution_and_newlines_reach_the_script_intact() {
    let case = Case::new();
    let hook = recorder(&case, "stdin.json");
    let registry = case.registry(&[("PreToolUse", None, command(&hook))]);
    let tricky = "he said \"hi\" $(touch pwned) `touch pwned2` 'single'\nsecond line\\n";
    case.pre_tool_use(&registry, echo(tricky)).await;
    assert_eq!(
        (
            case.saved(".agenthub/stdin.json")["tool_input"]["text"].clone(),
            case.exists("pwned")
        ),
        (json!(tricky), false)
    );
}

#[tokio::test]
async fn hooks_get_the_project_and_session_variables_and_placeholders_in_exec_form() {
    let case = Case::new();
    case.hook(
        "env.sh",
        "cat > /dev/null\necho \"$1|$AGENTHUB_PROJECT_DIR|$CLAUDE_PROJECT_DIR|$AGENTHUB_SESSION_ID|$CLAUDE_CODE_SESSION_ID|$(pwd)\" > .agenthub/env.txt",
    );
    let exec_form = json!({"type": "command", "command": "${CLAUDE_PROJECT_DIR}/.agenthub/hooks/env.sh", "args": ["${CLAUDE_PROJECT_DIR}/x"]});
    let registry = case.registry(&[("UserPromptSubmit", None, exec_form)]);
    case.user_prompt_submit(&registry).await;
    let root = case.workspace.display().to_string();
    assert_eq!(
        case.read(".agenthub/env.txt"),
        format!("{root}/x|{root}|{root}|{SESSION}|{SESSION}|{root}\n")
    );
}

#[tokio::test]
async fn each_matcher_fires_for_the_tools_it_names_only() {
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
    let registry = case.registry(&hooks);
    let calls = [
        echo("x"),
        call(
            agenthub_tools::builtin::Read,
            "call_2",
            "Read",
            json!({"file_path": case.path("a.txt")}),
        ),
        call(
            agenthub_tools::builtin::Glob,
            "call_3",
            "Glob",
            json!({"pattern": "*.txt"}),
        ),
    ];
    for prepared in calls {
        case.pre_tool_use(&registry, prepared).await;
    }
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

#[tokio::test]
async fn a_matcher_on_user_prompt_submit_and_stop_is_ignored() {
    let case = Case::new();
    let hook = command(&case.hook(
        "log.sh",
        "grep -o '\"hook_event_name\":\"[A-Za-z]*' >> .agenthub/fired.txt",
    ));
    let registry = case.registry(&[
        ("UserPromptSubmit", Some("NoSuchThing"), hook.clone()),
        ("Stop", Some("^nothing$"), hook),
    ]);
    case.user_prompt_submit(&registry).await;
    case.stop(&registry, "done", false).await;
    assert_eq!(
        case.read(".agenthub/fired.txt"),
        "\"hook_event_name\":\"UserPromptSubmit\n\"hook_event_name\":\"Stop\n"
    );
}

/// A registry of the user's settings file's hooks, then the project's.
fn user_then_project(
    case: &Case,
    user: &[(&str, Option<&str>, Value)],
    project: &[(&str, Option<&str>, Value)],
) -> agenthub_hooks::HookRegistry {
    let mut configs = configs_in(&case.outside("config/agenthub/settings.json"), user);
    configs.extend(case.configs(project));
    CommandHooks::new(configs).into_registry().unwrap()
}

#[tokio::test]
async fn the_same_hook_in_user_and_project_settings_runs_once() {
    let case = Case::new();
    let hook = case.hook("count.sh", "echo ran >> .agenthub/count.txt");
    let registry = user_then_project(
        &case,
        &[("PreToolUse", Some("Echo"), command(&hook))],
        &[("PreToolUse", Some("Echo"), command(&hook))],
    );
    case.pre_tool_use(&registry, echo("hello")).await;
    assert_eq!(case.read(".agenthub/count.txt"), "ran\n");
}

#[tokio::test]
async fn the_same_command_under_two_matchers_that_both_match_runs_once() {
    let case = Case::new();
    let hook = case.hook("count.sh", "echo ran >> .agenthub/count.txt");
    let registry = user_then_project(
        &case,
        &[("PreToolUse", Some("Ec.*"), command(&hook))],
        &[("PreToolUse", Some("Echo"), command(&hook))],
    );
    case.pre_tool_use(&registry, echo("hello")).await;
    assert_eq!(case.read(".agenthub/count.txt"), "ran\n");
}

#[tokio::test]
async fn the_same_command_under_matchers_for_different_tools_runs_for_each_tool() {
    let case = Case::new();
    let hook = case.hook("count.sh", "echo ran >> .agenthub/count.txt");
    let registry = case.registry(&[
        ("PreToolUse", Some("Read"), command(&hook)),
        ("PreToolUse", Some("Echo"), command(&hook)),
    ]);
    case.pre_tool_use(&registry, echo("hello")).await;
    assert_eq!(case.read(".agenthub/count.txt"), "ran\n");
}

#[tokio::test]
async fn hook_records_name_the_settings_file_and_the_index_of_the_hook() {
    let case = Case::new();
    let first = case.hook("first.sh", "exit 0");
    let second = case.hook("second.sh", "echo 'no' >&2; exit 2");
    let registry = case.registry(&[
        ("PreToolUse", None, command(&first)),
        ("PreToolUse", None, command(&second)),
    ]);
    let run = case.pre_tool_use(&registry, echo("hello")).await;
    let source = case.path(".agenthub/settings.json");
    assert_eq!(
        records(&run.records),
        vec![
            json!({"event": "PreToolUse", "hook": first, "tool_use_id": "call_1", "tool_name": "Echo",
                   "outcome": "ok", "source": source, "index": 0, "exit_code": 0}),
            json!({"event": "PreToolUse", "hook": second, "tool_use_id": "call_1", "tool_name": "Echo",
                   "outcome": "blocked", "decision": "block", "source": source, "index": 1, "exit_code": 2}),
        ]
    );
}

#[tokio::test]
async fn after_an_earlier_hook_rewrote_the_output_later_hooks_get_the_rewritten_text() {
    let case = Case::new();
    let rewrite = json!({"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": "[redacted]"}});
    let redact = case.hook("redact.sh", &format!("cat > /dev/null\necho '{rewrite}'"));
    let save = recorder(&case, "stdin.json");
    let registry = case.registry(&[
        ("PostToolUse", None, command(&redact)),
        ("PostToolUse", None, command(&save)),
    ]);
    case.post_tool_use(&registry, echo("hello"), echoed("hello"))
        .await;
    assert_eq!(
        case.saved(".agenthub/stdin.json")["tool_response"],
        json!("[redacted]")
    );
}
