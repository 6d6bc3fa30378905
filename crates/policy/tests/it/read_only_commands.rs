//! Contract §29, "Read-only commands run unasked": a Bash command all of
//! whose parts are on the built-in read-only list, reading only inside the
//! workspace, is allowed with source `read-only command` — in every mode but
//! where something stricter speaks: deny and ask rules, a hook, the `Read`
//! rules on what it reads, the sandbox's ask.

use crate::support;

use agenthub_policy::PermissionMode::{
    self, AcceptEdits, BypassPermissions, Default as DefaultMode, DontAsk, Plan,
};
use agenthub_policy::Source::{Default, Hook, Mode, ReadOnlyCommand, Rule, Sandbox, ShellAnalysis};
use agenthub_protocol::PermissionEffect;
use serde_json::{json, Value};
use support::*;

type Expected = (PermissionEffect, agenthub_policy::Source);

fn decide_with(battery: &Battery, mode: PermissionMode, extra: Value, input: Value) -> Expected {
    let engine = battery.engine_with(mode, extra);
    let decision = battery.explain(&engine, "Bash", input, None).decision;
    verdict(&decision)
}

fn check(rows: &[(&str, Expected)]) {
    let battery = Battery::new();
    for (command, expected) in rows {
        let decision = battery.bash(command);
        assert_eq!(
            verdict(&decision),
            *expected,
            "{command:?}: {}",
            decision.reason
        );
    }
}

const ALLOWED: (PermissionEffect, agenthub_policy::Source) = (Allow, ReadOnlyCommand);

#[test]
fn every_listed_command_reading_the_workspace_runs_unasked() {
    check(&[
        ("ls -la src", (Allow, Rule)),
        ("ls -la src | wc -l", ALLOWED),
        ("pwd", ALLOWED),
        ("cat src/a.rs", ALLOWED),
        ("head -n 3 src/a.rs", ALLOWED),
        ("tail -n 3 src/a.rs", ALLOWED),
        ("wc -l src/a.rs", ALLOWED),
        ("grep -rn main src", ALLOWED),
        ("rg -n main src", ALLOWED),
        ("find src -name '*.rs' -type f", ALLOWED),
        ("git status", (Allow, Rule)),
        ("git diff", ALLOWED),
        ("git diff HEAD~1 -- src", ALLOWED),
        ("git log --oneline -n 5", ALLOWED),
        ("git show HEAD", ALLOWED),
        ("git branch", ALLOWED),
        ("git branch -a", ALLOWED),
        ("git blame src/a.rs", ALLOWED),
        ("git rev-parse HEAD", ALLOWED),
        ("git ls-files src", ALLOWED),
        ("git remote -v", ALLOWED),
        ("echo hello", ALLOWED),
        ("which cargo", ALLOWED),
        ("file src/a.rs", ALLOWED),
        ("stat src/a.rs", ALLOWED),
        ("du -sh src", ALLOWED),
        ("df -h", ALLOWED),
        ("sort src/a.rs", ALLOWED),
        ("sort src/a.rs | uniq -c", ALLOWED),
        ("echo abc | tr a-z A-Z", ALLOWED),
        ("cut -d/ -f2 src/a.rs", ALLOWED),
        ("diff src/a.rs src/a.rs", ALLOWED),
        ("tree src", ALLOWED),
        ("git diff && git log --oneline; git status --short", ALLOWED),
        ("cat src/a.rs 2>/dev/null", ALLOWED),
        ("cat src/a.rs 2>&1 | head -n 1", ALLOWED),
        ("cat < src/a.rs", ALLOWED),
        ("LC_ALL=C sort src/a.rs", ALLOWED),
    ]);
}

#[test]
fn options_that_write_or_run_programs_are_asked() {
    check(&[
        ("sort -o out src/a.rs", (Ask, ShellAnalysis)),
        ("sort --output=out src/a.rs", (Ask, ShellAnalysis)),
        ("sort --compress-program=sh src/a.rs", (Ask, ShellAnalysis)),
        ("git diff --output=x", (Ask, ShellAnalysis)),
        ("git log --output=x", (Ask, ShellAnalysis)),
        ("git diff --ext-diff", (Ask, ShellAnalysis)),
        ("git show --textconv HEAD", (Ask, ShellAnalysis)),
        ("rg --pre ./x main", (Ask, ShellAnalysis)),
        ("find . -exec id \\;", (Ask, ShellAnalysis)),
        ("find . -delete", (Ask, ShellAnalysis)),
        ("find . -fprint out", (Ask, ShellAnalysis)),
        ("find . -fls out", (Ask, ShellAnalysis)),
        ("tree -o out src", (Ask, Default)),
        ("file -C -m magic", (Ask, Default)),
        ("uniq src/a.rs out", (Ask, Default)),
        ("git branch topic", (Ask, Default)),
        ("git branch -D topic", (Ask, Default)),
        ("git branch -m a b", (Ask, Default)),
        ("git branch --set-upstream-to=origin/main", (Ask, Default)),
        ("git remote add o x", (Ask, Default)),
        ("git -c core.pager=id log", (Ask, ShellAnalysis)),
        ("GIT_EXTERNAL_DIFF=id git diff", (Ask, ShellAnalysis)),
    ]);
}

