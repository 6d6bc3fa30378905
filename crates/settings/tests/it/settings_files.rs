//! Settings files as a user writes them: layers merged in order, hooks with
//! their defaults and identities, Claude Code files as they are.

use crate::support;

use agenthub_settings::*;
use serde_json::json;
use std::time::Duration;
use support::*;

#[test]
fn no_files_at_all_is_an_empty_configuration() {
    let layout = layout();
    let settings = layout.load().unwrap();
    assert_eq!((settings.hooks.len(), settings.files.len()), (0, 0));
}

#[test]
fn hooks_are_appended_in_layer_order_user_project_local_command_line() {
    let layout = layout();
    write(&layout.user, &hook_file("", "user.sh"));
    write(&layout.project(), &hook_file("", "project.sh"));
    write(&layout.local(), &hook_file("", "local.sh"));
    let extra = layout.workspace.join("extra.json");
    write(&extra, &hook_file("", "extra.sh"));
    let settings = Settings::load(&layout.sources(Some(extra)), ProjectTrust::Trusted).unwrap();
    let commands: Vec<String> = settings
        .hooks
        .iter()
        .map(|hook| hook.command.clone())
        .collect();
    assert_eq!(
        commands,
        vec!["user.sh", "project.sh", "local.sh", "extra.sh"]
    );
}

#[test]
fn the_same_hook_in_two_files_is_kept_once_from_the_first_file() {
    let layout = layout();
    write(&layout.user, &hook_file("*", "guard.sh"));
    write(&layout.project(), &hook_file("", "guard.sh"));
    let settings = layout.load().unwrap();
    assert_eq!(
        summary(&settings),
        vec![(
            "PreToolUse".to_owned(),
            "*".to_owned(),
            "guard.sh".to_owned(),
            "settings.json".to_owned()
        )]
    );
    assert_eq!(settings.hooks[0].source, layout.user);
}

#[test]
fn the_same_command_under_another_matcher_is_a_different_hook() {
    let layout = layout();
    write(&layout.user, &hook_file("Bash", "guard.sh"));
    write(&layout.project(), &hook_file("Write", "guard.sh"));
    assert_eq!(layout.load().unwrap().hooks.len(), 2);
}

