//! Headless asks (contract §12): what the policy suggests to allow a call that
//! asked when nobody could answer, and that the suggestion really allows it.

use crate::support;

use agenthub_policy::{
    CallView, Decision, HowToAllow, PermissionMode, PermissionPolicy, PermissionRequest, Source,
};
use agenthub_protocol::ToolCall;
use agenthub_tools::{ToolEffect, ToolRegistry};
use serde_json::{json, Value};
use support::{declared, Allow, Ask, Battery};

fn suggestion(battery: &Battery, tool: &str, input: Value) -> (Decision, HowToAllow) {
    let engine = battery.engine(PermissionMode::Default);
    let decision = battery.explain(&engine, tool, input.clone(), None).decision;
    let capabilities = declared(tool);
    let call = CallView {
        tool,
        effect: ToolEffect::SideEffects,
        capabilities: &capabilities,
        input: &input,
    };
    let how = HowToAllow::for_ask(call, &decision);
    (decision, how)
}

fn rules(rules: &[&str]) -> HowToAllow {
    HowToAllow::Rules(rules.iter().map(|rule| (*rule).to_owned()).collect())
}

#[test]
fn a_shell_command_is_allowed_by_its_first_words_and_options_are_left_out() {
    let battery = Battery::new();
    let suggested: Vec<HowToAllow> = [
        "npm test",
        "cargo build --release",
        "make",
        "python3 -m pytest",
        "wget https://example.com/x.tar.gz",
        "less README.md",
        "timeout 5 npm test -- --watch=false",
        "cargo fmt && npm test && cargo fmt",
    ]
    .into_iter()
    .map(|command| suggestion(&battery, "Bash", json!({ "command": command })).1)
    .collect();
    assert_eq!(
        suggested,
        vec![
            rules(&["Bash(npm test:*)"]),
            rules(&["Bash(cargo build:*)"]),
            rules(&["Bash(make:*)"]),
            rules(&["Bash(python3:*)"]),
            rules(&["Bash(wget:*)"]),
            rules(&["Bash(less:*)"]),
            rules(&["Bash(npm test:*)"]),
            rules(&["Bash(cargo fmt:*)", "Bash(npm test:*)"]),
        ]
    );
}

#[test]
fn a_destructive_command_is_allowed_only_exactly_as_it_was_asked() {
    let battery = Battery::new();
    // (The battery denies `rm` outright, so rmdir and shred stand in for it.)
    let suggested: Vec<HowToAllow> = ["rmdir build", "chmod -R 777 .", "git status && shred x"]
        .into_iter()
        .map(|command| suggestion(&battery, "Bash", json!({ "command": command })).1)
        .collect();
    assert_eq!(
        suggested,
        vec![
            rules(&["Bash(rmdir build)"]),
            rules(&["Bash(chmod -R 777 .)"]),
            rules(&["Bash(git status:*)", "Bash(shred x)"]),
        ]
    );
}

#[test]
fn the_engine_leaves_out_the_commands_its_rules_already_allow() {
    let battery = Battery::new();
    let engine = battery.engine(PermissionMode::Default);
    let registry = ToolRegistry::with_builtins().unwrap();
    let call = registry
        .prepare(&ToolCall::new(
            "c1",
            "Bash",
            json!({"command": "git status && npm test"}).to_string(),
        ))
        .unwrap();
    let request = PermissionRequest {
        call: &call,
        suggestion: None,
        workspace: &battery.workspace,
    };
    let decision = engine.decide(&request).unwrap();
    assert_eq!(
        engine.how_to_allow(&call, &decision),
        rules(&["Bash(npm test:*)"])
    );
}

#[test]
fn the_suggested_rules_allow_the_very_command_that_asked() {
    let battery = Battery::new();
    for command in [
        "npm test",
        "cargo build --release",
        "make",
        "cargo fmt && npm test",
        "wget https://example.com/x.tar.gz",
        "rmdir build",
        "git status && chmod -R 777 .",
    ] {
        let input = json!({ "command": command });
        let (decision, how) = suggestion(&battery, "Bash", input.clone());
        let HowToAllow::Rules(allow) = how else {
            panic!("{command}: no rules suggested");
        };
        let engine = battery.engine_with(PermissionMode::Default, json!({ "allow": allow }));
        let after = battery.explain(&engine, "Bash", input, None).decision;
        assert_eq!(
            (command, decision.effect, after.effect),
            (command, Ask, Allow)
        );
    }
}

#[test]
fn a_file_write_is_allowed_by_accept_edits_and_the_mode_really_allows_it() {
    let battery = Battery::new();
    let input = json!({"file_path": "src/new.rs", "content": "x"});
    let (_, how) = suggestion(&battery, "Write", input.clone());
    let engine = battery.engine(PermissionMode::AcceptEdits);
    let after = battery.explain(&engine, "Write", input, None).decision;
    assert_eq!(
        (how, after.effect),
        (HowToAllow::Mode(PermissionMode::AcceptEdits), Allow)
    );
}

#[test]
fn a_fetch_is_allowed_by_a_rule_naming_its_host() {
    let battery = Battery::new();
    let (_, how) = suggestion(&battery, "WebFetch", json!({"url": "https://example.com"}));
    assert_eq!(how, rules(&["WebFetch(domain:example.com)"]));
}

#[test]
fn an_ask_that_no_flag_can_answer_says_only_a_person_can() {
    let battery = Battery::new();
    let asked_by_rule = Decision::new(Ask, Source::Rule, "ask rule");
    let capabilities = declared("Bash");
    let input = json!({"command": "npm test"});
    let call = CallView {
        tool: "Bash",
        effect: ToolEffect::SideEffects,
        capabilities: &capabilities,
        input: &input,
    };
    let (_, substitution) = suggestion(&battery, "Bash", json!({"command": "echo $(whoami)"}));
    let (_, protected) = suggestion(
        &battery,
        "Write",
        json!({"file_path": ".git/hooks/pre-commit", "content": "x"}),
    );
    assert_eq!(
        [
            HowToAllow::for_ask(call, &asked_by_rule),
            substitution,
            protected
        ],
        [
            HowToAllow::OnlyAPerson,
            HowToAllow::OnlyAPerson,
            HowToAllow::OnlyAPerson
        ]
    );
}
