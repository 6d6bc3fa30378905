//! `CLAUDE_ENV_FILE` is the session's own (contract §28): made exclusively,
//! `0600` in a `0700` folder with a random name, read-only to Bash's sandbox
//! even when the temp dir lies inside the workspace (the refused write named
//! in the result, §29), and gone with its folder once the session ended.

use super::support::*;
use serde_json::json;

#[test]
fn the_env_file_is_private_read_only_to_bash_and_removed_with_its_folder_when_the_session_ends() {
    let case = Case::new();
    // The temp dir inside the workspace: the sandbox could write there.
    let tmp = case.workspace.join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let setup = case.hook(
        "env.sh",
        r#"f="$CLAUDE_ENV_FILE"
stat -c '%a' "$f" "$(dirname "$f")" > "$CLAUDE_PROJECT_DIR/modes.txt"
echo "$f" > "$CLAUDE_PROJECT_DIR/env-path.txt"
echo "export ENVFILE='$f'" >> "$f""#,
    );
    case.hooks(&[("SessionStart", None, command(&setup))]);
    case.script(json!([
        {"content": "running", "tool_calls": [call("call_1", "Bash", json!({"command":
            "echo 'echo planted' >> \"$ENVFILE\" 2>/dev/null && echo wrote || echo refused"}))]},
        {"content": "Result: {{last_tool_result}}"}
    ]));
    case.run()
        .arg("--allow")
        .arg("Bash")
        .env("TMPDIR", &tmp)
        .assert()
        .success();
    let file = std::path::PathBuf::from(case.read("env-path.txt").trim());
    let folder = file.parent().unwrap().to_path_buf();
    let folder_name = folder.file_name().unwrap().to_string_lossy().into_owned();
    assert_eq!(
        (
            case.read("modes.txt"),
            folder.parent() == Some(tmp.as_path()),
            folder_name.starts_with("agenthub-env-") && folder_name.len() > "agenthub-env-".len(),
            case.messages()[2].clone(),
            folder.exists()
        ),
        (
            "600\n700\n".to_owned(),
            true,
            true,
            tool(
                "call_1",
                &format!(
                    "[exit code: 0]\nrefused\n[stderr]\nbash: line 2: {}: Read-only file system\n\
                     [sandbox: write to a protected path refused: tmp/{folder_name} (protected \
                     paths are read-only in the sandbox); if the command needs it, ask to run it \
                     unsandboxed (Bash with dangerouslyDisableSandbox: true; the user is asked)]",
                    file.display()
                )
            ),
            false
        )
    );
}
