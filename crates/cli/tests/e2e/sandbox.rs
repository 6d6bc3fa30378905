//! Bash runs in an OS sandbox (contract §15): the attacks of issue 14, each made
//! by a command an allow rule lets through (`Bash(python3:*)`), are stopped
//! by the sandbox, not by the rules — reading a `.env` a Read deny rule
//! protects, writing and removing outside the workspace, connecting to a
//! listener on 127.0.0.1. `--sandbox off` lets them through again; without
//! bubblewrap Landlock confines the command; without both Bash refuses.

use crate::support;

use serde_json::{json, Value};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use support::*;

/// `agenthub run` in default mode with the attack battery's rules.
fn guarded_run(case: &Case, extra: &[&str]) -> assert_cmd::Command {
    let mut command = agenthub();
    command
        .arg("run")
        .arg("--script")
        .arg(case.script_path())
        .arg("--workspace")
        .arg(case.workspace())
        .arg("--transcript")
        .arg(case.transcript_path())
        .args(["--allow", "Bash(python3:*)", "--allow", "Bash(bash:*)"])
        .args(["--deny", "Read(./.env)", "--deny", "Bash(rm *)"])
        .args(["--deny", "Bash(curl *)"])
        .args(extra)
        .arg(PROMPT)
        .env("XDG_CONFIG_HOME", case.workspace().join("../config"))
        .env("XDG_STATE_HOME", case.workspace().join("../state"));
    command
}

/// The text of the tool result for `id`.
fn result_of(case: &Case, id: &str) -> String {
    case.messages()
        .iter()
        .find(|record| record["message"]["tool_call_id"] == id)
        .and_then(|record| record["message"]["content"].as_str())
        .unwrap_or_else(|| panic!("no result for {id}"))
        .to_owned()
}

/// A folder beside the workspace (outside it), with one file to protect.
fn outside(case: &Case) -> PathBuf {
    let dir = case.workspace().parent().unwrap().join("outside");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("keep"), "kept").unwrap();
    dir
}

fn python(id: &str, code: &str) -> Value {
    call(
        id,
        "Bash",
        json!({"command": format!("python3 -c \"{code}\"")}),
    )
}

fn script_calls(case: &Case, calls: Vec<Value>) {
    case.script(json!([
        {"content": "trying", "tool_calls": calls},
        {"content": "done"}
    ]));
}

const WRITE_DENIED: &str = "[sandbox: write outside the workspace (or to a protected path) denied; \
     if the command needs it, ask to run it unsandboxed (Bash with dangerouslyDisableSandbox: true; \
     the user is asked)]";

#[test]
fn python_cannot_read_a_dot_env_that_a_read_deny_rule_protects() {
    let case = Case::new();
    case.write(".env", "SECRET=hunter2");
    script_calls(
        &case,
        vec![python("call_1", "print(repr(open('.env').read()))")],
    );
    guarded_run(&case, &[]).assert().success();
    assert_eq!(
        result_of(&case, "call_1"),
        "Error [tool_error]: Exit code 1\n[stderr]\nTraceback (most recent call last):\n  File \"<string>\", \
         line 1, in <module>\nPermissionError: [Errno 13] Permission denied: '.env'"
    );
}

#[test]
fn python_cannot_write_outside_the_workspace_and_the_result_says_the_sandbox_stopped_it() {
    let case = Case::new();
    let outside = outside(&case);
    let target = outside.join("pwned");
    script_calls(
        &case,
        vec![python(
            "call_1",
            &format!("open('{}', 'w')", target.display()),
        )],
    );
    guarded_run(&case, &[]).assert().success();
    let result = result_of(&case, "call_1");
    assert!(!target.exists(), "the file was written: {result}");
    assert!(result.ends_with(WRITE_DENIED), "{result}");
}

