//! Claude Code plugins through the real binary (contract §20): a marketplace
//! in a folder or a git repository, `plugin install` that shows and pins what
//! the plugin runs and enables it, its hooks running with
//! `CLAUDE_PLUGIN_ROOT`, its agents joining the session, and a plugin that is
//! disabled or removed running nothing. The store, the hash pin and what a
//! session joins are the library's (`crates/packages/tests/it`).

use crate::support::home::Home;
use serde_json::{json, Value};

/// A marketplace `team-tools` at `<tmp>/market` with one plugin, `guard`,
/// whose PreToolUse hook blocks Bash naming its plugin root, and whose
/// `agents/reviewer.md` has no front matter name.
pub(crate) fn market(home: &Home) {
    home.write(
        "market/.claude-plugin/marketplace.json",
        &json!({"name": "team-tools", "owner": {"name": "t"},
                "plugins": [{"name": "guard", "source": "./plugins/guard"}]})
        .to_string(),
    );
    home.write(
        "market/plugins/guard/.claude-plugin/plugin.json",
        r#"{"name": "guard", "version": "1.0.0", "description": "Blocks Bash"}"#,
    );
    home.write(
        "market/plugins/guard/hooks/hooks.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "sh \"${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh\""}]}]}})
        .to_string(),
    );
    home.write(
        "market/plugins/guard/hooks/guard.sh",
        "echo \"guard in $CLAUDE_PLUGIN_ROOT said no\" >&2\nexit 2\n",
    );
    home.write(
        "market/plugins/guard/agents/reviewer.md",
        "---\ndescription: Reviews a diff\n---\nReview.\n",
    );
    home.write(
        "market/plugins/guard/commands/check.md",
        "---\ndescription: Check a path\n---\nCheck $ARGUMENTS carefully.\n",
    );
    home.write(
        "market/plugins/guard/skills/tidy/SKILL.md",
        "---\nname: tidy\ndescription: Tidies imports\n---\nSort the imports.\n",
    );
}

