//! The events contract §21 added, as the CLI shows them: `hooks test` runs a
//! UserPromptExpansion hook. (Their stdin: crates/hooks/tests/it/added_events.rs;
//! that the loop fires them: crates/core/tests/it/added_events.rs; PostCompact
//! runs in e2e::compaction, where a history long enough to compact is built.)

use super::support::*;

#[test]
fn a_user_prompt_expansion_hook_blocks_a_command_in_hooks_test() {
    // Slash commands are another issue's; the event's plumbing is tried
    // through `hooks test` with a real command hook and its matcher.
    let case = Case::new();
    let hook = case.hook(
        "no_deploy.sh",
        "grep -q '\"command_args\": *\"prod' && { echo 'no deploys to prod from here' >&2; exit 2; }; exit 0",
    );
    case.hooks(&[("UserPromptExpansion", Some("deploy"), command(&hook))]);
    case.trust();
    case.write(
        "payload.json",
        r#"{"expansion_type": "slash_command", "command_name": "deploy", "command_args": "prod", "prompt": "/deploy prod"}"#,
    );
    let output = agenthub(&case)
        .args([
            "hooks",
            "test",
            "UserPromptExpansion",
            "--input",
            "payload.json",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(
        (
            output.status.code(),
            stdout
                .lines()
                .skip_while(|line| *line != "merged result:")
                .collect::<Vec<_>>()
        ),
        (
            Some(0),
            vec![
                "merged result:",
                "  the prompt is blocked: no deploys to prod from here"
            ]
        )
    );
}
