//! Claude Code's `if` (conformance check 6) as an assembly reads it: one
//! permission rule that a call must match for the hook to run, read with the
//! permission engine's syntax. Real shell scripts, settings in the project's
//! `.agenthub/settings.json`, fired through the assembled hooks.

use agenthub::{
    Assembly, CancellationToken, HookCommon, HookRegistry, Options, ToolCall, TrustChoice,
};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// A trusted workspace whose project settings hold one PreToolUse hook,
/// `script` under `.agenthub/hooks/`, matched by `matcher` and run `if` the rule.
fn workspace_with_hook(matcher: Option<&str>, script: &str, rule: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let hooks = dir.path().join(".agenthub/hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    std::fs::write(hooks.join("hook.sh"), format!("#!/bin/sh\n{script}\n")).unwrap();
    std::process::Command::new("chmod")
        .arg("+x")
        .arg(hooks.join("hook.sh"))
        .status()
        .unwrap();
    let mut group =
        json!({"hooks": [{"type": "command", "command": "./.agenthub/hooks/hook.sh", "if": rule}]});
    if let Some(matcher) = matcher {
        group["matcher"] = json!(matcher);
    }
    let settings = json!({"hooks": {"PreToolUse": [group]}});
    std::fs::write(
        dir.path().join(".agenthub/settings.json"),
        settings.to_string(),
    )
    .unwrap();
    dir
}

/// The workspace's assembly (its root canonical) and its hooks.
fn assembled(dir: &Path) -> (PathBuf, Assembly, HookRegistry) {
    let root = dir.canonicalize().unwrap();
    let options = Options {
        trust: TrustChoice::ThisRun,
        ..Options::for_workspace(&root)
    };
    let assembly = Assembly::load(&options).unwrap();
    let hooks = assembly.hooks();
    (root, assembly, hooks)
}

/// Fires PreToolUse on each `(name, input)` call, in order, as `call_<n>`.
async fn fire(root: &Path, assembly: &Assembly, hooks: &HookRegistry, calls: &[(&str, Value)]) {
    for (position, (name, input)) in calls.iter().enumerate() {
        let call = ToolCall::new(format!("call_{position}"), *name, input.to_string());
        let prepared = assembly.tools().prepare(&call).unwrap();
        let common = HookCommon {
            session_id: "session-1".to_owned(),
            workspace: root.to_path_buf(),
            transcript_path: None,
            permission_mode: agenthub::crates::policy::PermissionMode::Default,
            cancel: CancellationToken::new(),
            agent: None,
        };
        hooks.run_pre_tool_use(common, prepared).await;
    }
}

#[tokio::test]
async fn an_if_rule_selects_sub_commands_after_assignments_and_in_compound_commands() {
    let dir = workspace_with_hook(
        Some("Bash"),
        "grep -o '\"command\":\"[^\"]*' | cut -d'\"' -f4 >> .agenthub/fired.txt",
        "Bash(git *)",
    );
    let (root, assembly, hooks) = assembled(dir.path());
    let calls: Vec<(&str, Value)> = ["FOO=1 git push", "npm t && git push", "ls -la", "echo git"]
        .iter()
        .map(|command| ("Bash", json!({"command": command})))
        .collect();
    fire(&root, &assembly, &hooks, &calls).await;
    assert_eq!(
        std::fs::read_to_string(root.join(".agenthub/fired.txt")).unwrap(),
        "FOO=1 git push\nnpm t && git push\n"
    );
}

#[tokio::test]
async fn a_path_rule_in_if_selects_the_file_tools_call_by_its_path() {
    let dir = workspace_with_hook(
        None,
        "grep -o '\"file_path\":\"[^\"]*' | cut -d'\"' -f4 >> .agenthub/fired.txt",
        "Read(*.rs)",
    );
    let (root, assembly, hooks) = assembled(dir.path());
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("src/a.rs"), "fn main() {}\n").unwrap();
    std::fs::write(root.join("notes.txt"), "hi\n").unwrap();
    let rust = root.join("src/a.rs").display().to_string();
    let notes = root.join("notes.txt").display().to_string();
    fire(
        &root,
        &assembly,
        &hooks,
        &[
            ("Read", json!({"file_path": rust})),
            ("Read", json!({"file_path": notes})),
        ],
    )
    .await;
    assert_eq!(
        std::fs::read_to_string(root.join(".agenthub/fired.txt")).unwrap(),
        format!("{rust}\n")
    );
}
