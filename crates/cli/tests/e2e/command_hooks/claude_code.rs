//! Issue 13: hook configurations written for Claude Code run unchanged. Each
//! test is one pattern the issue found broken, as a small real script.

use super::support::*;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

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
fn a_grep_guard_that_exits_1_on_the_harmless_path_lets_the_call_run() {
    let case = Case::new();
    let guard = case.hook(
        "guard.sh",
        "grep -q 'rm -rf' && { echo 'no rm -rf' >&2; exit 2; }",
    );
    case.hooks(&[("PreToolUse", Some("Echo"), command(&guard))]);
    case.echo_script("hello");
    case.report();
    assert_eq!(case.messages(), echo_history("hello", "hello"));
}

#[test]
fn a_stop_hook_whose_tool_is_missing_keeps_the_answer() {
    let case = Case::new();
    case.hooks(&[("Stop", None, command("pnpm-not-installed test"))]);
    case.answer_script(&["all done"]);
    let (report, code) = case.report();
    assert_eq!(
        (report["status"].clone(), report["result"].clone(), code),
        (json!("completed"), json!("all done"), 0)
    );
}

#[test]
fn a_user_prompt_submit_hook_whose_tool_is_missing_keeps_the_prompt() {
    let case = Case::new();
    case.hooks(&[(
        "UserPromptSubmit",
        None,
        command("osascript-not-installed -e 'display notification'"),
    )]);
    case.answer_script(&["answered"]);
    let (report, _) = case.report();
    assert_eq!(
        (report["status"].clone(), report["result"].clone()),
        (json!("completed"), json!("answered"))
    );
}

#[test]
fn a_hook_that_echoes_its_input_back_is_not_a_contract_error() {
    let case = Case::new();
    let echo = case.hook("echo-input.sh", "cat");
    case.hooks(&[("UserPromptSubmit", None, command(&echo))]);
    case.answer_script(&["answered"]);
    let (report, _) = case.report();
    assert_eq!(
        (report["status"].clone(), report["result"].clone()),
        (json!("completed"), json!("answered"))
    );
}

