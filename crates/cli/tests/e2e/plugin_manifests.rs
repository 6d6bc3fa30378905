//! Plugin manifests as Claude Code reads them, through the real binary
//! (contract §20): hooks and MCP servers written inline in `plugin.json`,
//! component paths that add to the default folders, a plugin without a
//! manifest whose marketplace entry stands in for one, and a plugin
//! command's fenced inline shell running the plugin's own script, which
//! gets `CLAUDE_PLUGIN_ROOT` and `CLAUDE_PLUGIN_DATA` as variables however
//! its folder is named (contract §28).

use crate::plugins::{bash_result, installed_root, market, plugin, sent_prompt};
use crate::support::home::Home;
use serde_json::json;

#[test]
fn a_manifests_inline_hooks_and_servers_and_its_listed_paths_all_join_the_session() {
    let home = Home::new();
    market(&home);
    let everything = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/npm/node_modules/.bin/mcp-server-everything");
    home.write(
        "market/plugins/guard/bin/server.sh",
        &format!("exec '{}' \"$@\"\n", everything.display()),
    );
    std::fs::remove_file(home.base.join("market/plugins/guard/hooks/hooks.json")).unwrap();
    home.write(
        "market/plugins/guard/.claude-plugin/plugin.json",
        &json!({"name": "guard",
            "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "sh \"${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh\""}]}]},
            "mcpServers": {"everything": {
                "command": "sh", "args": ["${CLAUDE_PLUGIN_ROOT}/bin/server.sh"]}},
            "commands": ["./extra/hello.md"],
            "agents": "./team"})
        .to_string(),
    );
    home.write(
        "market/plugins/guard/extra/hello.md",
        "Say hello to $ARGUMENTS.\n",
    );
    home.write(
        "market/plugins/guard/team/lead.md",
        "---\ndescription: Leads the team\n---\nLead.\n",
    );
    let market = home.base.join("market");
    plugin(&home, &["marketplace", "add", market.to_str().unwrap()]);
    let (code, shown, _) = plugin(&home, &["install", "guard@team-tools"]);
    let root = installed_root(&home);
    let data = home
        .base
        .join("home/.local/share/agenthub/plugin-data/guard");
    let shown: Vec<&str> = shown
        .lines()
        .filter(|line| line.starts_with("  ") && !line.starts_with("  folder:"))
        .collect();
    assert_eq!(
        (code, shown),
        (
            Some(0),
            vec![
                "  PreToolUse hook (matcher Bash): sh \"${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh\"",
                format!(
                    "  MCP server everything: {}",
                    json!({"args": [format!("{}/bin/server.sh", root.display())], "command": "sh",
                        "env": {"CLAUDE_PLUGIN_DATA": data.display().to_string(),
                            "CLAUDE_PLUGIN_ROOT": root.display().to_string()}})
                )
                .as_str(),
                "  subagent lead: Leads the team",
                "  subagent reviewer: Reviews a diff",
                "  command /guard:check",
                "  command /guard:hello",
                "  skill tidy",
            ]
        )
    );
    let answer = json!({"turns": [{"content": "done"}]});
    let hello = home.run_json(answer, &[], "/hello Ada");
    let servers = home.agenthub().args(["mcp", "list"]).output().unwrap();
    let servers = String::from_utf8(servers.stdout).unwrap();
    assert_eq!(
        (
            bash_result(&home),
            sent_prompt(&home, &hello),
            servers.contains(&format!(
                "(plugin:guard {}/.claude-plugin/plugin.json)",
                root.display()
            ))
        ),
        (
            json!(format!(
                "Error [hook_blocked]: guard in {} said no",
                root.display()
            )),
            json!("Say hello to Ada."),
            true
        ),
        "{servers}"
    );
}

