//! Issue 13: Claude Code's own settings files are read (trust-gated),
//! `--settings` repeats, `--no-claude-settings` skips them, and `env` sets
//! variables for hooks and Bash.

use super::support::*;
use serde_json::json;

fn claude_project(case: &Case, hooks: &[(&str, Option<&str>, serde_json::Value)]) {
    case.write(".claude/settings.json", &settings_with(hooks).to_string());
}

#[test]
fn a_hook_in_dot_claude_settings_json_runs_without_flags() {
    let case = Case::new();
    let mark = case.hook("mark.sh", "touch .agenthub/ran");
    claude_project(&case, &[("Stop", None, command(&mark))]);
    case.answer_script(&["done"]);
    case.report();
    assert!(case.workspace.join(".agenthub/ran").exists());
}

#[test]
fn no_claude_settings_skips_the_dot_claude_files() {
    let case = Case::new();
    let mark = case.hook("mark.sh", "touch .agenthub/ran");
    claude_project(&case, &[("Stop", None, command(&mark))]);
    case.answer_script(&["done"]);
    case.run().arg("--no-claude-settings").output().unwrap();
    assert!(!case.workspace.join(".agenthub/ran").exists());
}

#[test]
fn hooks_list_names_the_dot_claude_file_and_says_it_waits_for_trust() {
    let case = Case::new();
    claude_project(
        &case,
        &[("PreToolUse", Some("Bash"), command("./guard.sh"))],
    );
    let output = agenthub(&case).arg("hooks").arg("list").output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(
        (
            stdout.contains(&case.path(".claude/settings.json")),
            stdout.contains("./guard.sh"),
            stdout.contains("waiting for trust")
        ),
        (true, true, true)
    );
}

#[test]
fn settings_may_be_given_twice_and_both_files_hooks_run() {
    let case = Case::new();
    let first = case.hook("first.sh", "echo first >> .agenthub/order");
    let second = case.hook("second.sh", "echo second >> .agenthub/order");
    let a = case.outside("a.json");
    let b = case.outside("b.json");
    std::fs::write(
        &a,
        settings_with(&[("Stop", None, command(&first))]).to_string(),
    )
    .unwrap();
    std::fs::write(
        &b,
        settings_with(&[("Stop", None, command(&second))]).to_string(),
    )
    .unwrap();
    case.answer_script(&["done"]);
    case.run()
        .arg("--settings")
        .arg(&a)
        .arg("--settings")
        .arg(&b)
        .output()
        .unwrap();
    assert_eq!(case.read(".agenthub/order"), "first\nsecond\n");
}

#[test]
fn the_env_key_reaches_hooks_and_bash() {
    let case = Case::new();
    let save = case.hook(
        "save.sh",
        "echo \"hook sees $DEPLOY_TARGET\" > .agenthub/hook-env",
    );
    let mut settings = settings_with(&[("Stop", None, command(&save))]);
    settings["env"] = json!({"DEPLOY_TARGET": "staging"});
    case.project_settings(settings);
    case.script(json!([
        {"content": "running", "tool_calls": [call("call_1", "Bash", json!({"command": "echo bash sees $DEPLOY_TARGET"}))]},
        {"content": "done"}
    ]));
    case.run().arg("--allow").arg("Bash").output().unwrap();
    assert_eq!(
        (case.read(".agenthub/hook-env"), case.messages()[2].clone()),
        (
            "hook sees staging\n".to_owned(),
            tool("call_1", "[exit code: 0]\nbash sees staging")
        )
    );
}

#[test]
fn a_settings_file_with_http_and_prompt_hooks_is_valid() {
    let case = Case::new();
    case.hooks(&[
        (
            "PostToolUse",
            None,
            json!({"type": "http", "url": "http://127.0.0.1:9/hook", "headers": {"Authorization": "Bearer $TOKEN"}, "allowedEnvVars": ["TOKEN"]}),
        ),
        ("Stop", None, json!({"type": "prompt", "prompt": "Is the task done? $ARGUMENTS"})),
    ]);
    case.script(json!([{"content": "done"}]));
    std::fs::write(
        case.outside("script.json"),
        json!({"turns": [{"content": "done"}], "hook_answers": ["{\"ok\": true}"]}).to_string(),
    )
    .unwrap();
    let (report, code) = case.report();
    assert_eq!((report["result"].clone(), code), (json!("done"), 0));
}
