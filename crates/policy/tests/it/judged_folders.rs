//! §29 "Git works in the sandbox", the permission side: inside `.git` what
//! everyday git writes is an ordinary path and everything else stays
//! protected; inside `.claude` and `.agenthub` only the settings, the
//! folders of code and prompts stay protected. Every writable name against
//! every protected one, written by Write, Edit and Bash, in every mode, with
//! rules that allow every write: a writable name is allowed like any file,
//! a protected one asks for this call only (dontAsk denies, bypass writes).
//! The session-grant side is in `no_grant_answers`, fed by [`protected`].

use crate::support::*;
use agenthub_policy::PermissionMode::{self, AcceptEdits, BypassPermissions, Default, DontAsk};
use agenthub_policy::{AskScope, Source};
use agenthub_protocol::PermissionEffect;
use serde_json::{json, Value};

/// What everyday git writes (each `*.lock` too), in the top repository
/// and in a nested one.
pub const GIT_WRITABLE: [&str; 33] = [
    ".git/index",
    ".git/index.lock",
    ".git/index.stash.4242",
    ".git/index.stash.4242.lock",
    ".git/HEAD",
    ".git/HEAD.lock",
    ".git/ORIG_HEAD",
    ".git/FETCH_HEAD",
    ".git/MERGE_HEAD",
    ".git/MERGE_MSG",
    ".git/MERGE_MODE",
    ".git/CHERRY_PICK_HEAD",
    ".git/REVERT_HEAD",
    ".git/REBASE_HEAD",
    ".git/AUTO_MERGE",
    ".git/AUTO_MERGE.lock",
    ".git/COMMIT_EDITMSG",
    ".git/packed-refs",
    ".git/packed-refs.lock",
    ".git/packed-refs.new",
    ".git/objects/ab/cdef0123",
    ".git/objects/pack/pack-1.pack",
    ".git/refs/heads/main",
    ".git/refs/heads/topic.lock",
    ".git/refs/stash",
    ".git/logs/HEAD",
    ".git/logs/refs/stash",
    ".git/rebase-merge/git-rebase-todo",
    ".git/rebase-apply/patch",
    ".git/sequencer/todo",
    ".git/gc.pid",
    ".git/gc.log",
    "sub/.git/index",
];

/// Everything else in `.git`: configuration, hooks, the folders other
/// repositories live in, and any name git does not write every day.
pub const GIT_PROTECTED: [&str; 17] = [
    ".git",
    ".git/config",
    ".git/config.lock",
    ".git/config.worktree",
    ".git/hooks/pre-commit",
    ".git/hooks/pre-commit.lock",
    ".git/info/exclude",
    ".git/info/attributes",
    ".git/modules/sub/config",
    ".git/worktrees/w/gitdir",
    ".git/commondir",
    ".git/description",
    ".git/new-name",
    ".git/HEAD2",
    ".GIT/Config",
    "sub/.git/config",
    "sub/.git/hooks/post-checkout",
];

/// State an agent or a plugin keeps beside its settings.
pub const AGENT_WRITABLE: [&str; 5] = [
    ".claude/ralph-loop.local.md",
    ".claude/data/state.json",
    ".claude/logs/run.log",
    ".agenthub/notes.local.md",
    ".agenthub/data/x",
];

/// The agents' settings and their folders of code and prompts.
pub const AGENT_PROTECTED: [&str; 16] = [
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".claude/hooks/stop.sh",
    ".claude/agents/reviewer.md",
    ".claude/commands/fix.md",
    ".claude/skills/s/SKILL.md",
    ".claude/plugins/p/plugin.json",
    ".claude/data/.envrc",
    ".agenthub/settings.json",
    ".agenthub/settings.local.json",
    ".agenthub/hooks/h.sh",
    ".agenthub/agents/a.md",
    ".agenthub/commands/c.md",
    ".agenthub/skills/s/SKILL.md",
    ".agenthub/plugins/p/x",
    "sub/.Claude/Settings.json",
];

/// Rules that allow every way of writing used here.
const ALLOW_EVERY_WRITE: [&str; 4] = ["Write", "Edit(**)", "Bash(cp:*)", "Bash(echo:*)"];

const MODES: [PermissionMode; 4] = [Default, AcceptEdits, DontAsk, BypassPermissions];

