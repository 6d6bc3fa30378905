//! Codex's and Gemini CLI's hook configurations run unchanged (contract §21):
//! `.codex/hooks.json` and `.gemini/settings.json` written the way their
//! documentation shows, with their own tool names in matchers and Gemini's
//! own event names and answers; their project files wait for trust.

use super::support::*;
use serde_json::json;

/// An Echo call (`call_1`) of the text `rm -rf build` through Bash's matcher
/// would not fire, so the script calls Bash itself.
fn bash_script(case: &Case) {
    case.script(json!([
        {"content": "cleaning", "tool_calls": [call("call_1", "Bash", json!({"command": "rm -rf build"}))]},
        {"content": "Result: {{last_tool_result}}"}
    ]));
}

#[test]
fn a_codex_hooks_json_pre_tool_use_guard_blocks_with_its_permission_decision() {
    let case = Case::new();
    // Codex's documented shape: hooks.json, matcher on Codex's tool name,
    // a deny through hookSpecificOutput.permissionDecision.
    let guard = case.hook(
        "codex_guard.sh",
        r#"if grep -q 'rm -rf'; then
  echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "rm -rf is blocked by the Codex policy"}}'
fi"#,
    );
    case.write(
        ".codex/hooks.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "^Bash$", "hooks": [
            {"type": "command", "command": guard, "timeout": 30, "statusMessage": "Checking Bash command"}
        ]}]}})
        .to_string(),
    );
    bash_script(&case);
    let (report, _) = case.report();
    assert_eq!(
        report["result"],
        json!("Result: Error [permission_denied]: the tool was not run: permission denied: rm -rf is blocked by the Codex policy")
    );
}

#[test]
fn a_codex_apply_patch_matcher_fires_on_agenthubs_edits() {
    let case = Case::new();
    let guard = case.hook("no_patch.sh", "echo 'patches are frozen' >&2; exit 2");
    case.write(
        ".codex/hooks.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "apply_patch", "hooks": [
            {"type": "command", "command": guard}
        ]}]}})
        .to_string(),
    );
    case.script(json!([
        {"content": "writing", "tool_calls": [call("call_1", "Write", json!({"file_path": "a.txt", "content": "x"}))]},
        {"content": "Result: {{last_tool_result}}"}
    ]));
    let (report, _) = case.report();
    assert_eq!(
        (
            report["result"].clone(),
            case.workspace.join("a.txt").exists()
        ),
        (
            json!("Result: Error [hook_blocked]: patches are frozen"),
            false
        )
    );
}

/// Gemini CLI's documented BeforeTool guard: reads `tool_input` with jq and
/// answers `{"decision": "deny", "reason": …}` on stdout, exit 0.
const GEMINI_GUARD: &str = r#"input=$(cat)
command=$(echo "$input" | jq -r '.tool_input.command')
if echo "$command" | grep -q 'rm -rf'; then
  echo '{"decision": "deny", "reason": "Gemini policy: no rm -rf"}'
else
  echo '{}'
fi"#;

fn gemini_settings(case: &Case) {
    let guard = case.hook("gemini_guard.sh", GEMINI_GUARD);
    case.write(
        ".gemini/settings.json",
        &json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
            {"name": "no-rm", "type": "command", "command": guard, "timeout": 5000,
             "description": "blocks rm -rf"}
        ]}]}})
        .to_string(),
    );
}

#[test]
fn a_gemini_before_tool_hook_on_run_shell_command_blocks_agenthubs_bash() {
    let case = Case::new();
    gemini_settings(&case);
    bash_script(&case);
    let (report, _) = case.report();
    assert_eq!(
        report["result"],
        json!("Result: Error [permission_denied]: the tool was not run: permission denied: Gemini policy: no rm -rf")
    );
}

#[test]
fn a_gemini_project_hook_waits_until_the_workspace_is_trusted() {
    let case = Case::new();
    gemini_settings(&case);
    case.write("build/x", "x");
    bash_script(&case);
    let output = agenthub(&case)
        .arg("run")
        .arg("--permission-mode=bypassPermissions")
        .arg("--script")
        .arg(case.outside("script.json"))
        .arg("--workspace")
        .arg(&case.workspace)
        .arg("--transcript")
        .arg(case.transcript_path())
        .arg("--output-format")
        .arg("json")
        .arg(PROMPT)
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        (
            report["result"].clone(),
            case.workspace.join("build").exists()
        ),
        (json!("Result: [exit code: 0]"), false)
    );
}

#[test]
fn codex_inline_hooks_in_config_toml_run_like_its_hooks_json() {
    let case = Case::new();
    let guard = case.hook(
        "policy.sh",
        "echo 'no rm -rf here (config.toml)' >&2; exit 2",
    );
    case.write(
        ".codex/config.toml",
        &format!(
            "model = \"gpt-5\"\n\n[[hooks.PreToolUse]]\nmatcher = \"^Bash$\"\n\n\
             [[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = '{guard}'\ntimeout = 30\n"
        ),
    );
    bash_script(&case);
    let (report, _) = case.report();
    assert_eq!(
        report["result"],
        json!("Result: Error [hook_blocked]: no rm -rf here (config.toml)")
    );
}
