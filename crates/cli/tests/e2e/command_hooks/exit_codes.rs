//! docs/hooks.md "Exit codes", row by row, event by event.

use super::support::*;
use serde_json::json;

#[test]
fn exit_0_with_empty_stdout_is_no_decision_and_the_tool_runs() {
    let case = Case::new();
    let hook = case.hook("silent.sh", "exit 0");
    case.hooks(&[("PreToolUse", None, command(&hook))]);
    case.echo_script("hello");
    let (report, code) = case.report();
    assert_eq!((report["status"].clone(), code), (json!("completed"), 0));
    assert_eq!(case.messages(), echo_history("hello", "hello"));
}

#[test]
fn exit_0_with_plain_text_on_pre_tool_use_is_only_logged() {
    let case = Case::new();
    let hook = case.hook("chatty.sh", "echo 'looks fine to me'");
    case.hooks(&[("PreToolUse", None, command(&hook))]);
    case.echo_script("hello");
    case.report();
    assert_eq!(case.messages(), echo_history("hello", "hello"));
}

#[test]
fn exit_0_with_plain_text_on_user_prompt_submit_is_added_as_context() {
    let case = Case::new();
    let hook = case.hook("context.sh", "echo 'The build uses cargo.'");
    case.hooks(&[("UserPromptSubmit", None, command(&hook))]);
    case.answer_script(&["done"]);
    case.report();
    assert_eq!(
        case.messages(),
        vec![
            user(PROMPT),
            system("The build uses cargo."),
            assistant("done")
        ]
    );
}

#[test]
fn exit_0_with_plain_text_on_session_start_is_added_as_context() {
    let case = Case::new();
    let hook = case.hook("start.sh", "echo 'Branch: main'");
    case.hooks(&[("SessionStart", None, command(&hook))]);
    case.answer_script(&["done"]);
    case.report();
    assert_eq!(
        case.messages(),
        vec![system("Branch: main"), user(PROMPT), assistant("done")]
    );
}

#[test]
fn exit_2_on_pre_tool_use_blocks_the_call_with_stderr_as_the_reason() {
    let case = Case::new();
    let hook = case.hook("block.sh", "echo 'no echoing today' >&2; exit 2");
    case.hooks(&[("PreToolUse", Some("Echo"), command(&hook))]);
    case.echo_script("hello");
    case.report();
    assert_eq!(
        case.messages(),
        echo_history("hello", "Error [hook_blocked]: no echoing today")
    );
}

#[test]
fn exit_2_on_pre_tool_use_blocks_even_when_stdout_says_allow() {
    let case = Case::new();
    let hook = case.hook(
        "mixed.sh",
        r#"echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}'
echo 'blocked anyway' >&2
exit 2"#,
    );
    case.hooks(&[("PreToolUse", None, command(&hook))]);
    case.echo_script("hello");
    case.report();
    assert_eq!(
        case.messages(),
        echo_history("hello", "Error [hook_blocked]: blocked anyway")
    );
}

#[test]
fn exit_2_on_user_prompt_submit_blocks_the_prompt_before_any_model_request() {
    let case = Case::new();
    let hook = case.hook(
        "gate.sh",
        "echo 'prompts about secrets are refused' >&2; exit 2",
    );
    case.hooks(&[("UserPromptSubmit", None, command(&hook))]);
    case.answer_script(&["never asked"]);
    let (report, code) = case.report();
    assert_eq!(
        (
            report["status"].clone(),
            report["error"].clone(),
            report["turns"].clone(),
            code
        ),
        (
            json!("blocked"),
            json!("prompts about secrets are refused"),
            json!(0),
            0
        )
    );
    assert_eq!(case.messages(), vec![user(PROMPT)]);
}

#[test]
fn exit_2_on_stop_continues_once_with_stderr_as_the_instruction() {
    let case = Case::new();
    let hook = case.hook(
        "check.sh",
        r#"if grep -q '"stop_hook_active":false' ; then echo 'run the tests first' >&2; exit 2; fi
exit 0"#,
    );
    case.hooks(&[("Stop", None, command(&hook))]);
    case.answer_script(&["done", "tests pass, done"]);
    let (report, _) = case.report();
    assert_eq!(report["result"], json!("tests pass, done"));
    assert_eq!(
        case.messages(),
        vec![
            user(PROMPT),
            assistant("done"),
            user("run the tests first"),
            assistant("tests pass, done")
        ]
    );
}

#[test]
fn exit_2_on_post_tool_use_shows_stderr_to_the_model_next_to_the_result() {
    let case = Case::new();
    let hook = case.hook("lint.sh", "echo 'style: trailing space' >&2; exit 2");
    case.hooks(&[("PostToolUse", None, command(&hook))]);
    case.echo_script("hello");
    case.report();
    let result = "hello\n\nPostToolUse hook feedback (the tool already ran): style: trailing space";
    assert_eq!(case.messages(), echo_history("hello", result));
}

