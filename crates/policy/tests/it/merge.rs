//! How participants merge: hooks against rules and the boundary, the modes,
//! tool-name and sibling rules, and what an explanation lists.

use crate::support;

use agenthub_policy::PermissionMode::{self, AcceptEdits, BypassPermissions, DontAsk, Plan};
use agenthub_policy::Source::{
    self, Default as ToolDefault, Hook, Mode, ProtectedPath, ReadOnlyCommand, Rule,
    WorkspaceBoundary,
};
use agenthub_protocol::PermissionEffect;
use serde_json::{json, Value};
use std::os::unix::fs::symlink;
use support::*;

fn decide(
    battery: &Battery,
    mode: PermissionMode,
    extra: Value,
    tool: &str,
    input: Value,
    hook: Option<PermissionEffect>,
) -> (PermissionEffect, Source) {
    let engine = battery.engine_with(mode, extra);
    verdict(&battery.explain(&engine, tool, input, hook).decision)
}

fn write_input(path: &str) -> Value {
    json!({"file_path": path, "content": "x"})
}

#[test]
fn a_hooks_allow_answers_only_the_default_ask() {
    let battery = Battery::new();
    let default = PermissionMode::Default;
    let ask_src = json!({"ask": ["Edit(./src/**)"]});
    let deny_src = json!({"deny": ["Edit(./src/**)"]});
    let table = [
        (json!({}), "src/new.rs", (Allow, Hook)),
        (ask_src, "src/new.rs", (Ask, Rule)),
        (deny_src, "src/new.rs", (Deny, Rule)),
        (json!({}), "../outside.txt", (Deny, WorkspaceBoundary)),
        (json!({}), ".git/config", (Ask, ProtectedPath)),
    ];
    for (extra, path, expected) in table {
        assert_eq!(
            decide(
                &battery,
                default,
                extra,
                "Write",
                write_input(path),
                Some(Allow)
            ),
            expected,
            "{path}"
        );
    }
}

#[test]
fn a_hooks_deny_and_ask_win_over_allow_rules() {
    let battery = Battery::new();
    let read = json!({"file_path": "src/a.rs"});
    assert_eq!(
        decide(
            &battery,
            PermissionMode::Default,
            json!({}),
            "Read",
            read.clone(),
            Some(Deny)
        ),
        (Deny, Hook)
    );
    assert_eq!(
        decide(
            &battery,
            PermissionMode::Default,
            json!({}),
            "Read",
            read,
            Some(Ask)
        ),
        (Ask, Hook)
    );
}

#[test]
fn a_hooks_allow_answers_a_construct_no_rule_may_allow() {
    let battery = Battery::new();
    let input = json!({"command": "ls $(id)"});
    assert_eq!(
        decide(
            &battery,
            PermissionMode::Default,
            json!({}),
            "Bash",
            input,
            Some(Allow)
        ),
        (Allow, Hook)
    );
}

#[test]
fn modes_table() {
    let battery = Battery::new();
    let none = json!({});
    let table: Vec<(PermissionMode, &str, Value, (PermissionEffect, Source))> = vec![
        (Plan, "Write", write_input("src/x.rs"), (Deny, Mode)),
        (
            Plan,
            "Read",
            json!({"file_path": "src/a.rs"}),
            (Allow, Rule),
        ),
        (
            Plan,
            "Bash",
            json!({"command": "git status"}),
            (Allow, Rule),
        ),
        (
            Plan,
            "Bash",
            json!({"command": "git diff"}),
            (Allow, ReadOnlyCommand),
        ),
        (Plan, "Bash", json!({"command": "git push"}), (Deny, Mode)),
        (
            Plan,
            "Bash",
            json!({"command": "sort -o out x"}),
            (Deny, Mode),
        ),
        (AcceptEdits, "Write", write_input("src/x.rs"), (Allow, Mode)),
        (
            AcceptEdits,
            "Edit",
            json!({"file_path": "src/a.rs", "old_string": "a", "new_string": "b"}),
            (Allow, Mode),
        ),
        (
            AcceptEdits,
            "Bash",
            json!({"command": "npm install"}),
            (Ask, ToolDefault),
        ),
        (DontAsk, "Write", write_input("src/x.rs"), (Deny, Mode)),
        (
            DontAsk,
            "Bash",
            json!({"command": "git status"}),
            (Allow, Rule),
        ),
        (
            BypassPermissions,
            "Write",
            write_input("src/x.rs"),
            (Allow, Mode),
        ),
        (
            BypassPermissions,
            "Bash",
            json!({"command": "ls $(id)"}),
            (Allow, Mode),
        ),
        (
            BypassPermissions,
            "Bash",
            json!({"command": "git status && rm -rf x"}),
            (Deny, Rule),
        ),
        (
            BypassPermissions,
            "Write",
            write_input("../x"),
            (Deny, WorkspaceBoundary),
        ),
    ];
    for (mode, tool, input, expected) in table {
        assert_eq!(
            decide(&battery, mode, none.clone(), tool, input.clone(), None),
            expected,
            "{mode} {tool} {input}"
        );
    }
}

#[test]
fn bypass_mode_still_honours_explicit_ask_rules() {
    let battery = Battery::new();
    let extra = json!({"ask": ["Bash(git push:*)"]});
    let input = json!({"command": "git push origin main"});
    assert_eq!(
        decide(&battery, BypassPermissions, extra, "Bash", input, None),
        (Ask, Rule)
    );
}

