//! Tests of the Grep tool: the three output modes, filters and errors.

use super::*;
use crate::Workspace;
use serde_json::{json, Value};
use std::path::Path;
use tokio_util::sync::CancellationToken;

fn input(pattern: &str) -> GrepInput {
    GrepInput {
        pattern: pattern.to_owned(),
        line_numbers: true,
        ..GrepInput::default()
    }
}

async fn run_output(root: &Path, input: GrepInput) -> Result<ToolOutput, ToolError> {
    let context = ToolContext {
        workspace: Workspace::new(root),
        cancel: CancellationToken::new(),
    };
    Grep.call(input, context).await
}

/// The text the model sees.
async fn run(root: &Path, input: GrepInput) -> Result<String, ToolError> {
    Ok(run_output(root, input).await?.text)
}

/// The structured value hooks see as `tool_response`.
async fn structured_of(root: &Path, input: GrepInput) -> Option<Value> {
    run_output(root, input).await.ok()?.structured
}

/// A workspace with `a.rs` (two matches of `fn`), `b.txt` (one) and `c.md` (none).
fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a.rs"),
        "fn one() {}\nlet x = 1;\nfn two() {}\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("b.txt"), "FN upper\nfn lower\n").unwrap();
    std::fs::write(dir.path().join("c.md"), "nothing here\n").unwrap();
    dir
}

fn at(dir: &tempfile::TempDir, name: &str) -> String {
    dir.path().join(name).display().to_string()
}

#[tokio::test]
async fn files_with_matches_is_the_default_mode() {
    let dir = workspace();
    assert_eq!(
        run(dir.path(), input("fn")).await,
        Ok(format!(
            "Found 2 files\n{}\n{}",
            at(&dir, "a.rs"),
            at(&dir, "b.txt")
        ))
    );
}

#[tokio::test]
async fn content_mode_shows_path_line_number_and_line() {
    let dir = workspace();
    let request = GrepInput {
        output_mode: GrepOutputMode::Content,
        ..input("^fn")
    };
    let (a, b) = (at(&dir, "a.rs"), at(&dir, "b.txt"));
    assert_eq!(
        run(dir.path(), request).await,
        Ok(format!(
            "{a}:1:fn one() {{}}\n{a}:3:fn two() {{}}\n{b}:2:fn lower"
        ))
    );
}

#[tokio::test]
async fn content_mode_without_line_numbers_shows_path_and_line() {
    let dir = workspace();
    let request = GrepInput {
        output_mode: GrepOutputMode::Content,
        line_numbers: false,
        path: Some("b.txt".to_owned()),
        ..input("lower")
    };
    assert_eq!(
        run(dir.path(), request).await,
        Ok(format!("{}:fn lower", at(&dir, "b.txt")))
    );
}

#[tokio::test]
async fn count_mode_counts_matching_lines_per_file() {
    let dir = workspace();
    let request = GrepInput {
        output_mode: GrepOutputMode::Count,
        ..input("fn")
    };
    assert_eq!(
        run(dir.path(), request).await,
        Ok(format!("{}:2\n{}:1", at(&dir, "a.rs"), at(&dir, "b.txt")))
    );
}

#[tokio::test]
async fn dash_i_matches_case_insensitively() {
    let dir = workspace();
    let request = GrepInput {
        output_mode: GrepOutputMode::Count,
        case_insensitive: true,
        glob: Some("*.txt".to_owned()),
        ..input("fn")
    };
    assert_eq!(
        run(dir.path(), request).await,
        Ok(format!("{}:2", at(&dir, "b.txt")))
    );
}

#[tokio::test]
async fn a_glob_with_a_slash_matches_the_path_below_the_search_folder() {
    let dir = workspace();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/lib.rs"), "fn lib() {}\n").unwrap();
    let request = GrepInput {
        glob: Some("src/*.rs".to_owned()),
        ..input("fn")
    };
    assert_eq!(
        run(dir.path(), request).await,
        Ok(format!("Found 1 file\n{}", at(&dir, "src/lib.rs")))
    );
}