#[test]
fn a_stop_hook_saying_decision_allow_lets_the_answer_go() {
    let case = Case::new();
    let allow = case.hook("allow.sh", r#"echo '{"decision": "allow"}'"#);
    case.hooks(&[("Stop", None, command(&allow))]);
    case.answer_script(&["all done"]);
    let (report, _) = case.report();
    assert_eq!(
        (report["status"].clone(), report["result"].clone()),
        (json!("completed"), json!("all done"))
    );
}

#[test]
fn a_stop_hook_exiting_2_with_its_reason_on_stdout_makes_the_model_continue() {
    let case = Case::new();
    let gate = case.hook(
        "tests-pass.sh",
        r#"echo '{"decision":"block","reason":"tests must pass: 2 failing"}'
exit 2"#,
    );
    case.hooks(&[("Stop", None, command(&gate))]);
    case.answer_script(&["done", "fixed the 2 tests"]);
    let (report, _) = case.report();
    assert_eq!(
        (report["result"].clone(), case.messages()),
        (
            json!("fixed the 2 tests"),
            vec![
                user(PROMPT),
                assistant("done"),
                user("tests must pass: 2 failing"),
                assistant("fixed the 2 tests")
            ]
        )
    );
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
fn a_session_start_hook_exporting_to_claude_env_file_sets_variables_for_bash() {
    let case = Case::new();
    let setup = case.hook(
        "env.sh",
        r#"echo 'export NODE_ENV="test"' >> "$CLAUDE_ENV_FILE""#,
    );
    case.hooks(&[("SessionStart", None, command(&setup))]);
    bash_script(&case, "echo NODE_ENV=$NODE_ENV");
    run_with_bash(&case);
    assert_eq!(
        case.messages()[2],
        tool("call_1", "[exit code: 0]\nNODE_ENV=test")
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
fn declare_x_lines_of_export_p_in_claude_env_file_reach_bash() {
    let case = Case::new();
    let setup = case.hook(
        "env.sh",
        r#"echo 'declare -x GREETING="two words"' >> "$CLAUDE_ENV_FILE""#,
    );
    case.hooks(&[("SessionStart", None, command(&setup))]);
    bash_script(&case, "echo \"GREETING=$GREETING\"");
    run_with_bash(&case);
    assert_eq!(
        case.messages()[2],
        tool("call_1", "[exit code: 0]\nGREETING=two words")
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

#[test]
fn a_project_folder_with_shell_syntax_in_its_name_runs_nothing_through_the_hook() {
    let dir = tempfile::tempdir().unwrap();
    let workspace = dir.path().join("proj$(touch PWNED)");
    std::fs::create_dir_all(workspace.join(".agenthub")).unwrap();
    std::fs::write(
        workspace.join(".agenthub/ok.sh"),
        "#!/bin/sh\ntouch \"$CLAUDE_PROJECT_DIR/ran\"\n",
    )
    .unwrap();
    std::process::Command::new("chmod")
        .arg("+x")
        .arg(workspace.join(".agenthub/ok.sh"))
        .status()
        .unwrap();
    let settings = settings_with(&[(
        "Stop",
        None,
        command("\"$CLAUDE_PROJECT_DIR\"/.agenthub/ok.sh"),
    )]);
    std::fs::write(
        workspace.join(".agenthub/settings.json"),
        settings.to_string(),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("script.json"),
        json!({"turns": [{"content": "done"}]}).to_string(),
    )
    .unwrap();
    assert_cmd::Command::cargo_bin("agenthub")
        .unwrap()
        .env("XDG_CONFIG_HOME", dir.path().join("config"))
        .env("XDG_STATE_HOME", dir.path().join("state"))
        .env("HOME", dir.path())
        .current_dir(&workspace)
        .arg("run")
        .arg("--trust-project")
        .arg("--script")
        .arg(dir.path().join("script.json"))
        .arg("--workspace")
        .arg(&workspace)
        .arg(PROMPT)
        .output()
        .unwrap();
    assert_eq!(
        (
            workspace.join("ran").exists(),
            dir.path().join("PWNED").exists() || workspace.join("PWNED").exists()
        ),
        (true, false)
    );
}

#[test]
fn a_hook_whose_child_escaped_the_group_holding_stdout_ends_at_its_timeout() {
    let case = Case::new();
    let escape = case.hook("escape.sh", "setsid sleep 30 &\nexit 0");
    let mut spec = command(&escape);
    spec["timeout"] = json!(1);
    case.hooks(&[("Stop", None, spec)]);
    case.answer_script(&["done"]);
    let started = Instant::now();
    let (report, _) = case.report();
    assert_eq!(
        (
            report["result"].clone(),
            started.elapsed() < Duration::from_secs(10)
        ),
        (json!("done"), true)
    );
}

#[test]
fn an_async_hook_does_not_hold_the_run() {
    let case = Case::new();
    let slow = case.hook("slow.sh", "sleep 5; touch .agenthub/late");
    let mut spec = command(&slow);
    spec["async"] = json!(true);
    case.hooks(&[("Stop", None, spec)]);
    case.answer_script(&["done"]);
    let started = Instant::now();
    let (report, _) = case.report();
    assert_eq!(
        (
            report["result"].clone(),
            started.elapsed() < Duration::from_secs(4)
        ),
        (json!("done"), true)
    );
}

#[test]
fn a_once_hook_runs_once_per_session() {
    let case = Case::new();
    let count = case.hook("count.sh", "echo x >> .agenthub/count");
    let mut spec = command(&count);
    spec["once"] = json!(true);
    case.hooks(&[("PreToolUse", None, spec)]);
    case.script(json!([
        {"content": "1", "tool_calls": [call("call_1", "Echo", json!({"text": "a"}))]},
        {"content": "2", "tool_calls": [call("call_2", "Echo", json!({"text": "b"}))]},
        {"content": "done"}
    ]));
    case.report();
    assert_eq!(case.read(".agenthub/count"), "x\n");
}
