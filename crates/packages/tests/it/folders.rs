//! The one trust-gated folder walk (contract §20, §28): the user's folders
//! always, the workspace's only once it is trusted (until then they are
//! listed as set aside), Claude Code's folders only while its files are read.

use crate::support::Home;
use agenthub_settings::ProjectTrust;

/// A skill, a command and a subagent definition in the workspace.
fn planted(home: &Home) {
    home.write(
        "ws/.agenthub/skills/deploy/SKILL.md",
        "---\ndescription: Deploy the app\n---\nRun ./deploy.sh.\n",
    );
    home.write("ws/.claude/commands/greet.md", "Say hello.\n");
    home.write(
        "ws/.agenthub/agents/auditor.md",
        "---\nname: auditor\ndescription: Audits\n---\nAudit.\n",
    );
}

#[test]
fn the_users_folders_come_first_and_a_trusted_workspaces_after_them_cross_vendor_skills_first() {
    let home = Home::new();
    let sources = home.sources(ProjectTrust::Trusted, &[]);
    let base = &home.base;
    assert_eq!(
        (sources.skill_folders(), sources.command_folders()),
        (
            vec![
                base.join("home/.agents/skills"),
                base.join("home/.claude/skills"),
                base.join("home/.config/agenthub/skills"),
                base.join("ws/.agents/skills"),
                base.join("ws/.claude/skills"),
                base.join("ws/.agenthub/skills"),
            ],
            vec![
                base.join("home/.claude/commands"),
                base.join("home/.config/agenthub/commands"),
                base.join("ws/.claude/commands"),
                base.join("ws/.agenthub/commands"),
            ]
        )
    );
}

#[test]
fn without_claude_codes_files_its_folders_are_not_read() {
    let home = Home::new();
    let sources = agenthub_packages::Sources {
        claude_files: false,
        ..home.sources(ProjectTrust::Trusted, &[])
    };
    assert_eq!(
        sources.agent_folders(),
        vec![
            home.base.join("home/.config/agenthub/agents"),
            home.base.join("ws/.agenthub/agents"),
        ]
    );
}

#[test]
fn an_untrusted_workspaces_skills_commands_and_agents_are_set_aside_not_read() {
    let home = Home::new();
    planted(&home);
    let sources = home.sources(ProjectTrust::Untrusted, &[]);
    let set_aside: Vec<(String, std::path::PathBuf)> = sources
        .skills_set_aside()
        .into_iter()
        .chain(sources.commands_set_aside())
        .chain(sources.agents_set_aside())
        .map(|item| (item.item, item.file))
        .collect();
    assert_eq!(
        (
            sources.skills().0.is_empty(),
            sources.custom_commands().0.is_empty(),
            sources.agent_definitions().0.get("auditor").is_some(),
            set_aside
        ),
        (
            true,
            true,
            false,
            vec![
                (
                    "skill".to_owned(),
                    home.base.join("ws/.agenthub/skills/deploy/SKILL.md")
                ),
                (
                    "custom command".to_owned(),
                    home.base.join("ws/.claude/commands/greet.md")
                ),
                (
                    "subagent definition".to_owned(),
                    home.base.join("ws/.agenthub/agents/auditor.md")
                ),
            ]
        )
    );
}

#[test]
fn a_trusted_workspaces_skills_commands_and_agents_are_read_and_nothing_is_set_aside() {
    let home = Home::new();
    planted(&home);
    let sources = home.sources(ProjectTrust::Trusted, &[]);
    let set_aside = sources.skills_set_aside().len()
        + sources.commands_set_aside().len()
        + sources.agents_set_aside().len();
    assert_eq!(
        (
            sources.skills().0.names(),
            sources
                .custom_commands()
                .0
                .expand("/greet")
                .map(|found| found.prompt.expanded),
            sources.agent_definitions().0.get("auditor").is_some(),
            set_aside
        ),
        ("deploy".to_owned(), Some("Say hello.".to_owned()), true, 0)
    );
}