#[tokio::test]
async fn head_limit_keeps_the_first_lines_and_counts_the_rest() {
    let dir = workspace();
    let request = GrepInput {
        head_limit: Some(1),
        ..input("fn")
    };
    assert_eq!(
        run(dir.path(), request).await,
        Ok(format!(
            "Found 1 file\n{}\n[head_limit 1: 1 more lines not shown]",
            at(&dir, "a.rs")
        ))
    );
}

#[tokio::test]
async fn gitignored_and_binary_files_are_not_searched() {
    let dir = workspace();
    std::fs::write(dir.path().join(".gitignore"), "ignored.rs\n").unwrap();
    std::fs::write(dir.path().join("ignored.rs"), "fn hidden() {}\n").unwrap();
    std::fs::write(dir.path().join("blob.bin"), b"fn\0binary").unwrap();
    assert_eq!(
        run(dir.path(), input("fn")).await,
        Ok(format!(
            "Found 2 files\n{}\n{}",
            at(&dir, "a.rs"),
            at(&dir, "b.txt")
        ))
    );
}

#[tokio::test]
async fn no_match_is_said_plainly() {
    let dir = workspace();
    assert_eq!(
        run(dir.path(), input("zebra")).await,
        Ok(format!(
            "No matches for \"zebra\" under {}",
            dir.path().display()
        ))
    );
}

#[tokio::test]
async fn an_invalid_regex_is_a_tool_error() {
    let dir = workspace();
    assert_eq!(
        run(dir.path(), input("fn(")).await,
        Err(ToolError::new(
            "invalid regex \"fn(\": regex parse error:\n    fn(\n      ^\nerror: unclosed group"
        ))
    );
}

#[tokio::test]
async fn a_missing_path_is_a_tool_error() {
    let dir = workspace();
    let request = GrepInput {
        path: Some("nope".to_owned()),
        ..input("fn")
    };
    assert_eq!(
        run(dir.path(), request).await,
        Err(ToolError::new(format!(
            "search path does not exist: {}",
            at(&dir, "nope")
        )))
    );
}

#[tokio::test]
async fn hooks_get_the_listed_files_in_files_with_matches_mode() {
    let dir = workspace();
    assert_eq!(
        structured_of(dir.path(), input("fn")).await,
        Some(json!({
            "mode": "files_with_matches",
            "filenames": [at(&dir, "a.rs"), at(&dir, "b.txt")],
            "numFiles": 2,
        }))
    );
}

#[tokio::test]
async fn hooks_get_the_shown_lines_and_the_limit_in_content_mode() {
    let dir = workspace();
    let grep = GrepInput {
        output_mode: GrepOutputMode::Content,
        head_limit: Some(1),
        ..input("fn")
    };
    assert_eq!(
        structured_of(dir.path(), grep).await,
        Some(json!({
            "mode": "content",
            "filenames": [at(&dir, "a.rs"), at(&dir, "b.txt")],
            "numFiles": 2,
            "content": format!("{}:1:fn one() {{}}", at(&dir, "a.rs")),
            "numLines": 1,
            "appliedLimit": 1,
        }))
    );
}

#[tokio::test]
async fn hooks_get_the_counts_and_the_total_in_count_mode() {
    let dir = workspace();
    let grep = GrepInput {
        output_mode: GrepOutputMode::Count,
        ..input("fn")
    };
    assert_eq!(
        structured_of(dir.path(), grep).await,
        Some(json!({
            "mode": "count",
            "filenames": [at(&dir, "a.rs"), at(&dir, "b.txt")],
            "numFiles": 2,
            "content": format!("{}:2\n{}:1", at(&dir, "a.rs"), at(&dir, "b.txt")),
            "numMatches": 3,
        }))
    );
}

#[tokio::test]
async fn hooks_get_an_empty_list_when_nothing_matches() {
    let dir = workspace();
    assert_eq!(
        structured_of(dir.path(), input("absent")).await,
        Some(json!({"mode": "files_with_matches", "filenames": [], "numFiles": 0}))
    );
}
