//! Settings files AgentHub refuses: each error names the file and the JSON
//! path of what is wrong (a skipped hook would be a hole in a gate).

use crate::support;

use agenthub_settings::*;
use support::*;

#[test]
fn malformed_json_names_the_file_line_and_column() {
    assert_eq!(
        error_for("{\n  \"hooks\": {,}\n}"),
        "malformed settings file FILE at line 2, column 13: key must be a string"
    );
}

#[test]
fn an_unknown_event_names_the_json_path() {
    assert_eq!(
        error_for(r#"{"hooks": {"PreToolUze": []}}"#),
        "invalid settings file FILE at hooks.PreToolUze: unknown hook event \"PreToolUze\"; known events: SessionStart, UserPromptSubmit, PreToolUse, PermissionRequest, PostToolUse, PostToolUseFailure, Stop, SubagentStart, SubagentStop, PreCompact, Notification, SessionEnd, StopFailure, PermissionDenied, PostCompact, InstructionsLoaded, PostToolBatch, UserPromptExpansion"
    );
}

#[test]
fn a_hook_without_command_names_the_json_path() {
    assert_eq!(
        error_for(
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command"}]}]}}"#
        ),
        "invalid settings file FILE at hooks.PreToolUse[0].hooks[0]: a hook needs a \"command\""
    );
}

#[test]
fn a_non_numeric_timeout_names_the_json_path() {
    assert_eq!(
        error_for(r#"{"hooks": {"Stop": [{"hooks": [{"command": "x", "timeout": "30s"}]}]}}"#),
        "invalid settings file FILE at hooks.Stop[0].hooks[0].timeout: the timeout must be a number of seconds, not \"30s\""
    );
}

#[test]
fn a_zero_timeout_is_refused() {
    assert_eq!(
        error_for(r#"{"hooks": {"Stop": [{"hooks": [{"command": "x", "timeout": 0}]}]}}"#),
        "invalid settings file FILE at hooks.Stop[0].hooks[0].timeout: the timeout must be a positive number of seconds, not 0"
    );
}

#[test]
fn an_invalid_matcher_regex_names_the_json_path() {
    assert_eq!(
        error_for(r#"{"hooks": {"PreToolUse": [{"matcher": "Edit(", "hooks": [{"command": "x"}]}]}}"#),
        "invalid settings file FILE at hooks.PreToolUse[0].matcher: invalid matcher regex \"Edit(\": regex parse error:\n    Edit(\n        ^\nerror: unclosed group"
    );
}

#[test]
fn a_bad_on_failure_names_the_json_path() {
    assert_eq!(
        error_for(r#"{"hooks": {"PreToolUse": [{"hooks": [{"command": "x", "onFailure": "ignore"}]}]}}"#),
        "invalid settings file FILE at hooks.PreToolUse[0].hooks[0].onFailure: onFailure must be \"block\" or \"continue\", not \"ignore\""
    );
}

#[test]
fn an_unknown_hook_type_is_refused() {
    assert_eq!(
        error_for(r#"{"hooks": {"Stop": [{"hooks": [{"type": "lambda", "command": "x"}]}]}}"#),
        "invalid settings file FILE at hooks.Stop[0].hooks[0].type: unknown hook type \"lambda\"; known types: command, http, prompt, agent, mcp_tool"
    );
}

#[test]
fn a_prompt_hook_without_its_prompt_names_the_json_path() {
    assert_eq!(
        error_for(r#"{"hooks": {"Stop": [{"hooks": [{"type": "prompt"}]}]}}"#),
        "invalid settings file FILE at hooks.Stop[0].hooks[0]: a hook needs a \"prompt\""
    );
}

#[test]
fn an_agent_hook_without_its_prompt_names_the_json_path() {
    assert_eq!(
        error_for(r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "agent"}]}]}}"#),
        "invalid settings file FILE at hooks.PreToolUse[0].hooks[0]: a hook needs a \"prompt\""
    );
}

#[test]
fn a_missing_command_line_settings_file_is_an_error() {
    let layout = layout();
    let missing = layout.workspace.join("nope.json");
    let error = Settings::load(
        &layout.sources(Some(missing.clone())),
        ProjectTrust::Trusted,
    )
    .unwrap_err();
    assert_eq!(
        error,
        SettingsError::Unreadable {
            file: missing,
            message: "No such file or directory (os error 2)".to_owned()
        }
    );
}

#[test]
fn max_turns_must_be_a_whole_number_from_one() {
    assert_eq!(
        (
            error_for(r#"{"maxTurns": 0}"#),
            error_for(r#"{"systemPrompt": 3}"#)
        ),
        (
            "invalid settings file FILE at maxTurns: maxTurns must be a whole number, 1 or more"
                .to_owned(),
            "invalid settings file FILE at systemPrompt: systemPrompt must be a string".to_owned()
        )
    );
}

#[test]
fn a_malformed_mcp_json_names_its_line_and_column_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(".mcp.json");
    std::fs::write(&file, "{\n  \"mcpServers\": {,}\n}").unwrap();
    let error = parse_project_file(&file).unwrap_err().to_string();
    assert_eq!(
        error.replace(&file.display().to_string(), "FILE"),
        "malformed settings file FILE at line 2, column 18: key must be a string"
    );
}
