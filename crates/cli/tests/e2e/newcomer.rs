//! What a newcomer meets first: a typo is not a prompt, `doctor` says what is
//! missing and how to fix it, and the shell documents come from the binary.

use assert_cmd::Command;

/// `agenthub` with a HOME and XDG folders of its own, no provider variables.
fn agenthub(home: &std::path::Path) -> Command {
    let mut command = Command::cargo_bin("agenthub").unwrap();
    command
        .current_dir(home)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_STATE_HOME", home.join(".local/state"))
        .env_remove("OPENAI_API_KEY")
        .env_remove("ANTHROPIC_API_KEY")
        .env_remove("OPENAI_BASE_URL")
        .env_remove("ANTHROPIC_BASE_URL")
        .env_remove("AGENTHUB_MODEL");
    command
}

#[test]
fn a_mistyped_command_is_a_usage_error_that_names_the_command_and_sends_nothing() {
    let home = tempfile::tempdir().unwrap();
    agenthub(home.path())
        .arg("rnu")
        .env("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
        .env("AGENTHUB_MODEL", "m")
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            "agenthub: `rnu` is not an agenthub command; did you mean `run`? (to send a one-word \
             prompt, write `agenthub -- rnu` or `agenthub --prompt rnu`)\n",
        );
}

#[test]
fn doctor_names_a_missing_provider_and_exits_1() {
    let home = tempfile::tempdir().unwrap();
    let output = agenthub(home.path()).arg("doctor").output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("MISSING provider  not configured: Missing required settings: model")
            && stdout.ends_with("something needed is missing: see the MISSING lines\n"),
        "{stdout}"
    );
}

#[test]
fn doctor_passes_with_a_sandbox_and_a_configured_local_provider() {
    let home = tempfile::tempdir().unwrap();
    let workspace = home.path().canonicalize().unwrap();
    let output = agenthub(home.path())
        .arg("doctor")
        .env("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
        .env("AGENTHUB_MODEL", "local-model")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert_eq!(lines[0], format!("workspace: {}", workspace.display()));
    assert!(
        lines[1].starts_with("ok      sandbox   bubblewrap ("),
        "{stdout}"
    );
    assert!(lines[2].starts_with("ok      bash      /"), "{stdout}");
    assert_eq!(lines[4], "ok      settings  none (built-in defaults)");
    assert_eq!(
        lines[5],
        "ok      trust     the workspace has no configuration of its own"
    );
    assert_eq!(lines[6], "ok      provider  model local-model");
}

#[test]
fn completions_and_the_man_page_are_generated_from_the_command_line() {
    let home = tempfile::tempdir().unwrap();
    let bash = agenthub(home.path())
        .args(["completions", "bash"])
        .output()
        .unwrap();
    let bash = String::from_utf8_lossy(&bash.stdout);
    assert!(
        bash.contains("_agenthub()") && bash.contains("doctor"),
        "{bash}"
    );
    let man = agenthub(home.path()).arg("man").output().unwrap();
    let man = String::from_utf8_lossy(&man.stdout);
    assert!(
        man.contains(".TH agenthub 1") && man.contains("doctor"),
        "{man}"
    );
}

#[test]
fn hooks_test_help_lists_every_event() {
    let home = tempfile::tempdir().unwrap();
    let output = agenthub(home.path())
        .args(["hooks", "test", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&output.stdout);
    for event in agenthub::HookEvent::ALL {
        assert!(
            help.contains(event.as_str()),
            "{} missing from:\n{help}",
            event.as_str()
        );
    }
}
