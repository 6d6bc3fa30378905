//! Issue 10 item 4 (contract §11, battery rows 9, 29, 30): a protected path is
//! written whether Write/Edit or a Bash command writes it. Every writing
//! command the shell analysis knows, aimed at each protected file, asks
//! under acceptEdits even though a rule allows the command; a write outside
//! the workspace is denied; bypassPermissions writes without asking.

use crate::support;

use agenthub_policy::PermissionMode::{self, AcceptEdits, BypassPermissions, DontAsk};
use agenthub_policy::Source::{Mode, ProtectedPath, Rule, ShellAnalysis, WorkspaceBoundary};
use agenthub_protocol::PermissionEffect;
use serde_json::json;
use support::*;

/// Rules allowing every writing command, so only the write itself can ask.
const WRITERS: [&str; 11] = [
    "Bash(cp:*)",
    "Bash(mv:*)",
    "Bash(tee:*)",
    "Bash(ln:*)",
    "Bash(dd:*)",
    "Bash(touch:*)",
    "Bash(install:*)",
    "Bash(sed:*)",
    "Bash(git config:*)",
    "Bash(echo:*)",
    "Bash(cat:*)",
];

/// Each writing command, with `{}` where the written path goes.
const COMMANDS: [&str; 11] = [
    "cp evil.json {}",
    "mv evil.json {}",
    "echo x | tee -a {}",
    "ln -s /tmp/evil {}",
    "dd if=evil.json of={}",
    "touch {}",
    "install -D -m 644 evil.json {}",
    "sed -i.bak s/a/b/ {}",
    "git config --file {} core.fsmonitor x",
    "cat evil.json > {}",
    "sudo cp evil.json {}",
];

const PROTECTED: [&str; 5] = [
    ".agenthub/settings.local.json",
    ".git/config",
    ".git/hooks/pre-commit",
    ".mcp.json",
    ".claude/settings.json",
];

type Expected = (PermissionEffect, agenthub_policy::Source);

fn decide(battery: &Battery, mode: PermissionMode, command: &str) -> agenthub_policy::Decision {
    let engine = battery.engine_with(mode, json!({ "allow": WRITERS }));
    battery
        .explain(&engine, "Bash", json!({ "command": command }), None)
        .decision
}

fn check(mode: PermissionMode, rows: &[(&str, Expected)]) {
    let battery = Battery::new();
    for (command, expected) in rows {
        let decision = decide(&battery, mode, command);
        assert_eq!(
            verdict(&decision),
            *expected,
            "{mode} {command:?}: {}",
            decision.reason
        );
    }
}

#[test]
fn every_writing_command_asks_before_writing_a_protected_file_under_accept_edits() {
    let battery = Battery::new();
    for command in COMMANDS {
        for path in PROTECTED {
            let line = command.replace("{}", path);
            let decision = decide(&battery, AcceptEdits, &line);
            assert_eq!(
                verdict(&decision),
                (Ask, ProtectedPath),
                "{line:?}: {}",
                decision.reason
            );
        }
    }
}

#[test]
fn every_writing_command_is_denied_writing_the_home_bashrc_outside_the_workspace() {
    let battery = Battery::new();
    for command in COMMANDS {
        let line = command.replace("{}", "~/.bashrc");
        let decision = decide(&battery, AcceptEdits, &line);
        assert_eq!(
            verdict(&decision),
            (Deny, WorkspaceBoundary),
            "{line:?}: {}",
            decision.reason
        );
    }
}

#[test]
fn the_issue_cp_names_the_protected_path_and_the_rule_does_not_help() {
    let battery = Battery::new();
    let decision = decide(
        &battery,
        AcceptEdits,
        "cp evil.json .agenthub/settings.local.json",
    );
    let shown = battery.proj(".agenthub/settings.local.json");
    assert_eq!(
        (decision.effect, decision.source, decision.reason),
        (
            Ask,
            ProtectedPath,
            format!(
                "`cp evil.json .agenthub/settings.local.json` writes {}, a protected path (.agenthub): \
                 writing it needs approval in every mode but bypassPermissions",
                shown.display()
            )
        )
    );
}