#[test]
fn python_cannot_remove_a_file_outside_the_workspace_despite_the_rm_deny_rule_being_bypassed() {
    let case = Case::new();
    let keep = outside(&case).join("keep");
    script_calls(
        &case,
        vec![python(
            "call_1",
            &format!("import os; os.remove('{}')", keep.display()),
        )],
    );
    guarded_run(&case, &[]).assert().success();
    assert_eq!(std::fs::read_to_string(&keep).unwrap(), "kept");
}

#[test]
fn python_cannot_connect_to_a_listener_on_loopback_with_the_network_off() {
    let case = Case::new();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    script_calls(
        &case,
        vec![python(
            "call_1",
            &format!("import socket; socket.create_connection(('127.0.0.1', {port}), 5)"),
        )],
    );
    guarded_run(&case, &[]).assert().success();
    assert!(
        listener.accept().is_err(),
        "the sandboxed command connected"
    );
    let result = result_of(&case, "call_1");
    assert!(
        result.contains(
            "[sandbox: network access denied, Unix sockets included (sandbox.network is off)"
        ),
        "{result}"
    );
}

#[test]
fn the_workspace_and_the_private_temp_dir_stay_writable() {
    let case = Case::new();
    script_calls(
        &case,
        vec![call(
            "call_1",
            "Bash",
            json!({"command": "bash -c 'echo made > out.txt && echo tmp > \"$TMPDIR/t\" && cat \"$TMPDIR/t\"'"}),
        )],
    );
    guarded_run(&case, &["--permission-mode", "bypassPermissions"])
        .assert()
        .success();
    assert_eq!(
        (result_of(&case, "call_1"), case.read("out.txt")),
        ("[exit code: 0]\ntmp".to_owned(), "made\n".to_owned())
    );
}

#[test]
fn a_protected_path_stays_read_only_inside_the_workspace() {
    let case = Case::new();
    case.write(".git/config", "[core]\n");
    script_calls(
        &case,
        vec![python(
            "call_1",
            "open('.git/config', 'a').write('fsmonitor = evil')",
        )],
    );
    guarded_run(&case, &[]).assert().success();
    assert_eq!(case.read(".git/config"), "[core]\n");
}

#[test]
fn sandbox_off_lets_the_same_write_through() {
    let case = Case::new();
    let target = outside(&case).join("written");
    script_calls(
        &case,
        vec![python(
            "call_1",
            &format!("open('{}', 'w')", target.display()),
        )],
    );
    guarded_run(&case, &["--sandbox", "off"]).assert().success();
    assert!(target.exists(), "{}", result_of(&case, "call_1"));
}

#[test]
fn dangerously_disable_sandbox_asks_even_under_an_allow_rule_and_no_one_can_answer_here() {
    let case = Case::new();
    let target = outside(&case).join("written");
    script_calls(
        &case,
        vec![call(
            "call_1",
            "Bash",
            json!({"command": format!("python3 -c \"open('{}', 'w')\"", target.display()),
                   "dangerouslyDisableSandbox": true}),
        )],
    );
    guarded_run(&case, &["--permission-mode", "acceptEdits"])
        .assert()
        .success();
    assert!(!target.exists());
    let permission = case
        .records()
        .into_iter()
        .find(|record| record["type"] == "permission")
        .unwrap();
    assert_eq!(
        (
            &permission["source"],
            &permission["effect"],
            result_of(&case, "call_1")
        ),
        (
            &json!("sandbox"),
            &json!("ask"),
            "Error [permission_denied]: the tool was not run: permission denied: approval required"
                .to_owned()
        )
    );
}