#[test]
fn scalar_keys_are_taken_from_the_last_layer_that_sets_them() {
    let layout = layout();
    write(
        &layout.user,
        r#"{"model": "a", "provider": "openai", "maxStopContinuations": 3}"#,
    );
    write(&layout.project(), r#"{"model": "b"}"#);
    write(&layout.local(), r#"{"baseUrl": "http://localhost:1"}"#);
    let settings = layout.load().unwrap();
    assert_eq!(
        (
            settings.model.as_deref(),
            settings.provider.as_deref(),
            settings.base_url.as_deref(),
            settings.max_stop_continuations
        ),
        (
            Some("b"),
            Some("openai"),
            Some("http://localhost:1"),
            Some(3)
        )
    );
}

#[test]
fn a_projects_disable_all_hooks_switches_off_only_the_projects_own_hooks() {
    let layout = layout();
    write(&layout.user, &hook_file("", "user.sh"));
    write(
        &layout.project(),
        &hook_file("", "project.sh").replace("{\"hooks\"", "{\"disableAllHooks\": true, \"hooks\""),
    );
    let settings = layout.load().unwrap();
    let commands: Vec<&str> = settings
        .hooks
        .iter()
        .map(|hook| hook.command.as_str())
        .collect();
    assert_eq!(
        (
            settings.disable_all_hooks,
            settings.project_hooks_disabled,
            commands
        ),
        (false, true, vec!["user.sh"])
    );
}

#[test]
fn a_trusted_projects_enabled_plugins_enable_but_never_switch_off_the_users_plugins() {
    let layout = layout();
    write(
        &layout.user,
        r#"{"enabledPlugins": {"guard@team": true, "lint@team": false}}"#,
    );
    write(
        &layout.project(),
        r#"{"enabledPlugins": {"guard@team": false, "lint@team": true, "fmt@team": true}}"#,
    );
    write(
        &layout.local(),
        r#"{"enabledPlugins": {"fmt@team": false}}"#,
    );
    let settings = layout.load().unwrap();
    let enabled: Vec<(&str, bool)> = settings
        .enabled_plugins
        .iter()
        .map(|(id, on)| (id.as_str(), *on))
        .collect();
    assert_eq!(
        (enabled, settings.warnings),
        (
            vec![
                ("fmt@team", false),
                ("guard@team", true),
                ("lint@team", true)
            ],
            vec![format!(
                "{}: enabledPlugins \"guard@team\": false is ignored: a project never switches \
                 off a plugin the user enabled",
                layout.project().display()
            )]
        )
    );
}

#[test]
fn a_users_disable_all_hooks_switches_off_every_hook_and_a_project_cannot_undo_it() {
    let layout = layout();
    write(&layout.user, r#"{"disableAllHooks": true}"#);
    write(
        &layout.project(),
        &hook_file("", "project.sh")
            .replace("{\"hooks\"", "{\"disableAllHooks\": false, \"hooks\""),
    );
    let settings = layout.load().unwrap();
    assert_eq!(
        (settings.disable_all_hooks, settings.hooks.len()),
        (true, 0)
    );
}

#[test]
fn permissions_sections_are_kept_raw_per_file_in_layer_order() {
    let layout = layout();
    write(&layout.user, r#"{"permissions": {"allow": ["Read"]}}"#);
    write(
        &layout.local(),
        r#"{"permissions": {"deny": ["Read(./.env)"]}}"#,
    );
    let settings = layout.load().unwrap();
    assert_eq!(
        settings.permissions,
        vec![
            (layout.user.clone(), json!({"allow": ["Read"]})),
            (layout.local(), json!({"deny": ["Read(./.env)"]})),
        ]
    );
}

#[test]
fn unknown_top_level_keys_are_warnings_naming_the_file() {
    let layout = layout();
    write(
        &layout.project(),
        r#"{"statusLine": {"type": "command"}, "$schema": "x"}"#,
    );
    let settings = layout.load().unwrap();
    assert_eq!(
        settings.warnings,
        vec![format!(
            "{}: unknown key \"statusLine\" ignored",
            layout.project().display()
        )]
    );
}

#[test]
fn a_hook_gets_its_defaults_timeout_600_and_continue_off_the_gates() {
    let layout = layout();
    write(
        &layout.project(),
        r#"{"hooks": {"PostToolUse": [{"hooks": [{"type": "command", "command": "log.sh"}]}],
                      "Stop": [{"hooks": [{"type": "command", "command": "check.sh"}]}]}}"#,
    );
    let settings = layout.load().unwrap();
    let seen: Vec<(HookEvent, Duration, FailurePolicy)> = settings
        .hooks
        .iter()
        .map(|hook| (hook.event, hook.timeout, hook.on_failure))
        .collect();
    assert_eq!(
        seen,
        vec![
            (
                HookEvent::PostToolUse,
                DEFAULT_TIMEOUT,
                FailurePolicy::Continue
            ),
            (HookEvent::Stop, DEFAULT_TIMEOUT, FailurePolicy::Continue),
        ]
    );
}

#[test]
fn timeout_is_in_seconds_and_on_failure_overrides_the_default() {
    let layout = layout();
    write(
        &layout.project(),
        r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "g.sh", "timeout": 1.5, "onFailure": "continue"}]}]}}"#,
    );
    let hook = layout.load().unwrap().hooks.remove(0);
    assert_eq!(
        (hook.timeout, hook.on_failure),
        (Duration::from_millis(1500), FailurePolicy::Continue)
    );
}

#[test]
fn index_counts_hooks_of_one_event_across_matcher_groups_with_their_json_path() {
    let layout = layout();
    write(
        &layout.project(),
        r#"{"hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"command": "a.sh"}, {"command": "b.sh"}]},
            {"matcher": "Read", "hooks": [{"command": "c.sh"}]}]}}"#,
    );
    let places: Vec<(usize, String)> = layout
        .load()
        .unwrap()
        .hooks
        .iter()
        .map(|hook| (hook.index, hook.json_path.clone()))
        .collect();
    assert_eq!(
        places,
        vec![
            (0, "hooks.PreToolUse[0].hooks[0]".to_owned()),
            (1, "hooks.PreToolUse[0].hooks[1]".to_owned()),
            (2, "hooks.PreToolUse[1].hooks[0]".to_owned()),
        ]
    );
}

