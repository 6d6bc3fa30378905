//! Agent Skills through the real binary (contract §20): skill folders in a
//! temporary HOME and workspace, the first message's `<system-reminder>` listing each skill by
//! name and description, the `Skill` tool returning a body and its folder,
//! `Skill(name)` rules, a skill's `allowed-tools` once it is loaded, a
//! workspace's skills only once it is trusted (set
//! aside and shown by `trust --show` before), and a skill that cannot be
//! read skipped with a warning.

use crate::support::home::Home;
use serde_json::{json, Value};
use std::path::PathBuf;

/// What the model reads when it calls Skill in a session without skills.
const NO_SKILL_TOOL: &str =
    "Error [unknown_tool]: the tool was not run: no tool is named \"Skill\"; \
     available tools: Read, Write, Edit, Bash, Glob, Grep, TodoWrite, WebFetch, Echo, Task";

/// A script that loads `skill` with the Skill tool and answers with the result.
fn load(skill: &str) -> Value {
    json!({"turns": [
        {"tool_calls": [{"id": "s1", "name": "Skill", "arguments": {"skill": skill}}]},
        {"content": "{{last_tool_result}}"}
    ]})
}

/// Writes `<folder>/<name>/SKILL.md` (folder relative to the case) and
/// returns the skill's folder.
fn skill(home: &Home, folder: &str, name: &str, text: &str) -> PathBuf {
    home.write(&format!("{folder}/{name}/SKILL.md"), text);
    home.base.join(folder).join(name)
}

/// The workspace context the run sent, from its transcript: the text of
/// the first user message's `<system-reminder>` block (contract §33).
fn workspace_context(home: &Home, report: &Value) -> String {
    let id = report["session_id"].as_str().unwrap();
    let content = crate::support::history::first_user_content(&home.records(id)).unwrap();
    let inside = content.strip_prefix("<system-reminder>\n").unwrap();
    inside
        .split("\n</system-reminder>")
        .next()
        .unwrap()
        .to_owned()
}

#[test]
fn the_system_prompt_lists_each_skill_and_the_skill_tool_returns_its_body_and_folder() {
    let home = Home::new();
    let pdf = skill(
        &home,
        "home/.claude/skills",
        "pdf",
        "---\nname: pdf\ndescription: Fill PDF forms\n---\nRun scripts/fill.py on the form.\n",
    );
    skill(
        &home,
        "home/.config/agenthub/skills",
        "release",
        "---\ndescription: Cut a release\n---\nTag, then push.\n",
    );
    let report = home.run_json(load("pdf"), &[], "fill the form");
    assert_eq!(
        report["result"],
        json!(format!(
            "Base directory for this skill: {}\n\nRun scripts/fill.py on the form.",
            pdf.display()
        ))
    );
    let prompt = workspace_context(&home, &report);
    assert!(
        prompt.ends_with(
            "# Skills\n\nThese skills hold instructions for particular tasks. When a task \
             matches a skill's description, call the Skill tool with {\"skill\": NAME} first \
             and follow what it returns.\n\n- pdf: Fill PDF forms\n- release: Cut a release"
        ),
        "{prompt}"
    );
}

#[test]
fn without_a_skill_there_is_no_skill_tool_and_no_skills_section() {
    let home = Home::new();
    let report = home.run_json(load("pdf"), &[], "go");
    assert_eq!(report["result"], NO_SKILL_TOOL);
    assert!(!workspace_context(&home, &report).contains("# Skills"));
}

#[test]
fn a_skill_rule_denies_that_skill_and_leaves_the_others_allowed() {
    let home = Home::new();
    home.settings(json!({"permissions": {"deny": ["Skill(secret)"]}}));
    skill(
        &home,
        "home/.claude/skills",
        "secret",
        "---\ndescription: Secret\n---\nS.\n",
    );
    let open = skill(
        &home,
        "home/.claude/skills",
        "open",
        "---\ndescription: Open\n---\nO.\n",
    );
    let denied = home.run_json(load("secret"), &[], "go");
    let allowed = home.run_json(load("open"), &[], "go");
    assert_eq!(
        (denied["result"].clone(), allowed["result"].clone()),
        (
            json!(format!(
                "Error [permission_denied]: the tool was not run: permission denied: \
                 Skill(secret) matches deny rule Skill(secret) ({})",
                home.base
                    .join("home/.config/agenthub/settings.json")
                    .display()
            )),
            json!(format!(
                "Base directory for this skill: {}\n\nO.",
                open.display()
            ))
        )
    );
}