#[test]
fn a_sandbox_setting_of_an_untrusted_project_that_loosens_is_set_aside() {
    let case = Case::new();
    case.write(".agenthub/settings.json", r#"{"sandbox": {"mode": "off"}}"#);
    let target = outside(&case).join("written");
    script_calls(
        &case,
        vec![python(
            "call_1",
            &format!("open('{}', 'w')", target.display()),
        )],
    );
    guarded_run(&case, &[]).assert().success();
    assert!(!target.exists(), "{}", result_of(&case, "call_1"));
}

#[test]
fn a_read_only_sandbox_from_an_untrusted_project_applies_at_once() {
    let case = Case::new();
    case.write(
        ".agenthub/settings.json",
        r#"{"sandbox": {"mode": "read-only"}}"#,
    );
    script_calls(&case, vec![python("call_1", "open('inside.txt', 'w')")]);
    guarded_run(&case, &[]).assert().success();
    assert!(!case.workspace().join("inside.txt").exists());
}

/// A PATH holding only `bash` (no `bwrap`): the machine without bubblewrap.
fn path_without_bwrap(case: &Case) -> PathBuf {
    let bin = case.workspace().parent().unwrap().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let bash = which("bash");
    std::os::unix::fs::symlink(bash, bin.join("bash")).unwrap();
    bin
}

fn which(program: &str) -> PathBuf {
    let path = std::env::var_os("PATH").unwrap();
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
        .unwrap_or_else(|| panic!("{program} is not on PATH"))
}

/// Scripts the permission layer cannot look into, run with bash builtins
/// only (the PATH holds nothing else): write outside, read `.env`, write inside.
fn bash_builtin_script(case: &Case, outside: &Path) {
    case.write("w.sh", &format!("echo x > {}/pwned\n", outside.display()));
    case.write("r.sh", "read -r line < .env; echo \"[$line]\"\n");
    case.write("i.sh", "echo ok > inside.txt\n");
    script_calls(
        case,
        ["w.sh", "r.sh", "i.sh"]
            .iter()
            .enumerate()
            .map(|(n, file)| {
                call(
                    &format!("call_{}", n + 1),
                    "Bash",
                    json!({"command": format!("bash {file}")}),
                )
            })
            .collect(),
    );
}

#[test]
fn without_bubblewrap_landlock_confines_the_command() {
    let case = Case::new();
    case.write(".env", "SECRET=hunter2");
    let outside = outside(&case);
    bash_builtin_script(&case, &outside);
    guarded_run(&case, &["--permission-mode", "bypassPermissions"])
        .env("PATH", path_without_bwrap(&case))
        .assert()
        .success();
    assert!(
        !outside.join("pwned").exists(),
        "{}",
        result_of(&case, "call_1")
    );
    let denied = result_of(&case, "call_1");
    assert!(
        denied.contains("[sandbox: write outside the workspace (or to a protected path) denied"),
        "{denied}"
    );
    assert!(!result_of(&case, "call_2").contains("hunter2"));
    assert_eq!(case.read("inside.txt"), "ok\n");
}

#[test]
fn without_bubblewrap_and_landlock_bash_refuses_and_says_how_to_fix_it() {
    let case = Case::new();
    let outside = outside(&case);
    bash_builtin_script(&case, &outside);
    guarded_run(&case, &["--permission-mode", "bypassPermissions"])
        .env("PATH", path_without_bwrap(&case))
        .env("AGENTHUB_SANDBOX_DISABLE_LANDLOCK", "1")
        .assert()
        .success();
    assert!(!case.workspace().join("inside.txt").exists());
    assert_eq!(
        result_of(&case, "call_3"),
        "Error [tool_error]: the command was not run: no sandbox works on this machine \
         (bubblewrap: bwrap is not on PATH; Landlock: turned off by \
         AGENTHUB_SANDBOX_DISABLE_LANDLOCK). Install bubblewrap (Debian/Ubuntu: `apt-get \
         install bubblewrap`); where it is installed but cannot create namespaces (a locked \
         container), allow unprivileged user namespaces (`sysctl -w \
         kernel.unprivileged_userns_clone=1`, or on Ubuntu `sysctl -w \
         kernel.apparmor_restrict_unprivileged_userns=0`; Docker: `--security-opt \
         seccomp=unconfined`) or use a kernel with Landlock; or run without a sandbox with \
         `--sandbox off` (settings: \"sandbox\": {\"mode\": \"off\"})"
    );
}