#[test]
fn exec_form_keeps_args_as_separate_argv_entries() {
    let layout = layout();
    write(
        &layout.project(),
        r#"{"hooks": {"Stop": [{"hooks": [{"command": "python3", "args": ["${CLAUDE_PROJECT_DIR}/check.py", "--strict"]}]}]}}"#,
    );
    let hook = layout.load().unwrap().hooks.remove(0);
    assert_eq!(
        hook.args,
        Some(vec![
            "${CLAUDE_PROJECT_DIR}/check.py".to_owned(),
            "--strict".to_owned()
        ])
    );
}

#[test]
fn claude_code_only_events_are_ignored_with_a_warning() {
    let layout = layout();
    write(
        &layout.project(),
        r#"{"hooks": {"TaskCreated": [{"hooks": [{"type": "command", "command": "notify-send hi"}]}]}}"#,
    );
    let settings = layout.load().unwrap();
    assert_eq!(
        (settings.hooks.len(), settings.warnings),
        (
            0,
            vec![format!(
                "{}: hooks.TaskCreated: AgentHub never fires TaskCreated; these hooks are ignored",
                layout.project().display()
            )]
        )
    );
}

#[test]
fn a_claude_code_settings_file_loads_as_it_is_with_its_env() {
    let layout = layout();
    let claude = layout.workspace.join(".claude/settings.json");
    std::fs::create_dir_all(claude.parent().unwrap()).unwrap();
    write(
        &claude,
        r#"{
          "$schema": "https://json.schemastore.org/claude-code-settings.json",
          "permissions": {"allow": ["Bash(npm run lint)"], "deny": ["Read(./.env)"]},
          "env": {"FOO": "1"},
          "hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [
              {"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh", "timeout": 30, "statusMessage": "Checking"}]}],
            "PostToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "npx prettier --write"}]}]
          }
        }"#,
    );
    let settings =
        Settings::load(&layout.sources(Some(claude.clone())), ProjectTrust::Trusted).unwrap();
    assert_eq!(
        (
            summary(&settings),
            settings.warnings,
            settings.env.get("FOO").cloned()
        ),
        (
            vec![
                (
                    "PreToolUse".to_owned(),
                    "Bash".to_owned(),
                    "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh".to_owned(),
                    "settings.json".to_owned()
                ),
                (
                    "PostToolUse".to_owned(),
                    "Edit|Write".to_owned(),
                    "npx prettier --write".to_owned(),
                    "settings.json".to_owned()
                ),
            ],
            Vec::<String>::new(),
            Some("1".to_owned())
        )
    );
}

#[test]
fn an_if_condition_is_kept_with_its_hook() {
    let layout = layout();
    write(
        &layout.project(),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"command": "g.sh", "if": "Bash(git *)"}]}]}}"#,
    );
    let hook = layout.load().unwrap().hooks.remove(0);
    assert_eq!(hook.condition.as_deref(), Some("Bash(git *)"));
}

#[test]
fn the_same_command_under_another_if_condition_is_a_different_hook() {
    let layout = layout();
    write(
        &layout.user,
        r#"{"hooks": {"PreToolUse": [{"hooks": [{"command": "g.sh", "if": "Bash(git *)"}]}]}}"#,
    );
    write(&layout.project(), &hook_file("", "g.sh"));
    assert_eq!(layout.load().unwrap().hooks.len(), 2);
}

#[test]
fn system_prompt_keys_and_max_turns_are_taken_from_the_last_layer_that_sets_them() {
    let layout = layout();
    write(
        &layout.user,
        r#"{"systemPrompt": "user", "appendSystemPrompt": "be brief", "maxTurns": 40}"#,
    );
    write(&layout.project(), r#"{"systemPrompt": "project"}"#);
    write(&layout.local(), r#"{"maxTurns": 200}"#);
    let settings = layout.load().unwrap();
    assert_eq!(
        (
            settings.system_prompt.as_deref(),
            settings.append_system_prompt.as_deref(),
            settings.max_turns
        ),
        (Some("project"), Some("be brief"), Some(200))
    );
}
