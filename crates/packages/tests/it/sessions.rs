//! What a session joins from its enabled plugins (contract §20): their
//! commands under two names, their skills (a name two plugins share goes by
//! `plugin:name` for the second), their agents' folder first.

use crate::support::{enabled, Home};
use agenthub_settings::ProjectTrust;

#[test]
fn an_enabled_plugins_commands_answer_to_their_plugin_name_and_their_own() {
    let home = Home::new();
    home.install_guard();
    let (plugins, _) = enabled(&[("guard@team-tools", true)]);
    let sources = home.sources(ProjectTrust::Untrusted, &plugins);
    let (commands, errors) = sources.custom_commands();
    let expanded = |typed: &str| commands.expand(typed).map(|found| found.prompt.expanded);
    assert_eq!(
        (
            expanded("/guard:check src"),
            expanded("/check docs"),
            errors.len()
        ),
        (
            Some("Check src carefully.".to_owned()),
            Some("Check docs carefully.".to_owned()),
            0
        )
    );
}

#[test]
fn a_skill_name_two_plugins_share_is_called_by_plugin_and_name_for_the_second() {
    let home = Home::new();
    home.install_guard();
    home.write(
        "other/.claude-plugin/plugin.json",
        r#"{"name": "other", "version": "0.1.0"}"#,
    );
    home.write(
        "other/skills/tidy/SKILL.md",
        "---\nname: tidy\ndescription: Tidies differently\n---\nThe other way.\n",
    );
    let other = home.base.join("other");
    agenthub_packages::plugins::install_plugin(other.to_str().unwrap()).unwrap();
    let (plugins, _) = enabled(&[("guard@team-tools", true), ("other", true)]);
    let (skills, errors) = home.sources(ProjectTrust::Untrusted, &plugins).skills();
    let bodies: Vec<(String, String)> = skills
        .iter()
        .map(|skill| (skill.name.clone(), skill.body.clone()))
        .collect();
    assert_eq!(
        (bodies, errors.len()),
        (
            vec![
                ("other:tidy".to_owned(), "The other way.".to_owned()),
                ("tidy".to_owned(), "Sort the imports.".to_owned())
            ],
            0
        )
    );
}

#[test]
fn an_enabled_plugins_agents_folder_comes_before_the_users() {
    let home = Home::new();
    home.install_guard();
    let (plugins, _) = enabled(&[("guard@team-tools", true)]);
    let sources = home.sources(ProjectTrust::Untrusted, &plugins);
    let (definitions, warnings) = sources.agent_definitions();
    let reviewer = definitions
        .get("reviewer")
        .map(|found| found.source.clone());
    assert_eq!(
        (sources.agent_folders(), reviewer, warnings),
        (
            vec![
                home.installed_root("guard").join("agents"),
                home.base.join("home/.claude/agents"),
                home.base.join("home/.config/agenthub/agents"),
            ],
            Some(Some(
                home.installed_root("guard").join("agents/reviewer.md")
            )),
            vec![]
        )
    );
}

#[test]
fn a_plugin_without_a_manifest_joins_by_its_marketplace_entry_which_stands_in_for_one() {
    let home = Home::new();
    home.write(
        "market/.claude-plugin/marketplace.json",
        &serde_json::json!({"name": "team-tools", "owner": {"name": "t"},
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
    agenthub_packages::plugins::add_marketplace(market.to_str().unwrap()).unwrap();
    let installed = agenthub_packages::plugins::install_plugin("tidy-up@team-tools").unwrap();
    let (plugins, warnings) = enabled(&[("tidy-up@team-tools", true)]);
    let (commands, _) = home
        .sources(ProjectTrust::Untrusted, &plugins)
        .custom_commands();
    let expanded = |typed: &str| commands.expand(typed).map(|found| found.prompt.expanded);
    assert_eq!(
        (
            installed.version,
            warnings,
            expanded("/tidy-up:sweep src"),
            expanded("/tidy-up:polish docs")
        ),
        (
            Some("0.2.0".to_owned()),
            vec![],
            Some("Sweep src.".to_owned()),
            Some("Polish docs.".to_owned())
        )
    );
}
