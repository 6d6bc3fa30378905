//! Grep's parameters against ripgrep's own output on one small fixture tree:
//! for each parameter, the text Grep returns must be exactly what `rg` prints
//! with the matching flags (paths sorted, hidden files searched, ignore files
//! read outside a git repository, as Grep does). `files_with_matches` output
//! starts with Claude Code's `Found N files` line, which `rg -l` does not print.
//!
//! Needs `rg` on the PATH (`.ci/run` installs it).

use agenthub_tools::builtin::Grep;
use agenthub_tools::{ToolContext, ToolDefinition, Workspace};
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;
use tokio_util::sync::CancellationToken;

/// The fixture: code, prose, a gitignored file, a hidden file, a binary file.
fn fixture() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let files: [(&str, &[u8]); 9] = [
        (
            "src/main.rs",
            b"use std::io;\n\nfn main() {\n    let x = 1;\n    helper(x);\n}\n\nfn helper(x: i32) {\n    println!(\"{x}\");\n}\n",
        ),
        (
            "src/lib.rs",
            b"//! Lib.\npub struct Thing;\n\nimpl Drop for Thing {\n    fn drop(&mut self) {}\n}\n",
        ),
        ("src/Upper.RS", b"FN shouting() {}\n"),
        ("docs/notes.md", b"# Notes\nfn is a keyword\nnothing\nmore fn here\n"),
        ("tools/build.py", b"def main():\n    print('fn')\n"),
        (".gitignore", b"ignored.rs\n"),
        ("ignored.rs", b"fn ignored() {}\n"),
        (".hidden.rs", b"fn hidden() {}\n"),
        ("data.bin", b"fn\x00binary fn\n"),
    ];
    for (name, content) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }
    dir
}

async fn grep(root: &Path, input: Value) -> String {
    let context = ToolContext {
        workspace: Workspace::new(root),
        cancel: CancellationToken::new(),
    };
    let output = ToolDefinition::new(Grep)
        .unwrap()
        .invoke(input, context)
        .await
        .unwrap();
    output.text
}

/// `rg` with Grep's walk settings, the given flags, the pattern and the root,
/// run in the root (ripgrep matches `--glob` patterns with a `/` against the
/// path below its working folder; Grep against the path below the search folder).
fn rg(root: &Path, flags: &[&str], pattern: &str) -> String {
    let output = Command::new("rg")
        .current_dir(root)
        .args([
            "--no-config",
            "--hidden",
            "--no-require-git",
            "--color",
            "never",
        ])
        .args(["--no-heading", "--with-filename", "--sort", "path"])
        .args(flags)
        .arg("--regexp")
        .arg(pattern)
        .arg(root)
        .output()
        .expect("ripgrep (rg) is needed by these tests: apt-get install ripgrep");
    String::from_utf8(output.stdout)
        .unwrap()
        .trim_end()
        .to_owned()
}

/// Asserts Grep's text for `input` equals `rg`'s output for `flags`.
async fn same_as_rg(input: Value, flags: &[&str]) {
    let dir = fixture();
    let root = dir.path().canonicalize().unwrap();
    let pattern = input["pattern"].as_str().unwrap().to_owned();
    let expected = rg(&root, flags, &pattern);
    assert!(!expected.is_empty(), "rg found nothing for {input}");
    let mut text = grep(&root, input).await;
    if flags.contains(&"--files-with-matches") {
        let (header, rest) = text.split_once('\n').unwrap();
        let files = rest.lines().count();
        let noun = if files == 1 { "file" } else { "files" };
        assert_eq!(header, format!("Found {files} {noun}"));
        text = rest.to_owned();
    }
    assert_eq!(text, expected);
}

#[tokio::test]
async fn files_with_matches_lists_what_rg_l_lists() {
    same_as_rg(json!({"pattern": "fn"}), &["--files-with-matches"]).await;
}

#[tokio::test]
async fn content_with_line_numbers_is_rg_n() {
    let input = json!({"pattern": "fn \\w+", "output_mode": "content"});
    same_as_rg(input, &["--line-number"]).await;
}

