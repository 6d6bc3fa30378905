//! The sandbox holds as root (contract §26, issue 25): each test is an escape
//! that worked before — from a Bash command the permission layer let through
//! (bypassPermissions) — and must fail now, under bubblewrap and, where the
//! test says so, under the Landlock fallback (bubblewrap turned off). These
//! tests run as whatever user runs the suite; in CI that is root, where the
//! capability escapes matter most.

use crate::support;

use serde_json::{json, Value};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixListener;
use std::path::PathBuf;
use support::*;

/// Which mechanism confines the commands.
#[derive(Clone, Copy)]
enum Mechanism {
    /// The session's long-lived bubblewrap sandbox, which commands join.
    Bubblewrap,
    /// A bubblewrap of its own for each command (AGENTHUB_SANDBOX_PER_CALL).
    BubblewrapPerCall,
    /// The fallback: bubblewrap turned off.
    Landlock,
}

/// Runs each of `scripts` as `bash cN.sh`: a script the permission layer
/// cannot look into, so only the sandbox stands in the way.
fn run(case: &Case, mechanism: Mechanism, scripts: &[&str]) -> assert_cmd::Command {
    let calls: Vec<Value> = scripts
        .iter()
        .enumerate()
        .map(|(n, script)| {
            let file = format!("c{}.sh", n + 1);
            case.write(&file, script);
            call(
                &format!("call_{}", n + 1),
                "Bash",
                json!({ "command": format!("bash {file}") }),
            )
        })
        .collect();
    case.script(json!([{"content": "trying", "tool_calls": calls}, {"content": "done"}]));
    let mut run = agenthub();
    run.arg("run")
        .arg("--script")
        .arg(case.script_path())
        .arg("--workspace")
        .arg(case.workspace())
        .arg("--transcript")
        .arg(case.transcript_path())
        .args(["--permission-mode", "bypassPermissions"])
        .arg(PROMPT)
        .env("XDG_CONFIG_HOME", case.workspace().join("../config"))
        .env("XDG_STATE_HOME", case.workspace().join("../state"));
    match mechanism {
        Mechanism::Bubblewrap => {}
        Mechanism::BubblewrapPerCall => {
            run.env("AGENTHUB_SANDBOX_PER_CALL", "1");
        }
        Mechanism::Landlock => {
            run.env("AGENTHUB_SANDBOX_DISABLE_BWRAP", "1");
        }
    }
    run
}

fn result_of(case: &Case, id: &str) -> String {
    case.messages()
        .iter()
        .find(|record| record["message"]["tool_call_id"] == id)
        .and_then(|record| record["message"]["content"].as_str())
        .unwrap_or_else(|| panic!("no result for {id}"))
        .to_owned()
}

