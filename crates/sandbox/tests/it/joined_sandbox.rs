//! Commands join one long-lived bubblewrap sandbox per policy (issue 25's
//! speed budget), and that sandbox follows the workspace's protected entries:
//! one that appears between two commands is read-only for the second.
//! Needs bubblewrap (`.ci/run` installs it).

use agenthub_sandbox::{sandboxed_command, Content, FolderRule, ProtectedNames, SandboxPolicy};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

fn policy(root: &Path) -> SandboxPolicy {
    SandboxPolicy {
        protected_names: ProtectedNames {
            whole: vec![".envrc".to_owned()],
            nested: Vec::new(),
            folders: vec![FolderRule {
                name: ".git".to_owned(),
                created_whole: true,
                content: Content::ProtectedExcept(vec!["head".to_owned(), "refs".to_owned()]),
            }],
        },
        ..SandboxPolicy::workspace_write([root.to_path_buf()])
    }
}

/// Runs `script` with `sh -c` in `root`; returns (exit code, stdout, stderr).
async fn run(policy: &SandboxPolicy, root: &Path, script: &str) -> (Option<i32>, String, String) {
    let mut sandboxed =
        sandboxed_command(policy, "sh", &[OsStr::new("-c"), OsStr::new(script)], root).unwrap();
    let output = sandboxed.command.output().await.unwrap();
    let status = sandboxed.mechanism.command_status(output.status);
    sandboxed.aftercare.remove_new_protected();
    (
        status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn workspace() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    (dir, root)
}

#[tokio::test]
async fn two_commands_of_one_policy_share_one_sandbox_whose_keeper_is_its_second_process() {
    let (_dir, root) = workspace();
    let policy = policy(&root);
    let first = run(&policy, &root, "cat /proc/2/comm").await;
    let second = run(&policy, &root, "cat /proc/2/comm").await;
    assert_eq!(
        (first, second),
        (
            (Some(0), "cat\n".to_owned(), String::new()),
            (Some(0), "cat\n".to_owned(), String::new())
        )
    );
}

#[tokio::test]
async fn a_protected_file_that_appears_between_two_commands_is_read_only_for_the_second() {
    let (_dir, root) = workspace();
    let policy = policy(&root);
    run(&policy, &root, "true").await;
    std::fs::write(root.join(".envrc"), "use nix\n").unwrap();
    let (code, _, stderr) = run(&policy, &root, "echo evil >> .envrc").await;
    assert_eq!(
        (
            code,
            stderr.contains("Read-only file system"),
            std::fs::read_to_string(root.join(".envrc")).unwrap()
        ),
        (Some(2), true, "use nix\n".to_owned())
    );
}

#[tokio::test]
async fn a_command_killed_by_a_signal_reports_that_signal() {
    let (_dir, root) = workspace();
    let (code, _, _) = run(&policy(&root), &root, "kill -9 $$").await;
    assert_eq!(code, None);
}

#[tokio::test]
async fn a_process_that_left_the_process_group_does_not_outlive_the_command() {
    let (_dir, root) = workspace();
    let policy = policy(&root);
    run(
        &policy,
        &root,
        "setsid sh -c 'sleep 1; echo late > late.txt' >/dev/null 2>&1 < /dev/null &",
    )
    .await;
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    assert!(!root.join("late.txt").exists());
}

#[tokio::test]
async fn inside_a_repository_only_the_writable_names_are_written_and_a_new_protected_one_is_undone()
{
    let (_dir, root) = workspace();
    std::fs::create_dir_all(root.join(".git/hooks")).unwrap();
    std::fs::write(root.join(".git/config"), "[core]\n").unwrap();
    let policy = policy(&root);
    let (code, _, stderr) = run(
        &policy,
        &root,
        "echo ref > .git/HEAD.lock && mv .git/HEAD.lock .git/HEAD && mkdir .git/refs \
         && echo x > .git/info; echo evil > .git/hooks/pre-commit; mv .git .git2",
    )
    .await;
    let mut entries: Vec<String> = std::fs::read_dir(root.join(".git"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    entries.sort();
    assert_eq!(
        (
            code,
            stderr.contains(".git/hooks/pre-commit: Read-only file system"),
            stderr.contains("Device or resource busy"),
            entries,
            std::fs::read_to_string(root.join(".git/HEAD")).unwrap()
        ),
        (
            Some(1),
            true,
            true,
            vec![
                "HEAD".into(),
                "config".into(),
                "hooks".into(),
                "refs".into()
            ],
            "ref\n".to_owned()
        )
    );
}