#[test]
fn redirections_substitutions_and_unlisted_commands_are_asked() {
    check(&[
        ("cat src/a.rs > out", (Ask, ShellAnalysis)),
        ("cat src/a.rs >> out", (Ask, ShellAnalysis)),
        ("cat src/a.rs &> out", (Ask, ShellAnalysis)),
        ("cat src/a.rs 2> err", (Ask, ShellAnalysis)),
        ("cat src/a.rs | sh", (Ask, Default)),
        ("git diff | xargs -n1 echo", (Ask, Default)),
        ("cat $(echo src/a.rs)", (Ask, ShellAnalysis)),
        ("cat <(echo x)", (Ask, ShellAnalysis)),
        ("cat $HOME/x", (Ask, ShellAnalysis)),
        ("echo `id`", (Ask, ShellAnalysis)),
        ("cd src && cat a.rs", (Ask, ShellAnalysis)),
        ("bash -c 'cat src/a.rs'", (Ask, ShellAnalysis)),
        ("/bin/cat src/a.rs", (Ask, Default)),
        ("cat \"unterminated", (Ask, ShellAnalysis)),
    ]);
}

#[test]
fn paths_outside_the_workspace_are_asked() {
    check(&[
        ("cat /etc/passwd", (Ask, Default)),
        ("cat ../outside/x", (Ask, Default)),
        ("cat src/../../outside/x", (Ask, Default)),
        ("cat ~/.ssh/id_rsa", (Ask, Default)),
        ("grep -r key ../proj-secrets", (Ask, Default)),
        ("find / -name x", (Ask, Default)),
        ("du -sh .*", (Ask, Default)),
        ("cat /etc/*", (Ask, Default)),
        ("cat < /etc/passwd", (Ask, Default)),
        ("diff src/a.rs --to-file=/etc/passwd", (Ask, Default)),
        ("git diff --no-index src/a.rs /etc/passwd", (Ask, Default)),
    ]);
}

#[test]
fn an_additional_directory_is_read_like_the_workspace() {
    let battery = Battery::new();
    let outside = battery.base.join("outside");
    let extra = json!({ "additionalDirectories": [outside.display().to_string()] });
    let input = json!({ "command": format!("cat {}/x", outside.display()) });
    assert_eq!(
        decide_with(&battery, DefaultMode, extra, input.clone()),
        ALLOWED
    );
    assert_eq!(
        decide_with(&battery, DefaultMode, json!({}), input),
        (Ask, Default)
    );
}

#[test]
fn read_rules_keep_guarding_what_a_read_only_command_reads() {
    // The battery denies Read(./.env), and proj/.env exists.
    check(&[
        ("cat .env", (Deny, Rule)),
        ("head -n 1 ./src/../.env", (Deny, Rule)),
        ("cat < .env", (Deny, Rule)),
        ("grep -rn SECRET .", (Ask, Default)),
        ("cat .e*", (Ask, Default)),
        ("grep -e x --file=.env src", (Ask, Default)),
        ("grep -rn main src", ALLOWED),
        ("rg SECRET", (Ask, Default)),
        ("find -name '*.env'", (Ask, Default)),
        ("du -sh", (Ask, Default)),
        ("git show HEAD:.env", (Ask, Default)),
        ("git show HEAD:src/a.rs", ALLOWED),
    ]);
    let battery = Battery::new();
    let input = json!({ "command": "cat src/a.rs" });
    assert_eq!(
        decide_with(&battery, DefaultMode, json!({"ask": ["Read"]}), input),
        (Ask, Default)
    );
}

#[test]
fn deny_and_ask_rules_win_over_the_read_only_list() {
    let battery = Battery::new();
    let rows = [
        (
            json!({"deny": ["Bash(grep:*)"]}),
            "grep -rn main src",
            (Deny, Rule),
        ),
        (
            json!({"deny": ["Bash(git diff:*)"]}),
            "git log && git diff",
            (Deny, Rule),
        ),
        (
            json!({"ask": ["Bash(git diff:*)"]}),
            "git diff",
            (Ask, Rule),
        ),
        (json!({"ask": ["Bash"]}), "cat src/a.rs", (Ask, Rule)),
        (json!({"deny": ["Bash"]}), "cat src/a.rs", (Deny, Rule)),
        (
            json!({"allow": ["Bash(cat:*)"]}),
            "cat src/a.rs",
            (Allow, Rule),
        ),
    ];
    for (extra, command, expected) in rows {
        let input = json!({ "command": command });
        assert_eq!(
            decide_with(&battery, DefaultMode, extra.clone(), input),
            expected,
            "{extra} {command}"
        );
    }
}

