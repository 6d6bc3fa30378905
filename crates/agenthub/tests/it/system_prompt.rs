//! The assembled agent's system prompt: options win over the settings files,
//! and an embedder's own `Agent::builder` gets none unless it asks.

use agenthub::{Assembly, Options, TrustChoice, BUILT_IN_PROMPT};
use std::path::Path;

/// The options for `workspace` with `settings` as the `--settings` file
/// (applied last, so it wins over the machine's user file).
fn options(workspace: &Path, settings: &str) -> Options {
    let file = workspace.join("extra-settings.json");
    std::fs::write(&file, settings).unwrap();
    Options {
        settings_files: vec![file],
        trust: TrustChoice::ThisRun,
        ..Options::for_workspace(workspace)
    }
}

/// The instructions and the appended text of the assembled prompt.
fn parts(options: &Options) -> (String, Option<String>) {
    let prompt = Assembly::load(options).unwrap().system_prompt();
    (prompt.instructions, prompt.appended)
}

#[test]
fn settings_keys_replace_and_extend_the_built_in_instructions() {
    let workspace = tempfile::tempdir().unwrap();
    let options = options(
        workspace.path(),
        r#"{"systemPrompt": "from settings", "appendSystemPrompt": "appended by settings"}"#,
    );
    assert_eq!(
        parts(&options),
        (
            "from settings".to_owned(),
            Some("appended by settings".to_owned())
        )
    );
}

#[test]
fn options_win_over_the_settings_keys() {
    let workspace = tempfile::tempdir().unwrap();
    let options = Options {
        system_prompt: Some("from options".to_owned()),
        append_system_prompt: Some("appended by options".to_owned()),
        ..options(
            workspace.path(),
            r#"{"systemPrompt": "from settings", "appendSystemPrompt": "appended by settings"}"#,
        )
    };
    assert_eq!(
        parts(&options),
        (
            "from options".to_owned(),
            Some("appended by options".to_owned())
        )
    );
}

#[test]
fn without_options_or_settings_the_instructions_are_the_built_in_prompt() {
    let workspace = tempfile::tempdir().unwrap();
    let options = options(workspace.path(), "{}");
    assert_eq!(parts(&options), (BUILT_IN_PROMPT.to_owned(), None));
}
