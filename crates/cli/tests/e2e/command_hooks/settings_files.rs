//! Settings files through the binary: configuration errors stop the command
//! with exit 2 naming the file and place; warnings do not; `hooks list` shows
//! what will run.

use super::support::*;
use serde_json::json;

fn run_failure(case: &Case) -> (i32, String) {
    let output = case.run().output().unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_malformed_settings_file_stops_the_run_with_exit_2_naming_line_and_column() {
    let case = Case::new();
    case.write(
        ".agenthub/settings.json",
        "{\"hooks\": {\n  \"PreToolUse\": [,]\n}}",
    );
    case.answer_script(&["done"]);
    assert_eq!(
        run_failure(&case),
        (
            2,
            format!(
                "agenthub: malformed settings file {} at line 2, column 18: expected value\n",
                case.path(".agenthub/settings.json")
            )
        )
    );
}

#[test]
fn a_key_given_twice_stops_the_run_with_exit_2_naming_the_file_and_the_key() {
    let case = Case::new();
    case.write(
        ".agenthub/settings.json",
        "{\"permissions\": {\"deny\": [\"Bash(rm *)\"],\n  \"deny\": []}}",
    );
    case.answer_script(&["done"]);
    assert_eq!(
        run_failure(&case),
        (
            2,
            format!(
                "agenthub: settings file {} has the key permissions.deny twice (the second at line 2, column 8); keep one\n",
                case.path(".agenthub/settings.json")
            )
        )
    );
}

#[test]
fn a_settings_file_with_a_byte_order_mark_loads() {
    let case = Case::new();
    case.write(
        ".agenthub/settings.json",
        "\u{feff}{\"permissions\": {\"deny\": [\"Echo\"]}}",
    );
    case.echo_script("hi");
    let output = case.run().output().unwrap();
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        report["result"],
        format!(
            "Result: Error [permission_denied]: the tool was not run: permission denied: \
             Echo matches deny rule Echo ({})",
            case.path(".agenthub/settings.json")
        )
    );
}

#[test]
fn an_unknown_event_stops_the_run_with_exit_2_naming_the_json_path() {
    let case = Case::new();
    case.project_settings(json!({"hooks": {"BeforeTool": []}}));
    case.answer_script(&["done"]);
    assert_eq!(
        run_failure(&case),
        (
            2,
            format!(
                "agenthub: invalid settings file {} at hooks.BeforeTool: unknown hook event \"BeforeTool\"; known events: SessionStart, UserPromptSubmit, PreToolUse, PermissionRequest, PostToolUse, PostToolUseFailure, Stop, SubagentStart, SubagentStop, PreCompact, Notification, SessionEnd, StopFailure, PermissionDenied, PostCompact, InstructionsLoaded, PostToolBatch, UserPromptExpansion\n",
                case.path(".agenthub/settings.json")
            )
        )
    );
}

#[test]
fn a_hook_without_command_in_the_command_line_file_stops_the_run_with_exit_2() {
    let case = Case::new();
    let extra = case.outside("extra.json");
    std::fs::write(
        &extra,
        json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "timeout": 5}]}]}}).to_string(),
    )
    .unwrap();
    case.answer_script(&["done"]);
    let output = case.run().arg("--settings").arg(&extra).output().unwrap();
    assert_eq!(
        (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned()),
        (
            Some(2),
            format!(
                "agenthub: invalid settings file {} at hooks.Stop[0].hooks[0]: a hook needs a \"command\"\n",
                extra.display()
            )
        )
    );
}

#[test]
fn an_invalid_matcher_regex_stops_the_run_with_exit_2() {
    let case = Case::new();
    case.hooks(&[("PreToolUse", Some("Edit("), command("true"))]);
    case.answer_script(&["done"]);
    let (code, stderr) = run_failure(&case);
    assert_eq!(
        (code, stderr.lines().next().map(str::to_owned)),
        (
            2,
            Some(format!(
                "agenthub: invalid settings file {} at hooks.PreToolUse[0].matcher: invalid matcher regex \"Edit(\": regex parse error:",
                case.path(".agenthub/settings.json")
            ))
        )
    );
}