/// A folder beside the workspace (outside it).
fn outside(case: &Case) -> PathBuf {
    let dir = case.workspace().parent().unwrap().join("outside");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn has_no_capabilities(mechanism: Mechanism) {
    let case = Case::new();
    run(
        &case,
        mechanism,
        &["grep -E '^Cap(Eff|Prm|Amb)' /proc/self/status"],
    )
    .assert()
    .success();
    assert_eq!(
        result_of(&case, "call_1"),
        "[exit code: 0]\nCapPrm:\t0000000000000000\nCapEff:\t0000000000000000\n\
         CapAmb:\t0000000000000000"
    );
}

#[test]
fn under_bubblewrap_the_command_has_no_capabilities() {
    has_no_capabilities(Mechanism::Bubblewrap);
}

#[test]
fn under_a_bubblewrap_per_call_the_command_has_no_capabilities() {
    has_no_capabilities(Mechanism::BubblewrapPerCall);
}

#[test]
fn under_landlock_the_command_has_no_capabilities() {
    has_no_capabilities(Mechanism::Landlock);
}

fn cannot_remount_the_root_writable(mechanism: Mechanism) {
    let case = Case::new();
    let target = outside(&case).join("pwned");
    let command = format!(
        "mount -o remount,bind,rw / 2>/dev/null; echo x > {}",
        target.display()
    );
    run(&case, mechanism, &[&command]).assert().success();
    assert!(!target.exists(), "{}", result_of(&case, "call_1"));
}

#[test]
fn under_bubblewrap_a_remount_cannot_make_the_host_writable() {
    cannot_remount_the_root_writable(Mechanism::Bubblewrap);
}

#[test]
fn under_a_bubblewrap_per_call_a_remount_cannot_make_the_host_writable() {
    cannot_remount_the_root_writable(Mechanism::BubblewrapPerCall);
}

#[test]
fn under_landlock_a_remount_cannot_make_the_host_writable() {
    cannot_remount_the_root_writable(Mechanism::Landlock);
}

fn cannot_create_a_setuid_file(mechanism: Mechanism) {
    let case = Case::new();
    run(
        &case,
        mechanism,
        &[
            "cp /bin/sh rootsh; chmod 4755 rootsh",
            "python3 -c \"import os; os.close(os.open('made', os.O_CREAT | os.O_WRONLY, 0o6755))\"",
        ],
    )
    .assert()
    .success();
    let privileged = |name: &str| {
        std::fs::metadata(case.workspace().join(name))
            .map(|meta| meta.permissions().mode() & 0o6000)
            .unwrap_or(0)
    };
    assert_eq!(
        (privileged("rootsh"), privileged("made")),
        (0, 0),
        "{}\n{}",
        result_of(&case, "call_1"),
        result_of(&case, "call_2")
    );
}

#[test]
fn under_bubblewrap_no_setuid_or_setgid_file_can_be_made() {
    cannot_create_a_setuid_file(Mechanism::Bubblewrap);
}

#[test]
fn under_a_bubblewrap_per_call_no_setuid_or_setgid_file_can_be_made() {
    cannot_create_a_setuid_file(Mechanism::BubblewrapPerCall);
}

#[test]
fn under_landlock_no_setuid_or_setgid_file_can_be_made() {
    cannot_create_a_setuid_file(Mechanism::Landlock);
}

#[test]
fn under_bubblewrap_unmounting_proc_does_not_reveal_the_host_s_processes() {
    proc_stays_the_sandbox_s(Mechanism::Bubblewrap);
}

#[test]
fn under_a_bubblewrap_per_call_unmounting_proc_does_not_reveal_the_host_s_processes() {
    proc_stays_the_sandbox_s(Mechanism::BubblewrapPerCall);
}

fn proc_stays_the_sandbox_s(mechanism: Mechanism) {
    let case = Case::new();
    let host_pid = std::process::id();
    let command = format!(
        "umount -l /proc 2>/dev/null; if test -e /proc/{host_pid}; then echo visible; else echo hidden; fi"
    );
    run(&case, mechanism, &[&command]).assert().success();
    assert_eq!(result_of(&case, "call_1"), "[exit code: 0]\nhidden");
}

fn cannot_connect_to_a_unix_socket(mechanism: Mechanism) {
    let case = Case::new();
    let socket = outside(&case).join("agent.sock");
    let listener = UnixListener::bind(&socket).unwrap();
    listener.set_nonblocking(true).unwrap();
    let command = format!(
        "python3 -c \"import socket; s = socket.socket(socket.AF_UNIX); s.connect('{}'); \
         s.sendall(b'hi')\"",
        socket.display()
    );
    run(&case, mechanism, &[&command]).assert().success();
    assert!(listener.accept().is_err(), "the command connected");
    let result = result_of(&case, "call_1");
    assert!(
        result.ends_with(
            "[sandbox: network access denied, Unix sockets included (sandbox.network is off); \
             if the command needs it, ask to run it unsandboxed (Bash with \
             dangerouslyDisableSandbox: true; the user is asked)]"
        ),
        "{result}"
    );
}

#[test]
fn under_bubblewrap_a_unix_socket_on_the_host_cannot_be_reached_with_the_network_off() {
    cannot_connect_to_a_unix_socket(Mechanism::Bubblewrap);
}

#[test]
fn under_a_bubblewrap_per_call_a_unix_socket_on_the_host_cannot_be_reached() {
    cannot_connect_to_a_unix_socket(Mechanism::BubblewrapPerCall);
}

#[test]
fn under_landlock_a_unix_socket_on_the_host_cannot_be_reached_with_the_network_off() {
    cannot_connect_to_a_unix_socket(Mechanism::Landlock);
}

#[test]
fn a_nested_repository_s_hooks_cannot_be_written_whether_or_not_the_folder_exists() {
    let case = Case::new();
    case.write("sub/.git/config", "[core]\n");
    case.write("other/.git/hooks/README", "hooks\n");
    run(
        &case,
        Mechanism::Bubblewrap,
        &[
            "mkdir -p sub/.git/hooks; echo evil > sub/.git/hooks/pre-commit\n\
           echo evil > other/.git/hooks/pre-commit\n",
        ],
    )
    .assert()
    .success();
    let exists = |rel: &str| case.workspace().join(rel).exists();
    assert_eq!(
        (
            exists("sub/.git/hooks"),
            exists("other/.git/hooks/pre-commit")
        ),
        (false, false),
        "{}",
        result_of(&case, "call_1")
    );
}

#[test]
fn ci_workflows_can_be_neither_changed_nor_created_whether_or_not_their_folder_exists() {
    let case = Case::new();
    case.write("pkg/.github/workflows/ci.yml", "on: push\n");
    run(
        &case,
        Mechanism::Bubblewrap,
        &[
            "echo evil >> pkg/.github/workflows/ci.yml; echo evil > pkg/.github/workflows/x.yml\n\
           mkdir -p .github/workflows && echo evil > .github/workflows/x.yml\n",
        ],
    )
    .assert()
    .success();
    let exists = |rel: &str| case.workspace().join(rel).exists();
    assert_eq!(
        (
            case.read("pkg/.github/workflows/ci.yml"),
            exists("pkg/.github/workflows/x.yml"),
            exists(".github/workflows"),
        ),
        ("on: push\n".to_owned(), false, false),
        "{}",
        result_of(&case, "call_1")
    );
}

fn a_missing_protected_file_cannot_be_created(mechanism: Mechanism) {
    let case = Case::new();
    run(
        &case,
        mechanism,
        &[
            "mkdir -p .cargo deep/er && echo '[build]' > .cargo/config.toml\n\
           echo 'eval evil' > deep/er/.envrc\necho kept > deep/er/notes.txt\n",
        ],
    )
    .assert()
    .success();
    let exists = |rel: &str| case.workspace().join(rel).exists();
    assert_eq!(
        (
            exists(".cargo"),
            exists("deep/er/.envrc"),
            case.read("deep/er/notes.txt"),
            result_of(&case, "call_1")
        ),
        (
            false,
            false,
            "kept\n".to_owned(),
            "[exit code: 0]\n[sandbox: protected paths are read-only; removed what the \
             command created: .cargo, deep/er/.envrc]"
                .to_owned()
        )
    );
}

#[test]
fn under_bubblewrap_a_missing_cargo_config_and_a_deep_envrc_do_not_outlive_the_call() {
    a_missing_protected_file_cannot_be_created(Mechanism::Bubblewrap);
}

#[test]
fn under_landlock_a_missing_cargo_config_and_a_deep_envrc_do_not_outlive_the_call() {
    a_missing_protected_file_cannot_be_created(Mechanism::Landlock);
}

#[test]
fn provider_keys_and_secret_shaped_variables_are_not_in_the_environment_unless_passed() {
    let case = Case::new();
    let config = case.workspace().join("../config/agenthub");
    std::fs::create_dir_all(&config).unwrap();
    std::fs::write(
        config.join("settings.json"),
        r#"{"sandbox": {"passEnv": ["NPM_TOKEN"]}}"#,
    )
    .unwrap();
    run(
        &case,
        Mechanism::Bubblewrap,
        &[
            "echo \"[$OPENAI_API_KEY][$DB_PASSWORD][$NPM_TOKEN][$PLAIN]\"\n\
           cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n' | grep -c sk-live-secret\n",
        ],
    )
    .env("OPENAI_API_KEY", "sk-live-secret")
    .env("DB_PASSWORD", "hunter2")
    .env("NPM_TOKEN", "npm-passed")
    .env("PLAIN", "plain")
    .assert()
    .success();
    assert_eq!(
        result_of(&case, "call_1"),
        "Error [tool_error]: Exit code 1\n[][][npm-passed][plain]\n0"
    );
}

#[test]
fn with_every_mechanism_off_bash_refuses_naming_each_failure_and_the_fix() {
    let case = Case::new();
    run(&case, Mechanism::Landlock, &["echo ran > ran.txt"])
        .env("AGENTHUB_SANDBOX_DISABLE_LANDLOCK", "1")
        .assert()
        .success();
    assert_eq!(
        (
            case.workspace().join("ran.txt").exists(),
            result_of(&case, "call_1")
        ),
        (
            false,
            "Error [tool_error]: the command was not run: no sandbox works on this machine \
             (bubblewrap: turned off by AGENTHUB_SANDBOX_DISABLE_BWRAP; Landlock: turned off by \
             AGENTHUB_SANDBOX_DISABLE_LANDLOCK). Install bubblewrap (Debian/Ubuntu: `apt-get \
             install bubblewrap`); where it is installed but cannot create namespaces (a locked \
             container), allow unprivileged user namespaces (`sysctl -w \
             kernel.unprivileged_userns_clone=1`, or on Ubuntu `sysctl -w \
             kernel.apparmor_restrict_unprivileged_userns=0`; Docker: `--security-opt \
             seccomp=unconfined`) or use a kernel with Landlock; or run without a sandbox with \
             `--sandbox off` (settings: \"sandbox\": {\"mode\": \"off\"})"
                .to_owned()
        )
    );
}

fn the_workspace_and_a_private_temp_dir_are_writable(mechanism: Mechanism) {
    let case = Case::new();
    run(
        &case,
        mechanism,
        &[
            "echo made > out.txt && echo tmp > \"$TMPDIR/t\" && cat \"$TMPDIR/t\"\n\
           case \"$TMPDIR\" in /tmp/agenthub-sandbox-*) echo private;; esac\n",
        ],
    )
    .assert()
    .success();
    assert_eq!(
        (result_of(&case, "call_1"), case.read("out.txt")),
        (
            "[exit code: 0]\ntmp\nprivate".to_owned(),
            "made\n".to_owned()
        )
    );
}

#[test]
fn under_bubblewrap_the_workspace_and_a_private_temp_dir_are_writable() {
    the_workspace_and_a_private_temp_dir_are_writable(Mechanism::Bubblewrap);
}

#[test]
fn under_landlock_the_workspace_and_a_private_temp_dir_are_writable() {
    the_workspace_and_a_private_temp_dir_are_writable(Mechanism::Landlock);
}