#[test]
fn an_untrusted_workspaces_skills_are_set_aside_and_load_once_it_is_trusted() {
    let home = Home::new();
    let deploy = skill(
        &home,
        "ws/.agenthub/skills",
        "deploy",
        "---\ndescription: Deploy the app\n---\nRun ./deploy.sh.\n",
    );
    let path = home.base.join("script.json");
    std::fs::write(&path, load("deploy").to_string()).unwrap();
    let untrusted = home
        .agenthub()
        .args(["run", "--output-format", "json", "--script"])
        .arg(&path)
        .arg("go")
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&untrusted.stdout).unwrap();
    let warning = String::from_utf8(untrusted.stderr).unwrap();
    assert_eq!(report["result"], NO_SKILL_TOOL);
    assert!(
        warning.contains("- skill (.agenthub/skills/deploy/SKILL.md)"),
        "{warning}"
    );

    let trusted = home.run_json(load("deploy"), &["--trust-project"], "go");
    assert_eq!(
        trusted["result"],
        json!(format!(
            "Base directory for this skill: {}\n\nRun ./deploy.sh.",
            deploy.display()
        ))
    );
}

#[test]
fn trust_show_lists_a_projects_skills_with_their_allowed_tools() {
    let home = Home::new();
    skill(
        &home,
        "ws/.claude/skills",
        "lint",
        "---\nname: lint\ndescription: Lint the code\nallowed-tools: Bash(cargo clippy *), Read\n---\nRun clippy.\n",
    );
    let output = home.agenthub().args(["trust", "--show"]).output().unwrap();
    let shown = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<String> = shown
        .lines()
        .map(|line| match line.split_once(" (sha256 ") {
            Some((name, _)) => name.to_owned(),
            None => line.to_owned(),
        })
        .collect();
    assert_eq!(
        (output.status.code(), lines),
        (
            Some(0),
            vec![
                format!("workspace: {}", home.ws().display()),
                ".claude/skills/lint/SKILL.md".to_owned(),
                "  acts once trusted:".to_owned(),
                "    skill lint: Lint the code (allowed-tools: Bash(cargo clippy *), Read)"
                    .to_owned(),
                "status: not trusted".to_owned(),
            ]
        )
    );
}

#[test]
fn a_skill_that_cannot_be_read_is_skipped_with_a_warning_naming_file_and_line() {
    let home = Home::new();
    skill(
        &home,
        "home/.claude/skills",
        "broken",
        "---\nname: broken\n",
    );
    let good = skill(
        &home,
        "home/.claude/skills",
        "good",
        "---\ndescription: Good\n---\nG.\n",
    );
    let path = home.base.join("script.json");
    std::fs::write(&path, load("good").to_string()).unwrap();
    let output = home
        .agenthub()
        .args(["run", "--output-format", "json", "--script"])
        .arg(&path)
        .arg("go")
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        (
            report["result"].clone(),
            String::from_utf8(output.stderr).unwrap()
        ),
        (
            json!(format!(
                "Base directory for this skill: {}\n\nG.",
                good.display()
            )),
            format!(
                "agenthub: warning: skill skipped: {}:1: the front matter opened by '---' is \
                 never closed by a '---' line\n[Permission] Skill: allow (default) - Skill is \
                 read-only and allowed by default\n",
                home.base
                    .join("home/.claude/skills/broken/SKILL.md")
                    .display()
            )
        )
    );
}

#[test]
fn a_loaded_skills_allowed_tools_run_without_asking_and_not_before_it_is_loaded() {
    let home = Home::new();
    skill(
        &home,
        "home/.claude/skills",
        "greeter",
        "---\ndescription: Greets\nallowed-tools: Bash(printf hi)\n---\nRun printf hi.\n",
    );
    let bash = |id: &str| json!({"tool_calls": [{"id": id, "name": "Bash", "arguments": {"command": "printf hi"}}]});
    let script = json!({"turns": [
        bash("before"),
        {"tool_calls": [{"id": "s1", "name": "Skill", "arguments": {"skill": "greeter"}}]},
        bash("after"),
        {"content": "{{last_tool_result}}"}
    ]});
    let report = home.run_json(script, &[], "greet");
    let denied: Vec<Value> = report["permission_denials"]
        .as_array()
        .unwrap()
        .iter()
        .map(|denial| denial["tool_use_id"].clone())
        .collect();
    assert_eq!(
        (report["result"].clone(), denied),
        (json!("[exit code: 0]\nhi"), vec![json!("before")])
    );
}

