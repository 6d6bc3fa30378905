//! Tools the policy has never heard of are governed by what they declare:
//! a `Copy` tool that reads `from` and writes `to` by `Read(…)` and
//! `Edit(…)` rules and the workspace boundary, a `Shell` tool whose `script`
//! is a shell command by `Bash(…)` rules — exactly as the built-in tools that
//! declare the same.

use crate::support;

use agenthub_policy::Source::{Default, Mode, Rule, WorkspaceBoundary};
use agenthub_policy::{CallView, Decision, PermissionMode, PolicyEngine, PolicyError};
use agenthub_tools::{PathField, ToolCapabilities, ToolEffect};
use serde_json::{json, Value};
use support::*;

fn copy() -> ToolCapabilities {
    ToolCapabilities::none()
        .reading(PathField::required("from"))
        .writing(PathField::required("to"))
}

fn shell() -> ToolCapabilities {
    ToolCapabilities::none().running("script")
}

fn decide(
    battery: &Battery,
    engine: &PolicyEngine,
    tool: &str,
    capabilities: &ToolCapabilities,
    input: Value,
) -> Result<Decision, PolicyError> {
    let call = CallView {
        tool,
        effect: ToolEffect::SideEffects,
        capabilities,
        input: &input,
    };
    engine
        .explain(call, None, &battery.workspace)
        .map(|explanation| explanation.decision)
}

fn copy_verdict(battery: &Battery, engine: &PolicyEngine, from: &str, to: &str) -> Verdict {
    let input = json!({"from": from, "to": to});
    verdict(&decide(battery, engine, "Copy", &copy(), input).unwrap())
}

type Verdict = (agenthub_protocol::PermissionEffect, agenthub_policy::Source);

#[test]
fn a_copy_from_a_path_a_read_rule_denies_is_denied() {
    let battery = Battery::new();
    let engine = battery.engine(PermissionMode::Default);
    assert_eq!(
        copy_verdict(&battery, &engine, ".env", "notes.md"),
        (Deny, Rule)
    );
}

#[test]
fn a_copy_onto_a_path_an_edit_rule_denies_is_denied() {
    let battery = Battery::new();
    let engine = battery.engine_with(PermissionMode::Default, json!({"deny": ["Edit(src/**)"]}));
    assert_eq!(
        copy_verdict(&battery, &engine, "notes.md", "src/b.rs"),
        (Deny, Rule)
    );
}

#[test]
fn a_copy_onto_a_path_a_read_deny_rule_covers_is_denied() {
    let battery = Battery::new();
    let engine = battery.engine(PermissionMode::Default);
    assert_eq!(
        copy_verdict(&battery, &engine, "src/a.rs", ".env"),
        (Deny, Rule)
    );
}

#[test]
fn a_copy_out_of_the_workspace_is_denied_by_the_boundary() {
    let battery = Battery::new();
    let engine = battery.engine(PermissionMode::Default);
    assert_eq!(
        copy_verdict(&battery, &engine, "src/a.rs", "../outside/y"),
        (Deny, WorkspaceBoundary)
    );
}

#[test]
fn a_rule_allowing_only_the_read_does_not_allow_the_copy() {
    let battery = Battery::new();
    let read_allowed = battery.engine(PermissionMode::Default);
    let both_allowed = battery.engine_with(
        PermissionMode::Default,
        json!({"allow": ["Edit(notes.md)"]}),
    );
    assert_eq!(
        (
            copy_verdict(&battery, &read_allowed, "src/a.rs", "notes.md"),
            copy_verdict(&battery, &both_allowed, "src/a.rs", "notes.md")
        ),
        ((Ask, Default), (Allow, Rule))
    );
}

#[test]
fn accept_edits_allows_a_tool_that_writes_paths_inside_the_workspace() {
    let battery = Battery::new();
    let engine = battery.engine(PermissionMode::AcceptEdits);
    assert_eq!(
        copy_verdict(&battery, &engine, "src/a.rs", "notes.md"),
        (Allow, Mode)
    );
}

#[test]
fn a_copy_with_a_path_that_is_not_a_string_cannot_be_evaluated() {
    let battery = Battery::new();
    let engine = battery.engine(PermissionMode::Default);
    let input = json!({"from": 3, "to": "notes.md"});
    assert_eq!(
        decide(&battery, &engine, "Copy", &copy(), input).map(|decision| verdict(&decision)),
        Err(PolicyError::Evaluation(
            "Copy input field from is not a string: 3".to_owned()
        ))
    );
}

#[test]
fn bash_rules_govern_every_tool_that_declares_a_shell_command() {
    let battery = Battery::new();
    let engine = battery.engine(PermissionMode::Default);
    let run = |script: &str| {
        let input = json!({ "script": script });
        verdict(&decide(&battery, &engine, "Shell", &shell(), input).unwrap())
    };
    assert_eq!(
        [
            run("rm -rf x"),
            run("git status"),
            run("cat .env"),
            run("make")
        ],
        [(Deny, Rule), (Allow, Rule), (Deny, Rule), (Ask, Default)]
    );
}

#[test]
fn a_shell_tool_without_its_command_cannot_be_evaluated() {
    let battery = Battery::new();
    let engine = battery.engine(PermissionMode::Default);
    assert_eq!(
        decide(&battery, &engine, "Shell", &shell(), json!({})).map(|decision| verdict(&decision)),
        Err(PolicyError::Evaluation(
            "Shell input has no script string to check".to_owned()
        ))
    );
}

#[test]
fn a_write_rule_speaks_about_every_tool_that_writes_paths_edit_included() {
    let battery = Battery::new();
    let engine = battery.engine_with(PermissionMode::Default, json!({"deny": ["Write(src/**)"]}));
    let input = json!({"file_path": "src/a.rs", "old_string": "main", "new_string": "run"});
    let decision = battery.explain(&engine, "Edit", input, None).decision;
    assert_eq!(verdict(&decision), (Deny, Rule));
}

#[test]
fn a_tool_that_delegates_is_allowed_by_default_and_in_plan_mode_and_never_called_read_only() {
    let battery = Battery::new();
    let capabilities = ToolCapabilities::none().starting_subagent("subagent_type");
    let input = json!({"description": "d", "prompt": "p", "subagent_type": "general-purpose"});
    let decided: Vec<(
        agenthub_protocol::PermissionEffect,
        agenthub_policy::Source,
        String,
    )> = [PermissionMode::Default, PermissionMode::Plan]
        .into_iter()
        .map(|mode| {
            let call = CallView {
                tool: "Task",
                effect: ToolEffect::Delegates,
                capabilities: &capabilities,
                input: &input,
            };
            let decision = battery
                .engine(mode)
                .explain(call, None, &battery.workspace)
                .unwrap()
                .decision;
            (decision.effect, decision.source, decision.reason)
        })
        .collect();
    let reason = "Task hands work to a subagent whose every call is decided on its own; allowed \
                  by default";
    assert_eq!(
        decided,
        vec![
            (Allow, Default, reason.to_owned()),
            (Allow, Default, reason.to_owned())
        ]
    );
}
