//! `dangerouslyDisableSandbox: true` (contract §15) takes a command out of the OS
//! sandbox, so it always asks a person: no allow rule, no mode (acceptEdits,
//! bypassPermissions) and no hook allow answers it. The read-deny paths a
//! sandbox masks come from the same rules the policy enforces.

use crate::support;

use agenthub_policy::{protected_paths, PermissionMode, Source};
use agenthub_protocol::PermissionEffect::{Allow, Ask};
use serde_json::json;
use support::*;

#[test]
fn leaving_the_sandbox_asks_in_every_mode_even_under_an_allow_rule_and_a_hook_allow() {
    let battery = Battery::new();
    let input = json!({"command": "git status", "dangerouslyDisableSandbox": true});
    let verdicts: Vec<_> = [
        PermissionMode::Default,
        PermissionMode::AcceptEdits,
        PermissionMode::BypassPermissions,
    ]
    .into_iter()
    .map(|mode| {
        let engine = battery.engine(mode);
        verdict(
            &battery
                .explain(&engine, "Bash", input.clone(), Some(Allow))
                .decision,
        )
    })
    .collect();
    assert_eq!(verdicts, vec![(Ask, Source::Sandbox); 3]);
}

#[test]
fn the_same_command_inside_the_sandbox_is_allowed_by_its_rule() {
    let battery = Battery::new();
    let input = json!({"command": "git status", "dangerouslyDisableSandbox": false});
    assert_eq!(
        verdict(&battery.decide("Bash", input)),
        (Allow, Source::Rule)
    );
}

#[test]
fn the_paths_read_deny_rules_name_are_what_a_sandbox_masks() {
    let battery = Battery::new();
    let engine = battery.engine(PermissionMode::Default);
    assert_eq!(
        engine.read_denied_paths(&[battery.proj("")]),
        vec![battery.proj(".env")]
    );
}

#[test]
fn protected_paths_are_named_at_the_top_of_each_root() {
    let battery = Battery::new();
    let protected = protected_paths(&[battery.proj("")]);
    assert!(
        [".mcp.json", ".bashrc", ".husky", ".github/workflows"]
            .iter()
            .all(|name| protected.contains(&battery.proj(name))),
        "{protected:?}"
    );
}

/// §29: the judged folders are not bound whole (git must write its index);
/// the sandbox finds their protected entries one by one.
#[test]
fn judged_folders_are_not_among_the_paths_bound_whole() {
    let battery = Battery::new();
    let protected = protected_paths(&[battery.proj("")]);
    assert_eq!(
        [".git", ".claude", ".agenthub"]
            .iter()
            .filter(|name| protected.contains(&battery.proj(name)))
            .count(),
        0
    );
}

#[test]
fn a_home_folder_rule_names_the_folder_and_a_glob_rule_names_each_file_it_matches() {
    let battery = Battery::new();
    std::fs::write(battery.proj("src/server.key"), "k").unwrap();
    let engine = battery.engine_with(
        PermissionMode::Default,
        json!({"deny": ["Read(~/.ssh/**)", "Read(*.key)"]}),
    );
    assert_eq!(
        engine.read_denied_paths(&[battery.proj("")]),
        vec![
            battery.home().join(".ssh"),
            battery.proj(".env"),
            battery.proj("src/server.key")
        ]
    );
}