#[test]
fn a_plugin_without_a_manifest_installs_by_its_marketplace_entry_which_stands_in_for_one() {
    let home = Home::new();
    home.write(
        "market/.claude-plugin/marketplace.json",
        &json!({"name": "team-tools", "owner": {"name": "t"},
                "plugins": [{"name": "tidy-up", "source": "./plugins/tidy", "strict": false,
                             "version": "0.2.0", "commands": ["./extra/polish.md"]}]})
        .to_string(),
    );
    home.write(
        "market/plugins/tidy/commands/sweep.md",
        "Sweep $ARGUMENTS.\n",
    );
    home.write(
        "market/plugins/tidy/extra/polish.md",
        "Polish $ARGUMENTS.\n",
    );
    let market = home.base.join("market");
    plugin(&home, &["marketplace", "add", market.to_str().unwrap()]);
    let (code, shown, _) = plugin(&home, &["install", "tidy-up@team-tools"]);
    let sent = home.run_json(
        json!({"turns": [{"content": "done"}]}),
        &[],
        "/tidy-up:sweep src",
    );
    let shown: Vec<&str> = shown
        .lines()
        .filter(|line| !line.starts_with("  folder:"))
        .map(|line| line.split(" (sha256").next().unwrap())
        .collect();
    assert_eq!(
        (code, shown, sent_prompt(&home, &sent)),
        (
            Some(0),
            vec![
                "installed tidy-up@team-tools 0.2.0",
                "  command /tidy-up:polish",
                "  command /tidy-up:sweep",
                format!(
                    "enabled: tidy-up@team-tools (in {})",
                    home.base
                        .join("home/.config/agenthub/settings.json")
                        .display()
                )
                .as_str()
            ],
            json!("Sweep src.")
        )
    );
}

#[test]
fn a_plugin_commands_fenced_shell_runs_its_own_script_by_its_root_as_its_allowed_tools_allow() {
    let home = Home::new();
    market(&home);
    std::fs::remove_file(home.base.join("market/plugins/guard/hooks/hooks.json")).unwrap();
    home.write(
        "market/plugins/guard/commands/setup.md",
        "---\nallowed-tools: [\"Bash(${CLAUDE_PLUGIN_ROOT}/scripts/hello.sh:*)\"]\n---\nSetup:\n\n```!\n\"${CLAUDE_PLUGIN_ROOT}/scripts/hello.sh\" $ARGUMENTS\n```\n",
    );
    home.write(
        "market/plugins/guard/scripts/hello.sh",
        "#!/bin/sh\necho \"hello $1\"\n",
    );
    std::fs::set_permissions(
        home.base.join("market/plugins/guard/scripts/hello.sh"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let market = home.base.join("market");
    plugin(&home, &["marketplace", "add", market.to_str().unwrap()]);
    plugin(&home, &["install", "guard@team-tools"]);
    let report = home.run_json(json!({"turns": [{"content": "done"}]}), &[], "/setup Ada");
    assert_eq!(
        (sent_prompt(&home, &report), &report["permission_denials"]),
        (json!("Setup:\n\nhello Ada"), &json!([]))
    );
}

#[test]
fn a_plugin_folder_named_like_shell_text_reaches_inline_shell_as_variables_never_as_commands() {
    let home = Home::new();
    market(&home);
    std::fs::remove_file(home.base.join("market/plugins/guard/hooks/hooks.json")).unwrap();
    home.write(
        "market/plugins/guard/commands/where.md",
        "Where:\n\n```!\nsh \"${CLAUDE_PLUGIN_ROOT}/scripts/where.sh\"\n```\n",
    );
    home.write(
        "market/plugins/guard/scripts/where.sh",
        "echo \"root=$CLAUDE_PLUGIN_ROOT\"\necho \"data=$CLAUDE_PLUGIN_DATA\"\n",
    );
    let data = home.base.join("data \"; touch pwned; \" '; touch pwned; '");
    let agenthub = || {
        let mut command = home.agenthub();
        command.env("XDG_DATA_HOME", &data);
        command
    };
    let market = home.base.join("market");
    for args in [
        vec!["plugin", "marketplace", "add", market.to_str().unwrap()],
        vec!["plugin", "install", "guard@team-tools"],
    ] {
        agenthub().args(&args).assert().success();
    }
    let script = home.base.join("script.json");
    std::fs::write(&script, json!({"turns": [{"content": "done"}]}).to_string()).unwrap();
    let output = agenthub()
        .args(["run", "--output-format", "json", "--script"])
        .arg(&script)
        .args(["--permission-mode", "bypassPermissions", "/where"])
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|_| panic!("no report: {}", String::from_utf8_lossy(&output.stderr)));
    let root = data.join("agenthub/plugins/guard");
    let plugin_data = data.join("agenthub/plugin-data/guard");
    assert_eq!(
        (
            sent_prompt(&home, &report),
            home.ws().join("pwned").exists(),
            plugin_data.is_dir()
        ),
        (
            json!(format!(
                "Where:\n\nroot={}\ndata={}",
                root.display(),
                plugin_data.display()
            )),
            false,
            true
        )
    );
}