#[test]
fn unknown_top_level_keys_are_a_warning_and_the_run_goes_on() {
    let case = Case::new();
    case.project_settings(json!({"statusLine": {"type": "command"}}));
    case.answer_script(&["done"]);
    let output = case.run().output().unwrap();
    assert_eq!(
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stderr).into_owned()
        ),
        (
            Some(0),
            format!(
                "agenthub: warning: {}: unknown key \"statusLine\" ignored\n",
                case.path(".agenthub/settings.json")
            )
        )
    );
}

#[test]
fn disable_all_hooks_in_a_later_layer_switches_every_command_hook_off() {
    let case = Case::new();
    let hook = case.hook("block.sh", "exit 2");
    case.hooks(&[("PreToolUse", None, command(&hook))]);
    case.write(
        ".agenthub/settings.local.json",
        r#"{"disableAllHooks": true}"#,
    );
    case.echo_script("hello");
    case.report();
    assert_eq!(case.messages(), echo_history("hello", "hello"));
}

#[test]
fn a_claude_code_settings_file_passed_with_settings_works_as_it_is() {
    let case = Case::new();
    case.hook(
        "block-echo.sh",
        "echo 'blocked by the Claude Code hook' >&2\nexit 2",
    );
    case.write(
        ".claude/settings.json",
        r#"{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "permissions": {"allow": ["Read"]},
  "hooks": {
    "PreToolUse": [{"matcher": "Echo", "hooks": [
      {"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.agenthub/hooks/block-echo.sh", "timeout": 30, "statusMessage": "Checking"}]}]
  }
}"#,
    );
    case.echo_script("hello");
    let output = case
        .run()
        .arg("--settings")
        .arg(case.path(".claude/settings.json"))
        .output()
        .unwrap();
    assert_eq!(
        (output.status.code(), case.messages()),
        (
            Some(0),
            echo_history(
                "hello",
                "Error [hook_blocked]: blocked by the Claude Code hook"
            )
        )
    );
}

#[test]
fn hooks_list_shows_each_hook_with_its_source_index_on_failure_and_default_timeout() {
    let case = Case::new();
    case.hooks(&[
        ("PreToolUse", Some("Bash"), command("./guard.sh")),
        ("PostToolUse", None, command("./log.sh")),
        ("UserPromptSubmit", None, command("./ctx.sh")),
    ]);
    case.trust();
    let output = agenthub(&case).arg("hooks").arg("list").output().unwrap();
    let file = case.path(".agenthub/settings.json");
    let root = case.workspace.display();
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        format!(
            "workspace: {root}
settings files read:
  {file}
UserPromptSubmit
  matcher:   *
  command:   ./ctx.sh
  source:    {file} (index 0, hooks.UserPromptSubmit[0].hooks[0])
  onFailure: continue   timeout: 600s

PreToolUse
  matcher:   Bash
  command:   ./guard.sh
  source:    {file} (index 0, hooks.PreToolUse[0].hooks[0])
  onFailure: block   timeout: 600s

PostToolUse
  matcher:   *
  command:   ./log.sh
  source:    {file} (index 0, hooks.PostToolUse[0].hooks[0])
  onFailure: continue   timeout: 600s

"
        )
    );
}

#[test]
fn hooks_list_shows_the_hooks_of_an_untrusted_workspace_as_waiting_for_trust() {
    let case = Case::new();
    case.hooks(&[("PreToolUse", Some("Bash"), command("./guard.sh"))]);
    let output = agenthub(&case).arg("hooks").arg("list").output().unwrap();
    let file = case.path(".agenthub/settings.json");
    let root = case.workspace.display();
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        format!(
            "workspace: {root}
settings files read:
  {file}
no command hooks configured
waiting for trust (the workspace's configuration is not trusted; review and trust it with `agenthub trust`):
PreToolUse
  matcher:   Bash
  command:   ./guard.sh
  source:    {file} (index 0, hooks.PreToolUse[0].hooks[0])
  onFailure: block   timeout: 600s

"
        )
    );
}
