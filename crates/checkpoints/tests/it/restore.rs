//! What a session's tools did is undone byte for byte by a rewind of the
//! files (contract §24): Bash's `rm`, `mv`, `sed -i` and a build writing
//! many files, Write and Edit, modes included; a workspace that is a git
//! repository keeps its `.git` byte-identical, and its ignored files are not
//! checkpointed.

use crate::support::{bash, everything, plain_files, Place};
use agenthub_protocol::RewindScope;
use serde_json::{json, Value};
use std::path::Path;

/// Sets the workspace up, runs one prompt making `calls`, checks they
/// changed the files, rewinds the files to before it, and compares.
async fn undone_byte_for_byte(setup: &[(&str, &[u8], u32)], calls: Vec<Value>) {
    let place = Place::new();
    for (rel, bytes, mode) in setup {
        place.file(rel, bytes, *mode);
    }
    let before = plain_files(&place.ws);
    place.session(&[("change the files", calls)]).await;
    assert_ne!(plain_files(&place.ws), before, "the calls changed nothing");
    place.rewind(1, RewindScope::Code);
    assert_eq!(plain_files(&place.ws), before);
}

const BINARY: &[u8] = &[0, 1, 2, 0xff, 0xfe, b'\r', b'\n', b'x', 0];

#[tokio::test]
async fn a_bash_rm_is_undone_byte_for_byte_with_the_executable_bit() {
    undone_byte_for_byte(
        &[
            ("data.bin", BINARY, 0o644),
            ("tool.sh", b"#!/bin/sh\necho hi\n", 0o755),
        ],
        vec![bash("c1", "rm data.bin tool.sh")],
    )
    .await;
}

#[tokio::test]
async fn a_bash_mv_is_undone_byte_for_byte() {
    undone_byte_for_byte(
        &[("a.txt", b"alpha\r\n", 0o644)],
        vec![bash("c1", "mkdir -p moved && mv a.txt moved/b.txt")],
    )
    .await;
}

#[tokio::test]
async fn a_sed_in_place_edit_is_undone_byte_for_byte() {
    undone_byte_for_byte(
        &[("conf.txt", b"name = old\nkeep = old\n", 0o600)],
        vec![bash("c1", "sed -i s/old/new/ conf.txt")],
    )
    .await;
}

#[tokio::test]
async fn a_build_that_writes_many_files_is_undone() {
    undone_byte_for_byte(
        &[("src/main.c", b"int main(){}\n", 0o644)],
        vec![bash(
            "c1",
            "mkdir -p build/obj && for i in $(seq 1 300); do printf 'obj %s' $i > build/obj/o$i.o; done \
             && printf changed > src/main.c && chmod +x src/main.c",
        )],
    )
    .await;
}

#[tokio::test]
async fn write_and_edit_are_undone_byte_for_byte() {
    let read = json!({"id": "c1", "name": "Read", "arguments": {"file_path": "notes.md"}});
    let edit = json!({"id": "c2", "name": "Edit", "arguments": {
        "file_path": "notes.md", "old_string": "first line", "new_string": "edited line"}});
    let write = json!({"id": "c3", "name": "Write", "arguments": {
        "file_path": "docs/new.md", "content": "brand new\n"}});
    undone_byte_for_byte(
        &[("notes.md", b"# Notes\nfirst line\n", 0o644)],
        vec![read, edit, write],
    )
    .await;
}

/// `git ARGS` in `dir`, isolated from the caller's configuration.
fn git(dir: &Path, args: &[&str]) {
    let status = std::process::Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@t")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@t")
        .status()
        .unwrap();
    assert!(status.success(), "git {args:?}");
}

#[tokio::test]
async fn a_workspace_that_is_a_git_repository_keeps_its_git_folder_byte_identical() {
    let place = Place::new();
    let ws = &place.ws;
    std::fs::write(ws.join("tracked.txt"), "v1\n").unwrap();
    std::fs::write(ws.join(".gitignore"), "ignored.log\n").unwrap();
    std::fs::write(ws.join("ignored.log"), "log\n").unwrap();
    git(ws, &["init", "--quiet"]);
    git(ws, &["add", "."]);
    git(ws, &["commit", "--quiet", "-m", "one"]);
    std::fs::write(ws.join("tracked.txt"), "v2 (uncommitted)\n").unwrap();
    let dot_git = everything(&ws.join(".git"));
    let before = plain_files(ws);
    let calls = vec![bash(
        "c1",
        "rm tracked.txt && echo new > made.txt && echo more >> ignored.log",
    )];
    place.session(&[("change the files", calls)]).await;
    assert_eq!(
        everything(&ws.join(".git")),
        dot_git,
        "the run changed .git"
    );
    place.rewind(1, RewindScope::Code);
    let mut expected = before;
    // Ignored files are not checkpointed: the rewind leaves them as they are.
    expected.insert(
        "ignored.log".to_owned(),
        (b"log\nmore\n".to_vec(), 0o100644),
    );
    assert_eq!(
        (everything(&ws.join(".git")) == dot_git, plain_files(ws)),
        (true, expected)
    );
}
