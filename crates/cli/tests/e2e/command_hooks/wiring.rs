//! That `agenthub run` wires settings hooks into the session at all, end to
//! end, one smoke test per way a hook reaches the loop: a block reaching the
//! model, a blocked prompt, Stop forcing another turn, `[Warning]` lines on
//! stderr, a failing gate failing the binary, the approver without a
//! terminal, a failed Bash call, `CLAUDE_ENV_FILE` reaching Bash and the
//! transcript path. How each hook's answer is read is tested where it is
//! decided: `crates/hooks/tests/it`; what the loop does with each verdict in
//! `crates/core/tests/it`.

use super::support::*;
use serde_json::{json, Value};

/// A hook script that prints `json` on stdout and exits 0.
fn printing(case: &Case, name: &str, json: Value) -> String {
    case.hook(name, &format!("cat > /dev/null\necho '{json}'"))
}

fn asking(case: &Case) -> Value {
    command(&case.hook(
        "ask.sh",
        r#"echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "confirm echo"}}'"#,
    ))
}

fn answering(case: &Case, body: &str) -> Value {
    command(&case.hook("answer.sh", body))
}

/// `agenthub run` of the case with Bash allowed.
fn run_with_bash(case: &Case) -> std::process::Output {
    case.run().arg("--allow").arg("Bash").output().unwrap()
}

fn bash_script(case: &Case, command: &str) {
    case.script(json!([
        {"content": "running", "tool_calls": [call("call_1", "Bash", json!({"command": command}))]},
        {"content": "Result: {{last_tool_result}}"}
    ]));
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

#[test]
fn system_message_is_shown_to_the_user_and_not_to_the_model() {
    let case = Case::new();
    let hook = printing(
        &case,
        "note.sh",
        json!({"systemMessage": "heads up: slow disk"}),
    );
    case.hooks(&[("PreToolUse", None, command(&hook))]);
    case.echo_script("hello");
    let stderr = case.stderr();
    assert_eq!(
        (
            stderr
                .lines()
                .filter(|line| line.starts_with("[Warning]"))
                .collect::<Vec<_>>(),
            case.messages()
        ),
        (
            vec!["[Warning] PreToolUse hook \"./.agenthub/hooks/note.sh\": heads up: slow disk"],
            echo_history("hello", "hello")
        )
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
fn no_decision_falls_through_to_the_approver_which_denies_without_a_terminal() {
    let case = Case::new();
    case.hooks(&[
        ("PreToolUse", None, asking(&case)),
        ("PermissionRequest", None, answering(&case, "exit 0")),
    ]);
    case.echo_script("hello");
    case.report();
    let result =
        "Error [permission_denied]: the tool was not run: permission denied: approval required";
    assert_eq!(case.messages(), echo_history("hello", result));
}

#[test]
fn a_bash_command_that_exits_non_zero_fires_post_tool_use_failure_not_post_tool_use() {
    let case = Case::new();
    let failed = case.hook("failed.sh", "cat > .agenthub/failure.json");
    let succeeded = case.hook("succeeded.sh", "touch .agenthub/success");
    case.hooks(&[
        ("PostToolUseFailure", Some("Bash"), command(&failed)),
        ("PostToolUse", Some("Bash"), command(&succeeded)),
    ]);
    bash_script(&case, "echo partial; exit 3");
    run_with_bash(&case);
    let failure: Value = serde_json::from_str(&case.read(".agenthub/failure.json")).unwrap();
    assert_eq!(
        (
            failure["hook_event_name"].clone(),
            failure["error"].clone(),
            case.workspace.join(".agenthub/success").exists()
        ),
        (
            json!("PostToolUseFailure"),
            json!("Exit code 3\npartial"),
            false
        )
    );
}

#[test]
fn a_claude_env_file_that_extends_path_is_run_by_bash_so_later_commands_find_both() {
    // The pattern of Node projects: `export PATH="…/node_modules/.bin:$PATH"`.
    // Read as text it set PATH to the literal and every Bash call failed.
    let case = Case::new();
    case.write("tools/greet", "#!/bin/sh\necho hello from tools\n");
    std::process::Command::new("chmod")
        .arg("+x")
        .arg(case.workspace.join("tools/greet"))
        .status()
        .unwrap();
    let setup = case.hook(
        "env.sh",
        r#"echo "export PATH=\"$CLAUDE_PROJECT_DIR/tools:\$PATH\"" >> "$CLAUDE_ENV_FILE""#,
    );
    case.hooks(&[("SessionStart", None, command(&setup))]);
    bash_script(&case, "greet && ls -d / >/dev/null && echo ls-found");
    run_with_bash(&case);
    assert_eq!(
        case.messages()[2],
        tool("call_1", "[exit code: 0]\nhello from tools\nls-found")
    );
}

#[test]
fn a_relative_transcript_reaches_hooks_as_an_absolute_path() {
    let case = Case::new();
    let save = case.hook("save.sh", "cat > .agenthub/stdin.json");
    case.hooks(&[("Stop", None, command(&save))]);
    case.answer_script(&["done"]);
    agenthub(&case)
        .current_dir(case.outside(""))
        .arg("run")
        .arg("--trust-project")
        .arg("--script")
        .arg(case.outside("script.json"))
        .arg("--workspace")
        .arg(&case.workspace)
        .arg("--transcript")
        .arg("relative.jsonl")
        .arg(PROMPT)
        .output()
        .unwrap();
    let stdin: Value = serde_json::from_str(&case.read(".agenthub/stdin.json")).unwrap();
    let expected = case
        .outside("")
        .canonicalize()
        .unwrap()
        .join("relative.jsonl");
    assert_eq!(
        (stdin["transcript_path"].clone(), stdin["cwd"].clone()),
        (
            json!(expected.display().to_string()),
            json!(case.workspace.display().to_string())
        )
    );
}