/// Each way of writing `path`: Write, Edit, `cp` and a redirection.
pub fn writes_of(path: &str) -> Vec<(&'static str, Value)> {
    vec![
        ("Write", json!({"file_path": path, "content": "planted"})),
        (
            "Edit",
            json!({"file_path": path, "old_string": "a", "new_string": "b"}),
        ),
        ("Bash", json!({"command": format!("cp src/a.rs {path}")})),
        ("Bash", json!({"command": format!("echo planted > {path}")})),
    ]
}

/// Every write to a protected name of the judged folders.
pub fn protected() -> Vec<(&'static str, Value)> {
    GIT_PROTECTED
        .iter()
        .chain(AGENT_PROTECTED.iter())
        .flat_map(|path| writes_of(path))
        .collect()
}

/// `(effect, source, scope)` of every write to `paths` in `mode` that is
/// not `expected`.
fn wrong(
    mode: PermissionMode,
    paths: &[&str],
    expected: (PermissionEffect, Option<Source>, Option<AskScope>),
) -> Vec<String> {
    let battery = Battery::new();
    let engine = battery.engine_with(mode, json!({ "allow": ALLOW_EVERY_WRITE }));
    let mut wrong = Vec::new();
    for path in paths {
        for (tool, input) in writes_of(path) {
            let decision = battery.explain(&engine, tool, input.clone(), None).decision;
            let found = (decision.effect, Some(decision.source), decision.scope);
            let matches = found.0 == expected.0
                && expected.1.is_none_or(|source| found.1 == Some(source))
                && expected.2.is_none_or(|scope| found.2 == scope);
            if !matches {
                wrong.push(format!(
                    "{mode} {tool} {input}: {found:?} {}",
                    decision.reason
                ));
            }
        }
    }
    wrong
}

/// Every write to an ordinary path, with every write allowed by a rule:
/// allowed, but for a redirection, which no rule allows (a grantable ask,
/// denied in dontAsk, written in bypass) — never the protected-path ask.
fn ordinary(mode: PermissionMode, paths: &[&str]) -> Vec<String> {
    let battery = Battery::new();
    let engine = battery.engine_with(mode, json!({ "allow": ALLOW_EVERY_WRITE }));
    let mut wrong = Vec::new();
    for path in paths {
        for (tool, input) in writes_of(path) {
            let decision = battery.explain(&engine, tool, input.clone(), None).decision;
            let redirect = input["command"].as_str().is_some_and(|c| c.contains('>'));
            let expected = match (redirect, mode) {
                (false, _) | (true, BypassPermissions) => Allow,
                (true, DontAsk) => Deny,
                (true, _) => Ask,
            };
            let found = (decision.effect, decision.source, decision.scope);
            if found.0 != expected
                || found.1 == Source::ProtectedPath
                || found.2 != AskScope::Grantable
            {
                wrong.push(format!(
                    "{mode} {tool} {input}: {found:?} {}",
                    decision.reason
                ));
            }
        }
    }
    wrong
}

#[test]
fn what_everyday_git_writes_is_an_ordinary_write_in_every_mode() {
    let found: Vec<String> = MODES
        .iter()
        .flat_map(|&mode| ordinary(mode, &GIT_WRITABLE))
        .collect();
    assert_eq!(found, Vec::<String>::new());
}

#[test]
fn agent_state_beside_the_settings_is_an_ordinary_write_in_every_mode() {
    let found: Vec<String> = MODES
        .iter()
        .flat_map(|&mode| ordinary(mode, &AGENT_WRITABLE))
        .collect();
    assert_eq!(found, Vec::<String>::new());
}

#[test]
fn every_other_name_in_a_repository_or_an_agent_folder_is_protected_in_every_mode() {
    let mut found = Vec::new();
    for mode in MODES {
        let expected = match mode {
            DontAsk => (Deny, Some(Source::Mode), None),
            BypassPermissions => (Allow, None, None),
            _ => (
                Ask,
                Some(Source::ProtectedPath),
                Some(AskScope::ThisCallOnly),
            ),
        };
        found.extend(wrong(mode, &GIT_PROTECTED, expected));
        found.extend(wrong(mode, &AGENT_PROTECTED, expected));
    }
    assert_eq!(found, Vec::<String>::new());
}