#[test]
fn exit_2_on_post_tool_use_failure_shows_stderr_next_to_the_tool_error() {
    let case = Case::new();
    let hook = case.hook("explain.sh", "echo 'create the file first' >&2; exit 2");
    case.hooks(&[("PostToolUseFailure", Some("Read"), command(&hook))]);
    case.script(json!([
        {"content": "reading", "tool_calls": [call("call_1", "Read", json!({"file_path": "missing.txt"}))]},
        {"content": "ok"}
    ]));
    case.report();
    let content = case.messages()[2]["content"].as_str().unwrap().to_owned();
    assert_eq!(
        content.split_once("\n\n").map(|(_, feedback)| feedback),
        Some("PostToolUseFailure hook feedback (the tool already ran): create the file first")
    );
}

#[test]
fn exit_2_on_session_start_is_shown_to_the_user_only() {
    let case = Case::new();
    let hook = case.hook("start.sh", "echo 'remember to pull' >&2; exit 2");
    case.hooks(&[("SessionStart", None, command(&hook))]);
    case.answer_script(&["done"]);
    let stderr = case.stderr();
    assert_eq!(
        (
            stderr.lines().find(|line| line.starts_with("[Warning]")),
            case.messages()
        ),
        (
            Some("[Warning] SessionStart hook \"./.agenthub/hooks/start.sh\": remember to pull"),
            vec![user(PROMPT), assistant("done")]
        )
    );
}

#[test]
fn exit_1_on_pre_tool_use_is_a_non_blocking_error_that_warns_and_lets_the_tool_run() {
    let case = Case::new();
    let hook = case.hook("broken.sh", "echo 'jq: not found' >&2; exit 1");
    case.hooks(&[("PreToolUse", None, command(&hook))]);
    case.echo_script("hello");
    let stderr = case.stderr();
    let warning = format!(
        "PreToolUse hook \"./.agenthub/hooks/broken.sh\": exited with status 1: jq: not found; a non-blocking error, the action goes on (hook from {}; \"onFailure\": \"block\" makes it block)",
        case.path(".agenthub/settings.json")
    );
    assert_eq!(
        (stderr.contains(&warning), case.messages()),
        (true, echo_history("hello", "hello"))
    );
}

#[test]
fn exit_1_with_on_failure_block_blocks_the_call_as_an_execution_error() {
    let case = Case::new();
    let hook = case.hook(
        "broken.sh",
        "echo 'first line' >&2; echo 'second line' >&2; exit 1",
    );
    let mut spec = command(&hook);
    spec["onFailure"] = json!("block");
    case.hooks(&[("PreToolUse", None, spec)]);
    case.echo_script("hello");
    case.report();
    let result = "Error [hook_execution_error]: the tool was not run: PreToolUse hook \"./.agenthub/hooks/broken.sh\" failed: exited with status 1: first line";
    assert_eq!(case.messages(), echo_history("hello", result));
}

#[test]
fn exit_1_with_a_valid_deny_json_denies_and_is_not_an_error() {
    let case = Case::new();
    let hook = case.hook(
        "deny.sh",
        r#"echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "echo is disabled"}}'
exit 1"#,
    );
    case.hooks(&[("PreToolUse", None, command(&hook))]);
    case.echo_script("hello");
    case.report();
    assert_eq!(
        (case.messages()[2].clone(), case.hook_records()[0]["outcome"].clone()),
        (
            tool("call_1", "Error [permission_denied]: the tool was not run: permission denied: echo is disabled"),
            json!("ok")
        )
    );
}

#[test]
fn exit_127_is_a_hook_failure_that_says_command_not_found() {
    let case = Case::new();
    case.hooks(&[("PreToolUse", None, command("./.agenthub/hooks/typo.sh"))]);
    case.echo_script("hello");
    case.report();
    let result = case.messages()[2]["content"].as_str().unwrap().to_owned();
    assert_eq!(
        result.split(": sh:").next(),
        Some("Error [hook_execution_error]: the tool was not run: PreToolUse hook \"./.agenthub/hooks/typo.sh\" failed: exited with status 127 (command not found)")
    );
}

#[test]
fn a_failing_user_prompt_submit_hook_with_on_failure_block_fails_the_run() {
    let case = Case::new();
    let hook = case.hook("broken.sh", "exit 3");
    let mut spec = command(&hook);
    spec["onFailure"] = json!("block");
    case.hooks(&[("UserPromptSubmit", None, spec)]);
    case.answer_script(&["never asked"]);
    let (report, code) = case.report();
    assert_eq!(
        (report["status"].clone(), report["error"].clone(), code),
        (
            json!("failed"),
            json!("UserPromptSubmit hook \"./.agenthub/hooks/broken.sh\" failed: exited with status 3"),
            1
        )
    );
}

#[test]
fn a_failing_stop_hook_with_on_failure_block_fails_the_run_instead_of_returning_the_answer() {
    let case = Case::new();
    let hook = case.hook("broken.sh", "kill -9 $$");
    let exec_form = json!({"type": "command", "command": hook, "args": [], "onFailure": "block"});
    case.hooks(&[("Stop", None, exec_form)]);
    case.answer_script(&["done"]);
    let (report, code) = case.report();
    assert_eq!(
        (
            report["status"].clone(),
            report["result"].clone(),
            report["error"].clone(),
            code
        ),
        (
            json!("failed"),
            json!(null),
            json!(
                "Stop hook \"[exec] ./.agenthub/hooks/broken.sh\" failed: was killed by signal 9"
            ),
            1
        )
    );
}