#[test]
fn a_hook_still_decides_before_the_read_only_list() {
    let battery = Battery::new();
    let engine = battery.engine(DefaultMode);
    let input = json!({ "command": "git diff" });
    let found: Vec<Expected> = [Ask, Deny, Allow]
        .into_iter()
        .map(|effect| {
            verdict(
                &battery
                    .explain(&engine, "Bash", input.clone(), Some(effect))
                    .decision,
            )
        })
        .collect();
    assert_eq!(found, vec![(Ask, Hook), (Deny, Hook), ALLOWED]);
}

#[test]
fn every_mode_runs_a_read_only_command_and_the_sandbox_still_asks() {
    let battery = Battery::new();
    let rows = [
        (DefaultMode, (Ask, ShellAnalysis), (Ask, Sandbox)),
        (AcceptEdits, (Ask, ShellAnalysis), (Ask, Sandbox)),
        (Plan, (Deny, Mode), (Ask, Sandbox)),
        (DontAsk, (Deny, Mode), (Deny, Mode)),
        (BypassPermissions, (Allow, Mode), (Ask, Sandbox)),
    ];
    for (mode, written, unsandboxed_expected) in rows {
        let read = json!({ "command": "git diff | head -n 3" });
        let write = json!({ "command": "sort -o out src/a.rs" });
        let found = (
            decide_with(&battery, mode, json!({}), read),
            decide_with(&battery, mode, json!({}), write),
        );
        assert_eq!(found, (ALLOWED, written), "{mode}");
        let unsandboxed = json!({ "command": "git diff", "dangerouslyDisableSandbox": true });
        let sandbox = decide_with(&battery, mode, json!({}), unsandboxed);
        assert_eq!(sandbox, unsandboxed_expected, "{mode}");
    }
}

#[test]
fn explain_names_the_read_only_participant_and_why_it_did_not_allow() {
    let battery = Battery::new();
    let engine = battery.engine(DefaultMode);
    let reasons = |command: &str| -> Vec<(Option<PermissionEffect>, String)> {
        battery
            .explain(&engine, "Bash", json!({ "command": command }), None)
            .verdicts
            .into_iter()
            .filter(|verdict| verdict.source == ReadOnlyCommand)
            .map(|verdict| (verdict.effect, verdict.reason))
            .collect()
    };
    assert_eq!(
        reasons("git diff"),
        vec![(
            Some(Allow),
            "every command is on the read-only list and reads only inside the workspace".to_owned()
        )]
    );
    assert_eq!(
        reasons("sort -o out src/a.rs"),
        vec![(
            None,
            "not a read-only command: `sort -o out src/a.rs`: sort -o writes, runs or follows"
                .to_owned()
        )]
    );
    assert_eq!(reasons("npm test"), vec![]);
}

#[test]
fn git_printing_history_asks_when_git_tracks_a_guarded_file() {
    // The battery denies Read(./.env); here git's index tracks it.
    let battery = Battery::new();
    std::fs::write(
        battery.proj(".git/index"),
        b"DIRC\0\0\0\x02\0\0\0\x01src/a.rs\0.env\0",
    )
    .unwrap();
    let rows = [
        ("git diff", (Ask, Default)),
        ("git log -p", (Ask, Default)),
        ("git show HEAD", (Ask, Default)),
        ("git diff -- src", ALLOWED),
        ("git status", (Allow, Rule)),
    ];
    for (command, expected) in rows {
        let decision = battery.bash(command);
        assert_eq!(
            verdict(&decision),
            expected,
            "{command}: {}",
            decision.reason
        );
    }
}

#[test]
fn git_outside_a_repository_of_its_own_asks() {
    // A folder without .git may itself be read as a bare repository whose
    // planted config runs programs.
    let battery = Battery::new();
    std::fs::remove_dir_all(battery.proj(".git")).unwrap();
    let decision = battery.bash("git log --oneline");
    assert_eq!(verdict(&decision), (Ask, Default), "{}", decision.reason);
}

#[test]
fn a_glob_matching_a_link_out_of_the_workspace_asks() {
    let battery = Battery::new();
    std::fs::create_dir(battery.proj("notes")).unwrap();
    std::fs::write(battery.proj("notes/a.txt"), "a").unwrap();
    let plain = battery.bash("cat notes/*");
    std::os::unix::fs::symlink(
        battery.home().join(".ssh/id_rsa"),
        battery.proj("notes/key"),
    )
    .unwrap();
    let linked = battery.bash("cat notes/*");
    assert_eq!(
        (verdict(&plain), verdict(&linked)),
        (ALLOWED, (Ask, Default)),
        "{}",
        linked.reason
    );
}

#[test]
fn a_recursive_diff_asks_as_it_follows_links() {
    check(&[
        ("diff src/a.rs src/a.rs", ALLOWED),
        ("diff -r src src", (Ask, Default)),
        ("diff --recursive src src", (Ask, Default)),
    ]);
}