pub(crate) fn plugin(home: &Home, args: &[&str]) -> (Option<i32>, String, String) {
    let output = home.agenthub().arg("plugin").args(args).output().unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

pub(crate) fn installed_root(home: &Home) -> std::path::PathBuf {
    home.base.join("home/.local/share/agenthub/plugins/guard")
}

/// A run whose model calls `echo hi` with Bash and answers with the result.
pub(crate) fn bash_result(home: &Home) -> Value {
    let script = json!({"turns": [
        {"tool_calls": [{"id": "b1", "name": "Bash", "arguments": {"command": "echo hi"}}]},
        {"content": "{{last_tool_result}}"}
    ]});
    home.run_json(script, &["--permission-mode", "bypassPermissions"], "go")["result"].clone()
}

fn install_from_market(home: &Home) {
    market(home);
    let market = home.base.join("market");
    plugin(home, &["marketplace", "add", market.to_str().unwrap()]);
    plugin(home, &["install", "guard@team-tools"]);
}

#[test]
fn install_shows_what_the_plugin_runs_pins_it_and_enables_it() {
    let home = Home::new();
    market(&home);
    let market = home.base.join("market");
    let added = plugin(&home, &["marketplace", "add", market.to_str().unwrap()]);
    let (code, shown, _) = plugin(&home, &["install", "guard@team-tools"]);
    let settings: Value = serde_json::from_str(
        &std::fs::read_to_string(home.base.join("home/.config/agenthub/settings.json")).unwrap(),
    )
    .unwrap();
    let root = installed_root(&home);
    let lines: Vec<&str> = shown
        .lines()
        .filter(|line| !line.starts_with("installed "))
        .collect();
    assert_eq!(
        (added.0, code, lines, settings),
        (
            Some(0),
            Some(0),
            vec![
                format!("  folder: {}", root.display()).as_str(),
                "  PreToolUse hook (matcher Bash): sh \"${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh\"",
                "  subagent reviewer: Reviews a diff",
                "  command /guard:check",
                "  skill tidy",
                format!(
                    "enabled: guard@team-tools (in {})",
                    home.base
                        .join("home/.config/agenthub/settings.json")
                        .display()
                )
                .as_str(),
            ],
            json!({"enabledPlugins": {"guard@team-tools": true}})
        )
    );
}

#[test]
fn an_enabled_plugins_hook_runs_with_its_root_and_hooks_list_names_the_plugin() {
    let home = Home::new();
    install_from_market(&home);
    let listed = home.agenthub().args(["hooks", "list"]).output().unwrap();
    let listed = String::from_utf8(listed.stdout).unwrap();
    let root = installed_root(&home);
    assert_eq!(
        (
            bash_result(&home),
            listed.contains(&format!(
                "  source:    plugin:guard {}/hooks/hooks.json",
                root.display()
            ))
        ),
        (
            json!(format!(
                "Error [hook_blocked]: guard in {} said no",
                root.display()
            )),
            true
        )
    );
}

#[test]
fn an_enabled_plugins_agents_join_the_session() {
    let home = Home::new();
    install_from_market(&home);
    let listed = home.agenthub().args(["agents", "list"]).output().unwrap();
    let listed = String::from_utf8(listed.stdout).unwrap();
    assert!(
        listed.contains(&format!(
            "reviewer  Reviews a diff\n  tools: all but Task\n  model: inherit\n  file: plugin:guard {}/agents/reviewer.md\n",
            installed_root(&home).display()
        )),
        "{listed}"
    );
}

/// The user prompt a run sent, from its transcript.
pub(crate) fn sent_prompt(home: &Home, report: &Value) -> Value {
    let id = report["session_id"].as_str().unwrap();
    home.records(id)
        .into_iter()
        .find(|record| record["type"] == "user")
        .and_then(|record| record["message"]["content"].as_str().map(str::to_owned))
        .map_or(Value::Null, |sent| {
            Value::from(agenthub::typed_prompt(&sent))
        })
}

#[test]
fn an_enabled_plugins_skills_are_offered_by_the_skill_tool() {
    let home = Home::new();
    install_from_market(&home);
    let script = json!({"turns": [
        {"tool_calls": [{"id": "s1", "name": "Skill", "arguments": {"skill": "tidy"}}]},
        {"content": "{{last_tool_result}}"}
    ]});
    let report = home.run_json(script, &[], "go");
    let result = report["result"].as_str().unwrap_or_default().to_owned();
    assert!(result.contains("Sort the imports."), "{result}");
}

#[test]
fn a_disabled_plugin_runs_nothing_until_enabled_again() {
    let home = Home::new();
    install_from_market(&home);
    let disabled = plugin(&home, &["disable", "guard"]);
    let while_disabled = bash_result(&home);
    plugin(&home, &["enable", "guard@team-tools"]);
    let listed = plugin(&home, &["list"]);
    assert_eq!(
        (
            disabled.0,
            while_disabled,
            listed.1.lines().next().map(str::to_owned)
        ),
        (
            Some(0),
            json!("[exit code: 0]\nhi"),
            Some("guard@team-tools  enabled  version 1.0.0".to_owned())
        )
    );
}

#[test]
fn remove_takes_the_plugin_folder_and_its_enabled_entry_away() {
    let home = Home::new();
    install_from_market(&home);
    let removed = plugin(&home, &["remove", "guard"]);
    let settings: Value = serde_json::from_str(
        &std::fs::read_to_string(home.base.join("home/.config/agenthub/settings.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        (
            removed.1,
            installed_root(&home).exists(),
            settings,
            plugin(&home, &["list"]).1
        ),
        (
            "removed guard@team-tools\n".to_owned(),
            false,
            json!({"enabledPlugins": {}}),
            "no plugins installed\n".to_owned()
        )
    );
}

/// Makes `folder` a git repository with everything in one commit.
fn commit_all(folder: &std::path::Path) {
    for args in [
        vec!["init", "-q", "-b", "main"],
        vec!["add", "-A"],
        vec![
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-q",
            "-m",
            "market",
        ],
    ] {
        let status = std::process::Command::new("git")
            .args(&args)
            .current_dir(folder)
            .status()
            .unwrap();
        assert!(status.success(), "git {args:?}");
    }
}

#[test]
fn a_lone_plugin_installs_from_a_git_url_and_is_enabled_by_its_name() {
    let home = Home::new();
    market(&home);
    let guard = home.base.join("market/plugins/guard");
    commit_all(&guard);
    let url = format!("file://{}", guard.display());
    let installed = plugin(&home, &["install", &url]);
    let settings: Value = serde_json::from_str(
        &std::fs::read_to_string(home.base.join("home/.config/agenthub/settings.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        (installed.0, settings, bash_result(&home)),
        (
            Some(0),
            json!({"enabledPlugins": {"guard": true}}),
            json!(format!(
                "Error [hook_blocked]: guard in {} said no",
                installed_root(&home).display()
            ))
        )
    );
}

#[test]
fn a_marketplace_in_a_git_repository_installs_its_plugin() {
    let home = Home::new();
    market(&home);
    let market = home.base.join("market");
    commit_all(&market);
    let url = format!("file://{}", market.display());
    let added = plugin(&home, &["marketplace", "add", &url]);
    let installed = plugin(&home, &["install", "guard@team-tools"]);
    assert_eq!(
        (added.0, added.1, installed.0, bash_result(&home)),
        (
            Some(0),
            format!("added marketplace team-tools from {url}\n"),
            Some(0),
            json!(format!(
                "Error [hook_blocked]: guard in {} said no",
                installed_root(&home).display()
            ))
        )
    );
}

#[test]
fn a_projects_enabled_plugins_wait_until_the_workspace_is_trusted() {
    let home = Home::new();
    install_from_market(&home);
    plugin(&home, &["disable", "guard"]);
    home.write(
        "ws/.claude/settings.json",
        r#"{"enabledPlugins": {"guard@team-tools": true}}"#,
    );
    let untrusted = bash_result(&home);
    let script = json!({"turns": [
        {"tool_calls": [{"id": "b1", "name": "Bash", "arguments": {"command": "echo hi"}}]},
        {"content": "{{last_tool_result}}"}
    ]});
    let trusted = home.run_json(
        script,
        &["--permission-mode", "bypassPermissions", "--trust-project"],
        "go",
    );
    assert_eq!(
        (untrusted, trusted["result"].clone()),
        (
            json!("[exit code: 0]\nhi"),
            json!(format!(
                "Error [hook_blocked]: guard in {} said no",
                installed_root(&home).display()
            ))
        )
    );
}

#[test]
fn an_enabled_plugins_mcp_server_starts_from_its_root_and_mcp_list_names_the_plugin() {
    let home = Home::new();
    market(&home);
    let everything = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/npm/node_modules/.bin/mcp-server-everything");
    assert!(
        everything.exists(),
        "{} is missing: run the tests with `scripts/test`",
        everything.display()
    );
    home.write(
        "market/plugins/guard/bin/server.sh",
        &format!("exec '{}' \"$@\"\n", everything.display()),
    );
    home.write(
        "market/plugins/guard/.mcp.json",
        &json!({"mcpServers": {"everything": {
            "command": "sh", "args": ["${CLAUDE_PLUGIN_ROOT}/bin/server.sh"]}}})
        .to_string(),
    );
    let market = home.base.join("market");
    plugin(&home, &["marketplace", "add", market.to_str().unwrap()]);
    plugin(&home, &["install", "guard@team-tools"]);
    let output = home.agenthub().args(["mcp", "list"]).output().unwrap();
    let listed = String::from_utf8(output.stdout).unwrap();
    let root = installed_root(&home);
    assert!(
        listed.starts_with("everything: running, ")
            && listed.contains(&format!(
                "— sh {}/bin/server.sh (plugin:guard {}/.mcp.json)\n",
                root.display(),
                root.display()
            )),
        "{listed}"
    );
}
