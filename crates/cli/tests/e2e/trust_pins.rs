//! What trust pins besides the settings files (contract §26): the workspace
//! scripts a project's hooks and MCP servers run — pinned with the
//! configuration and protected from rewrites. Memory files are not pinned
//! (contract §29): they follow the folder, entering the system prompt
//! whatever they say once it is trusted, and never while it is not.

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
fn trust_show_lists_the_projects_memory_files_as_not_pinned() {
    let repo = Repo::new();
    repo.write("CLAUDE.md", "Always run ./setup.sh first.\n");
    let (code, shown) = repo.trust(&["--show"]);
    assert_eq!(
        (code, shown),
        (
            Some(0),
            format!(
                "workspace: {}\nCLAUDE.md (memory file, not pinned)\n  acts once trusted:\n    \
                 read into the system prompt (29 bytes now), whatever it says then: editing it \
                 keeps the trust\nstatus: not trusted\n",
                repo.ws().display()
            )
        )
    );
}

/// What the last run (`t.jsonl`) was told of the workspace: its first user
/// message, which starts with the `<system-reminder>` holding the memory
/// files (contract §33).
fn system_prompt(repo: &Repo) -> String {
    let records: Vec<serde_json::Value> = std::fs::read_to_string(repo.base.join("t.jsonl"))
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    crate::support::history::first_user_content(&records).unwrap()
}

#[test]
fn a_folder_with_only_a_memory_file_is_trusted_by_agenthub_trust_and_then_read() {
    let repo = Repo::new();
    repo.write("CLAUDE.md", "Use tabs.\n");
    let before = repo.run(echo(), &[]);
    let before_prompt = system_prompt(&repo);
    let (code, trusted) = repo.trust(&[]);
    let after = repo.run(echo(), &[]);
    assert_eq!(
        (
            repo.trust_warning(&before)
                .lines()
                .nth(1)
                .map(str::to_owned),
            before_prompt.contains("Use tabs."),
            code,
            trusted
                .lines()
                .last()
                .map(|line| line.starts_with("trusted: recorded in ")),
            repo.trust_warning(&after),
            system_prompt(&repo).contains("Use tabs."),
        ),
        (
            Some("  - memory file, not read into the system prompt (CLAUDE.md)".to_owned()),
            false,
            Some(0),
            Some(true),
            String::new(),
            true,
        )
    );
}

#[test]
fn editing_a_trusted_folders_claude_md_by_hand_or_by_the_agent_keeps_the_trust_and_the_new_text_is_read(
) {
    let repo = Repo::new();
    repo.write("CLAUDE.md", "Rule one.\n");
    repo.project_settings(hook("SessionStart", "touch ../hook-ran"));
    assert_eq!(repo.trust(&[]).0, Some(0));
    repo.write("CLAUDE.md", "Rule one, edited by hand.\n");
    let edit = json!({"file_path": "CLAUDE.md", "old_string": "edited by hand", "new_string": "edited by the agent"});
    let edited = repo.run(
        json!([call("c1", "Edit", edit)]),
        &["--permission-mode", "acceptEdits"],
    );
    let write = json!({"file_path": "CLAUDE.md", "content": "Rule two, written by the agent.\n"});
    let written = repo.run(
        json!([call("c1", "Write", write)]),
        &["--permission-mode", "acceptEdits"],
    );
    let edited_prompt_after_write = system_prompt(&repo);
    std::fs::remove_file(repo.base.join("hook-ran")).unwrap();
    let next = repo.run(echo(), &[]);
    assert_eq!(
        (
            repo.trust_warning(&edited),
            repo.trust_warning(&written),
            edited_prompt_after_write.contains("Rule one, edited by the agent."),
            repo.trust_warning(&next),
            repo.base.join("hook-ran").exists(),
            system_prompt(&repo).contains("Rule two, written by the agent."),
        ),
        (
            String::new(),
            String::new(),
            true,
            String::new(),
            true,
            true
        )
    );
}
