//! The issue's new-user check: a Claude Code PreToolUse guard script and its
//! settings block, copied into `.agenthub/settings.json`, block `rm -rf build`
//! with the script's own message, and `agenthub hooks test` shows why. The
//! user trusts the workspace first (`agenthub trust`), as contract §11 asks.
//! (The usual guard reads `tool_input.command` with jq; this one uses grep so
//! that the test needs nothing beyond a POSIX shell.)

use super::support::*;
use serde_json::json;

const GUARD: &str = r#"input=$(cat)
if printf '%s' "$input" | grep -Eq '"command":"rm -rf'; then
  echo "Blocked by guard.sh: rm -rf is not allowed in this project" >&2
  exit 2
fi
exit 0"#;

fn guarded_case() -> Case {
    let case = Case::new();
    case.hook("guard.sh", GUARD);
    case.write(
        ".agenthub/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.agenthub/hooks/guard.sh"}]}]}}"#,
    );
    case.trust();
    case
}

#[test]
fn the_guard_blocks_rm_rf_build_with_its_own_message() {
    let case = guarded_case();
    case.write("build/out.o", "binary");
    case.script(json!([
        {"content": "cleaning", "tool_calls": [call("call_1", "Bash", json!({"command": "rm -rf build"}))]},
        {"content": "Result: {{last_tool_result}}"}
    ]));
    let (report, code) = case.report();
    let blocked =
        "Error [hook_blocked]: Blocked by guard.sh: rm -rf is not allowed in this project";
    assert_eq!(
        (
            code,
            report["result"].clone(),
            case.workspace.join("build/out.o").exists()
        ),
        (0, json!(format!("Result: {blocked}")), true)
    );
}

#[test]
fn hooks_test_shows_the_exit_code_stderr_decision_and_merged_result() {
    let case = guarded_case();
    case.write(
        "payload.json",
        r#"{"tool_name": "Bash", "tool_input": {"command": "rm -rf build"}}"#,
    );
    let output = agenthub(&case)
        .args(["hooks", "test", "PreToolUse", "--input", "payload.json"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter(|line| !line.starts_with("    elapsed:"))
        .collect::<Vec<_>>()
        .join("\n");
    let file = case.path(".agenthub/settings.json");
    assert_eq!(
        (output.status.code(), stdout),
        (
            Some(0),
            format!(
                r#"PreToolUse on "Bash": 1 command hook(s) configured

[1] "$CLAUDE_PROJECT_DIR"/.agenthub/hooks/guard.sh
    source:   {file} (index 0, hooks.PreToolUse[0].hooks[0]), onFailure: block
    exit:     2
    stdout:   (empty)
    stderr:   Blocked by guard.sh: rm -rf is not allowed in this project
    decision: block

merged result:
  the tool would not run: Error [hook_blocked]: Blocked by guard.sh: rm -rf is not allowed in this project"#
            )
        )
    );
}

#[test]
fn hooks_test_shows_a_safe_command_going_on_to_permission() {
    let case = guarded_case();
    case.write(
        "payload.json",
        r#"{"tool_name": "Bash", "tool_input": {"command": "ls"}}"#,
    );
    let output = agenthub(&case)
        .args(["hooks", "test", "PreToolUse", "--input", "payload.json"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(
        stdout
            .lines()
            .skip_while(|line| *line != "merged result:")
            .collect::<Vec<_>>(),
        vec![
            "merged result:",
            "  the call goes on to permission with input {\"command\":\"ls\"}"
        ]
    );
}
