//! The examples an embedder copies from are run here, offline, and the
//! README's embedding example is the example file itself, so neither can rot.

#[path = "../../examples/embed.rs"]
#[allow(dead_code)]
mod embed;

#[path = "../../examples/custom_tool.rs"]
#[allow(dead_code)]
mod custom_tool;

use agenthub::{Message, RunStatus};

fn tool_results(history: &[Message]) -> Vec<(String, String)> {
    history
        .iter()
        .filter_map(|message| match message {
            Message::Tool {
                tool_call_id,
                content,
                ..
            } => Some((tool_call_id.clone(), content.clone())),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn the_embed_example_blocks_rm_with_its_hook_and_denies_an_unapproved_ask() {
    let workspace = tempfile::TempDir::new().unwrap();
    let report = embed::run_in(workspace.path()).await.unwrap();
    assert_eq!(
        (report.status, tool_results(&report.history)),
        (
            RunStatus::Completed,
            vec![
                (
                    "call_1".to_owned(),
                    "Error [hook_blocked]: rm -rf is not allowed here".to_owned()
                ),
                (
                    "call_2".to_owned(),
                    "Error [permission_denied]: the tool was not run: permission denied: \
                     approval required"
                        .to_owned()
                ),
            ]
        )
    );
}

#[test]
fn the_readme_embedding_example_is_the_embed_example() {
    let readme = include_str!("../../../../README.md");
    let example = include_str!("../../examples/embed.rs");
    let block = readme
        .split("```rust\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .unwrap_or_default();
    assert_eq!(block, example);
}

#[tokio::test]
async fn the_custom_tool_example_runs_a_valid_call_and_refuses_one_its_schema_refuses() {
    let workspace = tempfile::TempDir::new().unwrap();
    std::fs::write(workspace.path().join("notes.txt"), "three short words").unwrap();
    let report = custom_tool::run_in(workspace.path()).await.unwrap();
    let results = tool_results(&report.history);
    assert_eq!(results[0], ("call_1".to_owned(), "3 words".to_owned()));
    assert_eq!(
        results[1],
        (
            "call_2".to_owned(),
            "Error [invalid_arguments]: the tool was not run: the arguments of WordCount do not \
             match its schema: at /: Additional properties are not allowed ('file' was unexpected); \
             at /: \"path\" is a required property"
                .to_owned()
        )
    );
    let notes: Vec<&str> = report
        .history
        .iter()
        .filter_map(|message| match message {
            Message::System { content } => Some(content.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(notes.len(), 1);
    assert!(notes[0].starts_with("WordCount took "), "{notes:?}");
}
