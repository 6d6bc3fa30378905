//! What trust pins besides the settings files (contract §26): the workspace
//! scripts a project's hooks and MCP servers run — pinned with the
//! configuration and protected from rewrites — and its memory files, which
//! enter the system prompt only once trusted.

use super::trust::{call, echo, hook, Repo, DENIED};
use serde_json::json;

/// A project whose PostToolUse hook runs `./scripts/post.sh` (which
/// touches `hook-ran`), trusted.
fn trusted_with_hook_script() -> Repo {
    let repo = Repo::new();
    std::fs::create_dir_all(repo.ws().join("scripts")).unwrap();
    repo.write("scripts/post.sh", "#!/bin/sh\ntouch hook-ran\n");
    std::fs::set_permissions(
        repo.ws().join("scripts/post.sh"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    repo.project_settings(hook("PostToolUse", "./scripts/post.sh"));
    assert_eq!(repo.trust(&[]).0, Some(0));
    repo
}

#[test]
fn a_trusted_projects_hook_script_cannot_be_rewritten_without_a_question_in_accept_edits() {
    let repo = trusted_with_hook_script();
    let script = repo.ws().join("scripts/post.sh");
    let rewrite = json!({"file_path": "scripts/post.sh", "content": "#!/bin/sh\ntouch pwned\n"});
    repo.run(
        json!([
            call("c1", "Write", rewrite),
            call(
                "c2",
                "Bash",
                json!({"command": "echo 'touch pwned' >> scripts/post.sh"})
            )
        ]),
        &["--permission-mode", "acceptEdits"],
    );
    assert_eq!(
        (repo.tool_results(), std::fs::read_to_string(&script).unwrap()),
        (
            vec![
                format!(
                    "Error [permission_denied]: the tool was not run: permission denied: approval required"
                ),
                DENIED.to_owned()
            ],
            "#!/bin/sh\ntouch hook-ran\n".to_owned()
        )
    );
}

#[test]
fn trust_pins_a_hook_script_so_a_changed_script_does_not_run() {
    let repo = trusted_with_hook_script();
    repo.write("scripts/post.sh", "#!/bin/sh\ntouch pwned\n");
    let output = repo.run(echo(), &[]);
    assert_eq!(
        (
            repo.exists("pwned"),
            repo.trust_warning(&output).lines().next().map(str::to_owned)
        ),
        (
            false,
            Some(format!(
                "agenthub: warning: the configuration in {} changed since you trusted it; set aside until you trust it:",
                repo.ws().display()
            ))
        )
    );
    assert_eq!(repo.trust(&[]).0, Some(0));
    repo.run(echo(), &[]);
    assert!(repo.exists("pwned"), "runs once trusted again");
}

#[test]
fn trust_show_lists_a_hook_script_as_pinned_and_protected() {
    let repo = trusted_with_hook_script();
    let (_, shown) = repo.trust(&["--show"]);
    let lines: Vec<&str> = shown
        .lines()
        .skip_while(|line| !line.starts_with("scripts/post.sh (sha256 "))
        .collect();
    assert_eq!(
        lines[1..],
        [
            "  acts once trusted:",
            "    run by a project hook or MCP server (25 bytes); protected from writes",
            "status: trusted",
        ]
    );
}

#[test]
fn trust_pins_the_script_an_mcp_server_runs() {
    let repo = Repo::new();
    std::fs::create_dir_all(repo.ws().join("tools")).unwrap();
    repo.write("tools/server.py", "print('serving')\n");
    repo.write(
        ".mcp.json",
        r#"{"mcpServers": {"local": {"command": "python3", "args": ["tools/server.py"]}}}"#,
    );
    let (_, shown) = repo.trust(&["--show"]);
    let files: Vec<&str> = shown
        .lines()
        .filter_map(|line| line.split_once(" (sha256 ").map(|(name, _)| name))
        .collect();
    assert_eq!(files, [".mcp.json", "tools/server.py"]);
}

#[test]
fn trust_show_lists_the_projects_memory_files() {
    let repo = Repo::new();
    repo.write("CLAUDE.md", "Always run ./setup.sh first.\n");
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
                "CLAUDE.md".to_owned(),
                "  acts once trusted:".to_owned(),
                "    memory file: read into the system prompt (29 bytes)".to_owned(),
                "status: not trusted".to_owned(),
            ]
        )
    );
}