#[test]
fn git_config_writes_the_repository_configuration_and_reads_write_nothing() {
    check(
        AcceptEdits,
        &[
            ("git config core.fsmonitor x", (Ask, ProtectedPath)),
            ("git config --unset core.hooksPath", (Ask, ProtectedPath)),
            ("git -C . config alias.x '!sh'", (Ask, ProtectedPath)),
            (
                "git config --global core.pager x",
                (Deny, WorkspaceBoundary),
            ),
            ("git config --get core.fsmonitor", (Allow, Rule)),
            ("git config user.name", (Allow, Rule)),
        ],
    );
}

#[test]
fn a_destination_directory_that_is_protected_or_receives_a_protected_name_asks() {
    check(
        AcceptEdits,
        &[
            ("cp settings.local.json .agenthub", (Ask, ProtectedPath)),
            ("cp -t .git/hooks pre-commit", (Ask, ProtectedPath)),
            (
                "mv --target-directory=.claude settings.json",
                (Ask, ProtectedPath),
            ),
            ("cp evil/.envrc src/", (Ask, ProtectedPath)),
            ("cp -T evil/.envrc src/x", (Allow, Rule)),
            ("mv .git/hooks/pre-commit old", (Ask, ProtectedPath)),
            ("cp evil.json ~", (Deny, WorkspaceBoundary)),
            ("cp a.txt ../x", (Deny, WorkspaceBoundary)),
            ("tee /dev/null", (Allow, Rule)),
            ("cp a.txt b.txt", (Allow, Rule)),
        ],
    );
}

#[test]
fn a_target_that_cannot_be_checked_asks() {
    check(
        AcceptEdits,
        &[
            ("cp evil.json \"$D\"", (Ask, ShellAnalysis)),
            ("dd if=evil.json of=$OUT", (Ask, ShellAnalysis)),
            (
                "cp evil.json .agenthu?/settings.local.json",
                (Ask, ShellAnalysis),
            ),
            ("cp evil.json .*/x", (Ask, ShellAnalysis)),
            ("cp evil.json ~root/.bashrc", (Ask, ShellAnalysis)),
            ("cp *.rs build/", (Allow, Rule)),
        ],
    );
}

#[test]
fn a_glob_that_may_be_protected_is_not_answered_by_a_hook_allow() {
    let battery = Battery::new();
    let engine = battery.engine_with(AcceptEdits, json!({ "allow": WRITERS }));
    let input = json!({"command": "cp evil.json .agenthu?/settings.local.json"});
    let decision = battery
        .explain(&engine, "Bash", input, Some(Allow))
        .decision;
    assert_eq!(
        verdict(&decision),
        (Ask, ShellAnalysis),
        "{}",
        decision.reason
    );
}

#[test]
fn dont_ask_denies_and_bypass_writes_protected_files_from_bash() {
    let line = "cp evil.json .agenthub/settings.local.json";
    check(DontAsk, &[(line, (Deny, Mode))]);
    check(BypassPermissions, &[(line, (Allow, Rule))]);
    check(
        BypassPermissions,
        &[
            ("cp evil.json ~/.bashrc", (Deny, WorkspaceBoundary)),
            ("cp evil.json .*/x", (Ask, ShellAnalysis)),
        ],
    );
}

#[test]
fn edit_rules_cover_what_a_command_writes() {
    let battery = Battery::new();
    let engine = battery.engine_with(
        AcceptEdits,
        json!({ "allow": WRITERS, "deny": ["Edit(./docs/**)"], "ask": ["Write(./notes/*)"] }),
    );
    for (command, expected) in [
        ("cp a.txt docs/x", (Deny, Rule)),
        ("touch notes/today", (Ask, Rule)),
        ("cp a.txt src/x", (Allow, Rule)),
    ] {
        let decision = battery
            .explain(&engine, "Bash", json!({ "command": command }), None)
            .decision;
        assert_eq!(
            verdict(&decision),
            expected,
            "{command}: {}",
            decision.reason
        );
    }
}