#[test]
fn a_skills_allowed_tools_never_override_a_deny_rule() {
    let home = Home::new();
    home.settings(json!({"permissions": {"deny": ["Bash(echo hi)"]}}));
    skill(
        &home,
        "home/.claude/skills",
        "greeter",
        "---\ndescription: Greets\nallowed-tools: Bash(echo hi)\n---\nRun echo hi.\n",
    );
    let script = json!({"turns": [
        {"tool_calls": [{"id": "s1", "name": "Skill", "arguments": {"skill": "greeter"}}]},
        {"tool_calls": [{"id": "b1", "name": "Bash", "arguments": {"command": "echo hi"}}]},
        {"content": "{{last_tool_result}}"}
    ]});
    let report = home.run_json(script, &[], "greet");
    assert_eq!(
        report["result"],
        json!(format!(
            "Error [permission_denied]: the tool was not run: permission denied: `echo hi` \
             matches deny rule Bash(echo hi) ({})",
            home.base
                .join("home/.config/agenthub/settings.json")
                .display()
        ))
    );
}

#[test]
fn the_cross_vendor_agents_skills_folders_of_the_user_and_a_trusted_project_are_listed_and_load() {
    let home = Home::new();
    let user = skill(
        &home,
        "home/.agents/skills",
        "triage",
        "---\ndescription: Triage an issue\n---\nLabel it.\n",
    );
    let project = skill(
        &home,
        "ws/.agents/skills",
        "ship",
        "---\ndescription: Ship a build\n---\nRun ./ship.sh.\n",
    );
    let user_run = home.run_json(load("triage"), &["--trust-project"], "go");
    let project_run = home.run_json(load("ship"), &["--trust-project"], "go");
    assert_eq!(
        (
            user_run["result"].clone(),
            project_run["result"].clone(),
            workspace_context(&home, &project_run)
                .ends_with("- ship: Ship a build\n- triage: Triage an issue")
        ),
        (
            json!(format!(
                "Base directory for this skill: {}\n\nLabel it.",
                user.display()
            )),
            json!(format!(
                "Base directory for this skill: {}\n\nRun ./ship.sh.",
                project.display()
            )),
            true
        )
    );
}

#[test]
fn an_untrusted_projects_agents_skills_are_set_aside_and_named_in_the_warning() {
    let home = Home::new();
    skill(
        &home,
        "ws/.agents/skills",
        "ship",
        "---\ndescription: Ship a build\n---\nRun ./ship.sh.\n",
    );
    let path = home.base.join("script.json");
    std::fs::write(&path, load("ship").to_string()).unwrap();
    let untrusted = home
        .agenthub()
        .args(["run", "--output-format", "json", "--script"])
        .arg(&path)
        .arg("go")
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&untrusted.stdout).unwrap();
    let warning = String::from_utf8(untrusted.stderr).unwrap();
    assert_eq!(
        (
            report["result"].clone(),
            warning.contains("- skill (.agents/skills/ship/SKILL.md)")
        ),
        (json!(NO_SKILL_TOOL), true),
        "{warning}"
    );
}

#[test]
fn a_claude_skill_wins_a_name_clash_with_an_agents_skill_of_the_same_level() {
    let home = Home::new();
    skill(
        &home,
        "home/.agents/skills",
        "lint",
        "---\ndescription: Cross-vendor lint\n---\nA.\n",
    );
    let claude = skill(
        &home,
        "home/.claude/skills",
        "lint",
        "---\ndescription: Claude lint\n---\nC.\n",
    );
    let report = home.run_json(load("lint"), &[], "go");
    assert_eq!(
        report["result"],
        json!(format!(
            "Base directory for this skill: {}\n\nC.",
            claude.display()
        ))
    );
}
