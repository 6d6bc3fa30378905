//! Which events fire when: PostToolUse on success, PostToolUseFailure on
//! failure, SessionEnd with its reason, and the Stop continuation limit.

use super::support::*;
use serde_json::json;

fn failing_read_script(case: &Case) {
    case.script(json!([
        {"content": "reading", "tool_calls": [call("call_1", "Read", json!({"file_path": "missing.txt"}))]},
        {"content": "done"}
    ]));
}

#[test]
fn when_the_tool_fails_post_tool_use_failure_runs_and_post_tool_use_does_not() {
    let case = Case::new();
    let hook = case.hook(
        "log.sh",
        "grep -o '\"hook_event_name\":\"[A-Za-z]*' >> .agenthub/fired.txt",
    );
    case.hooks(&[
        ("PostToolUse", None, command(&hook)),
        ("PostToolUseFailure", None, command(&hook)),
    ]);
    failing_read_script(&case);
    case.report();
    assert_eq!(
        (
            case.read(".agenthub/fired.txt"),
            case.hook_records()[0]["event"].clone()
        ),
        (
            "\"hook_event_name\":\"PostToolUseFailure\n".to_owned(),
            json!("PostToolUseFailure")
        )
    );
}

#[test]
fn when_the_tool_succeeds_post_tool_use_runs_and_post_tool_use_failure_does_not() {
    let case = Case::new();
    let hook = case.hook(
        "log.sh",
        "grep -o '\"hook_event_name\":\"[A-Za-z]*' >> .agenthub/fired.txt",
    );
    case.hooks(&[
        ("PostToolUse", None, command(&hook)),
        ("PostToolUseFailure", None, command(&hook)),
    ]);
    case.echo_script("hello");
    case.report();
    assert_eq!(
        case.read(".agenthub/fired.txt"),
        "\"hook_event_name\":\"PostToolUse\n"
    );
}

#[test]
fn post_tool_use_failure_stdin_carries_the_tool_error() {
    let case = Case::new();
    let hook = case.hook("save.sh", "cat > .agenthub/stdin.json");
    case.hooks(&[("PostToolUseFailure", None, command(&hook))]);
    failing_read_script(&case);
    case.report();
    let stdin: serde_json::Value =
        serde_json::from_str(&case.read(".agenthub/stdin.json")).unwrap();
    let tool_result = case.messages()[2]["content"].as_str().unwrap().to_owned();
    assert_eq!(
        (
            stdin["error"]
                .as_str()
                .map(|error| format!("Error [tool_error]: {error}")),
            stdin.get("tool_response").is_none()
        ),
        (Some(tool_result), true)
    );
}

#[test]
fn a_session_end_matcher_filters_on_the_outcome() {
    let case = Case::new();
    let hook = case.hook(
        "log.sh",
        "grep -o '\"agenthub_outcome\":\"[a-z_]*' >> .agenthub/fired.txt",
    );
    case.hooks(&[
        ("SessionEnd", Some("completed"), command(&hook)),
        ("SessionEnd", Some("failed|blocked"), command(&hook)),
    ]);
    case.answer_script(&["done"]);
    case.report();
    assert_eq!(
        case.read(".agenthub/fired.txt"),
        "\"agenthub_outcome\":\"completed\n"
    );
}

#[test]
fn max_stop_continuations_in_settings_allows_more_forced_continuations() {
    let case = Case::new();
    let hook = case.hook("again.sh", "echo 'once more' >&2; exit 2");
    let mut settings = settings_with(&[("Stop", None, command(&hook))]);
    settings["maxStopContinuations"] = json!(2);
    case.project_settings(settings);
    case.answer_script(&["one", "two", "three"]);
    let (report, _) = case.report();
    assert_eq!(
        (report["result"].clone(), report["turns"].clone()),
        (json!("three"), json!(3))
    );
}

#[test]
fn stop_additional_context_continues_the_run_with_it() {
    let case = Case::new();
    let hook = case.hook(
        "ctx.sh",
        r#"echo '{"hookSpecificOutput": {"hookEventName": "Stop", "additionalContext": "verified by CI"}}'"#,
    );
    case.hooks(&[("Stop", None, command(&hook))]);
    case.answer_script(&["done", "done, and CI verified it"]);
    let (report, _) = case.report();
    assert_eq!(
        (report["result"].clone(), case.messages()),
        (
            json!("done, and CI verified it"),
            vec![
                user(PROMPT),
                assistant("done"),
                user("verified by CI"),
                assistant("done, and CI verified it")
            ]
        )
    );
}

#[test]
fn session_start_stdin_names_the_source_and_the_model() {
    let case = Case::new();
    let hook = case.hook("save.sh", "cat > .agenthub/stdin.json");
    case.hooks(&[("SessionStart", None, command(&hook))]);
    case.answer_script(&["done"]);
    case.report();
    let stdin: serde_json::Value =
        serde_json::from_str(&case.read(".agenthub/stdin.json")).unwrap();
    assert_eq!(
        (
            stdin["hook_event_name"].clone(),
            stdin["source"].clone(),
            stdin["model"].clone()
        ),
        (json!("SessionStart"), json!("startup"), json!("scripted"))
    );
}