#[test]
fn dont_ask_mode_says_what_would_have_asked() {
    let battery = Battery::new();
    let engine = battery.engine(DontAsk);
    let decision = battery
        .explain(&engine, "Write", write_input("src/x.rs"), None)
        .decision;
    assert_eq!(
        decision.reason,
        "dontAsk mode denies what would ask: Write asks by default"
    );
}

#[test]
fn tool_name_rules_cover_other_tools_and_mcp_servers() {
    let battery = Battery::new();
    let extra = json!({"deny": ["Echo", "mcp__files", "mcp__db__*"], "allow": ["mcp__web__fetch"]});
    let table = [
        ("Echo", (Deny, Rule)),
        ("mcp__db__query", (Deny, Rule)),
        ("mcp__dbx__query", (Ask, ToolDefault)),
        ("mcp__files__read", (Deny, Rule)),
        ("mcp__filesystem__read", (Ask, ToolDefault)),
        ("mcp__web__fetch", (Allow, Rule)),
        ("mcp__web__post", (Ask, ToolDefault)),
    ];
    for (tool, expected) in table {
        assert_eq!(
            decide(
                &battery,
                PermissionMode::Default,
                extra.clone(),
                tool,
                json!({}),
                None
            ),
            expected,
            "{tool}"
        );
    }
}

#[test]
fn edit_rules_cover_write_and_read_denies_cover_edits() {
    let battery = Battery::new();
    let extra = json!({"deny": ["Edit(./src/**)"]});
    assert_eq!(
        decide(
            &battery,
            PermissionMode::Default,
            extra,
            "Write",
            write_input("src/a.rs"),
            None
        ),
        (Deny, Rule)
    );
    let edit_env = json!({"file_path": ".env", "old_string": "1", "new_string": "2"});
    assert_eq!(
        decide(
            &battery,
            BypassPermissions,
            json!({}),
            "Edit",
            edit_env,
            None
        ),
        (Deny, Rule)
    );
    let grep_env = json!({"pattern": "SECRET", "path": ".env"});
    assert_eq!(
        decide(
            &battery,
            PermissionMode::Default,
            json!({}),
            "Grep",
            grep_env,
            None
        ),
        (Deny, Rule)
    );
}

#[test]
fn an_allow_rule_must_match_both_the_link_and_its_target() {
    let battery = Battery::new();
    std::fs::create_dir_all(battery.proj("pub")).unwrap();
    symlink(battery.proj("src/a.rs"), battery.proj("pub/link")).unwrap();
    let extra = json!({"allow": ["Edit(./pub/**)"]});
    assert_eq!(
        decide(
            &battery,
            PermissionMode::Default,
            extra.clone(),
            "Write",
            write_input("pub/new.rs"),
            None
        ),
        (Allow, Rule)
    );
    assert_eq!(
        decide(
            &battery,
            PermissionMode::Default,
            extra,
            "Write",
            write_input("pub/link"),
            None
        ),
        (Ask, ToolDefault)
    );
}

#[test]
fn an_explanation_lists_every_sub_command_and_participant() {
    let battery = Battery::new();
    let engine = battery.engine(PermissionMode::Default);
    let explanation = battery.explain(
        &engine,
        "Bash",
        json!({"command": "git status && rm -rf x"}),
        None,
    );
    let lines: Vec<(Source, Option<PermissionEffect>, Option<String>)> = explanation
        .verdicts
        .iter()
        .map(|verdict| (verdict.source, verdict.effect, verdict.subject.clone()))
        .collect();
    assert_eq!(
        lines,
        [
            (Rule, Some(Allow), Some("git status".to_owned())),
            (Rule, Some(Deny), Some("rm -rf x".to_owned())),
            (Hook, None, None),
            (Mode, None, None),
            (ToolDefault, Some(Ask), None),
        ]
    );
    assert_eq!(verdict(&explanation.decision), (Deny, Rule));
}

#[test]
fn files_a_search_finds_are_readable_unless_a_read_deny_or_ask_rule_covers_them() {
    let battery = Battery::new();
    let engine = battery.engine_with(
        PermissionMode::Default,
        json!({"ask": ["Read(./secrets/**)"]}),
    );
    let table = [
        ("src/a.rs", true),
        (".env", false),
        ("sub/.ENV", true),
        ("secrets/k.txt", false),
    ];
    for (path, expected) in table {
        assert_eq!(engine.read_allowed(&battery.proj(path)), expected, "{path}");
    }
}

#[test]
fn a_compound_command_allowed_by_rules_names_each_rule_once() {
    let battery = Battery::new();
    let extra = json!({"allow": ["Bash(cargo build:*)", "Bash(echo *)"]});
    let engine = battery.engine_with(PermissionMode::Default, extra);
    let input = json!({"command": "cargo build && echo built && cargo build --release"});
    let decision = battery.explain(&engine, "Bash", input, None).decision;
    let origin = path_text(&battery.proj(".agenthub/settings.json"));
    assert_eq!(
        (decision.effect, decision.source, decision.rule),
        (
            Allow,
            Rule,
            Some(format!(
                "Bash(cargo build:*) ({origin}), Bash(echo *) ({origin})"
            ))
        )
    );
}