#[tokio::test]
async fn content_without_line_numbers_is_rg_big_n() {
    let input = json!({"pattern": "fn", "output_mode": "content", "-n": false});
    same_as_rg(input, &["--no-line-number"]).await;
}

#[tokio::test]
async fn count_is_rg_c() {
    let input = json!({"pattern": "fn", "output_mode": "count"});
    same_as_rg(input, &["--count"]).await;
}

#[tokio::test]
async fn dash_i_is_rg_i() {
    let input = json!({"pattern": "fn", "output_mode": "content", "-i": true});
    same_as_rg(input, &["--line-number", "--ignore-case"]).await;
}

#[tokio::test]
async fn after_context_is_rg_a() {
    let input = json!({"pattern": "^fn", "output_mode": "content", "-A": 1});
    same_as_rg(input, &["--line-number", "--after-context", "1"]).await;
}

#[tokio::test]
async fn before_context_is_rg_b() {
    let input = json!({"pattern": "^fn", "output_mode": "content", "-B": 2});
    same_as_rg(input, &["--line-number", "--before-context", "2"]).await;
}

#[tokio::test]
async fn context_is_rg_c_with_separators_between_groups_and_files() {
    let input = json!({"pattern": "fn", "output_mode": "content", "-C": 1});
    same_as_rg(input, &["--line-number", "--context", "1"]).await;
}

#[tokio::test]
async fn glob_is_rg_g() {
    let input = json!({"pattern": "fn", "glob": "*.rs"});
    same_as_rg(input, &["--files-with-matches", "--glob", "*.rs"]).await;
}

#[tokio::test]
async fn a_glob_with_a_folder_is_rg_g() {
    let input = json!({"pattern": "fn", "glob": "src/*.rs", "output_mode": "count"});
    same_as_rg(input, &["--count", "--glob", "src/*.rs"]).await;
}

#[tokio::test]
async fn a_negated_glob_is_rg_g() {
    let input = json!({"pattern": "fn", "glob": "!*.md"});
    same_as_rg(input, &["--files-with-matches", "--glob", "!*.md"]).await;
}

#[tokio::test]
async fn type_is_rg_t() {
    let input = json!({"pattern": "fn", "type": "py", "output_mode": "content"});
    same_as_rg(input, &["--line-number", "--type", "py"]).await;
}

#[tokio::test]
async fn multiline_is_rg_u_multiline_dotall() {
    let input =
        json!({"pattern": "impl Drop.*?fn drop", "output_mode": "content", "multiline": true});
    same_as_rg(
        input,
        &["--line-number", "--multiline", "--multiline-dotall"],
    )
    .await;
}

#[tokio::test]
async fn multiline_count_is_rg_u_c() {
    let input = json!({"pattern": "\\{\\n\\s+", "output_mode": "count", "multiline": true});
    same_as_rg(input, &["--count", "--multiline", "--multiline-dotall"]).await;
}

#[tokio::test]
async fn an_unknown_type_is_a_tool_error_naming_it() {
    let dir = fixture();
    let context = ToolContext {
        workspace: Workspace::new(dir.path()),
        cancel: CancellationToken::new(),
    };
    let input = json!({"pattern": "fn", "type": "nosuchtype"});
    let error = ToolDefinition::new(Grep)
        .unwrap()
        .invoke(input, context)
        .await
        .unwrap_err();
    assert_eq!(
        error.message,
        "invalid file type \"nosuchtype\": unrecognized file type: nosuchtype"
    );
}

#[tokio::test]
async fn offset_and_head_limit_page_through_the_output() {
    let dir = fixture();
    let root = dir.path().canonicalize().unwrap();
    let all = rg(&root, &["--count"], "fn");
    let lines: Vec<&str> = all.lines().collect();
    let input = json!({"pattern": "fn", "output_mode": "count", "offset": 1, "head_limit": 2});
    assert_eq!(
        grep(&root, input).await,
        format!(
            "{}\n{}\n[head_limit 2: {} more lines not shown]",
            lines[1],
            lines[2],
            lines.len() - 3
        )
    );
}
