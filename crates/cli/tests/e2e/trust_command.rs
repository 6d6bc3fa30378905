//! `agenthub trust` through the real binary (contract §11): trust is pinned to
//! the content of the files, `--show` lists what the configuration would do and
//! records nothing, trusting reads no stdin and `--revoke` forgets,
//! `--trust-project` trusts one run only, and state files are private.

use crate::trust::{echo, hook, Repo};
use serde_json::json;

#[test]
fn trust_is_pinned_to_the_content_of_the_files() {
    let repo = Repo::new();
    let settings = hook("UserPromptSubmit", "echo ran >> ../runs.log");
    repo.project_settings(settings.clone());
    let runs = || {
        std::fs::read_to_string(repo.base.join("runs.log"))
            .unwrap_or_default()
            .lines()
            .count()
    };
    assert_eq!(repo.trust(&[]).0, Some(0));
    repo.run(echo(), &[]);
    assert_eq!(runs(), 1);
    repo.write(".agenthub/settings.json", &format!("{settings}\n"));
    let output = repo.run(echo(), &[]);
    let warning = repo.trust_warning(&output);
    assert_eq!(
        (runs(), warning.lines().next()),
        (
            1,
            Some(
                format!(
                    "agenthub: warning: the configuration in {} changed since you trusted it; set aside until you trust it:",
                    repo.ws().display()
                )
                .as_str()
            )
        )
    );
    assert_eq!(repo.trust(&[]).0, Some(0));
    repo.run(echo(), &[]);
    assert_eq!(runs(), 2);
}

#[test]
fn trust_show_lists_everything_the_configuration_would_do_and_records_nothing() {
    let repo = Repo::new();
    repo.project_settings(json!({
        "permissions": {"allow": ["Bash(npm test:*)"], "deny": ["Read(./.env)"]},
        "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]},
        "env": {"NODE_ENV": "test"},
        "baseUrl": "http://127.0.0.1:9/v1"
    }));
    repo.write(
        ".mcp.json",
        r#"{"mcpServers": {"memory": {"command": "npx", "args": ["-y", "server-memory"]}}}"#,
    );
    let (code, shown) = repo.trust(&["--show"]);
    let lines: Vec<&str> = shown
        .lines()
        .filter(|line| !line.contains("(sha256 "))
        .collect();
    assert_eq!(
        (code, lines),
        (
            Some(0),
            vec![
                format!("workspace: {}", repo.ws().display()).as_str(),
                "  acts once trusted:",
                "    PreToolUse hook (matcher Bash): ./guard.sh",
                "    allow rule: Bash(npm test:*)",
                "    env NODE_ENV=\"test\"",
                "    baseUrl: http://127.0.0.1:9/v1",
                "  applies already:",
                "    deny rule: Read(./.env)",
                "  acts once trusted:",
                "    MCP server memory: npx -y server-memory",
                "status: not trusted",
            ]
        )
    );
    assert_eq!(
        repo.trust(&["--show"]).1.lines().last(),
        Some("status: not trusted")
    );
}

#[test]
fn trust_show_lists_a_projects_subagent_definitions() {
    let repo = Repo::new();
    std::fs::create_dir_all(repo.ws().join(".claude/agents")).unwrap();
    repo.write(
        ".claude/agents/reviewer.md",
        "---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep\n---\nYou review.\n",
    );
    let (code, shown) = repo.trust(&["--show"]);
    let lines: Vec<String> = shown
        .lines()
        .map(|line| match line.split_once(" (sha256 ") {
            Some((name, _)) => name.to_owned(),
            None => line.to_owned(),
        })
        .collect();
    assert_eq!(
        (code, lines),
        (
            Some(0),
            vec![
                format!("workspace: {}", repo.ws().display()),
                ".claude/agents/reviewer.md".to_owned(),
                "  acts once trusted:".to_owned(),
                "    subagent reviewer: Reviews code (tools: Read, Grep; model: inherit)"
                    .to_owned(),
                "status: not trusted".to_owned(),
            ]
        )
    );
}

#[test]
fn state_files_are_created_0600_in_0700_folders() {
    use std::os::unix::fs::PermissionsExt;
    let repo = Repo::new();
    repo.project_settings(json!({"permissions": {"deny": ["Bash(rm:*)"]}}));
    assert_eq!(repo.trust(&[]).0, Some(0));
    let script = repo.base.join("script.json");
    std::fs::write(&script, json!({"turns": [{"content": "done"}]}).to_string()).unwrap();
    let output = repo
        .agenthub()
        .args(["run", "--script"])
        .arg(&script)
        .arg("go")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let state = repo.base.join("home/.local/state/agenthub");
    let transcript = std::fs::read_dir(state.join("transcripts"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let mode =
        |path: &std::path::Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(
        [
            mode(&state),
            mode(&state.join("trust.json")),
            mode(&state.join("transcripts")),
            mode(&transcript),
        ],
        [0o700, 0o600, 0o700, 0o600]
    );
}

#[test]
fn trust_records_without_reading_stdin_and_revoke_forgets() {
    let repo = Repo::new();
    repo.project_settings(hook("UserPromptSubmit", "touch ran"));
    let (code, text) = repo.trust(&[]);
    let store = repo.base.join("home/.local/state/agenthub/trust.json");
    assert_eq!(
        (code, text.lines().last()),
        (
            Some(0),
            Some(
                format!(
                    "trusted: this file is pinned by SHA-256 in {}; a change needs `agenthub trust` again",
                    store.display()
                )
                .as_str()
            )
        )
    );
    assert_eq!(
        repo.trust(&["--show"]).1.lines().last(),
        Some("status: trusted")
    );
    assert_eq!(
        repo.trust(&["--revoke"]),
        (
            Some(0),
            format!("revoked: {} is no longer trusted\n", repo.ws().display())
        )
    );
    repo.run(echo(), &[]);
    assert!(!repo.exists("ran"));
}

#[test]
fn trust_project_trusts_for_one_run_only() {
    let repo = Repo::new();
    repo.project_settings(hook("UserPromptSubmit", "touch ran"));
    repo.run(echo(), &["--trust-project"]);
    assert!(repo.exists("ran"));
    std::fs::remove_file(repo.ws().join("ran")).unwrap();
    repo.run(echo(), &[]);
    assert_eq!(
        (
            repo.exists("ran"),
            repo.trust(&["--show"]).1.lines().last().map(str::to_owned)
        ),
        (false, Some("status: not trusted".to_owned()))
    );
}
