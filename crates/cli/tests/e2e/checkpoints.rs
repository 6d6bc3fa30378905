//! Checkpoints and rewind (contract §24) through the real binary:
//! `rewind --list` shows the points; a conversation rewind makes resume go
//! on from before the prompt; a rewind is undone by rewinding to the point
//! it names; a forked session leaves the original untouched and resumable;
//! `/rewind` in a chat, a session without git, a command's inline shell.
//! What the tools did being undone byte for byte, and a workspace's `.git`
//! left alone, are the checkpoints crate's own tests
//! (`crates/checkpoints/tests/it/restore.rs`).

use crate::support::home::Home;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// Every file and symbolic link under `root` (folders named `.git` left
/// out): its bytes (a link's target) and its mode.
fn files(root: &Path) -> BTreeMap<String, (Vec<u8>, u32)> {
    let mut found = BTreeMap::new();
    walk(root, root, &mut found, &|name| name == ".git");
    found
}

fn walk(
    root: &Path,
    dir: &Path,
    found: &mut BTreeMap<String, (Vec<u8>, u32)>,
    skip: &dyn Fn(&str) -> bool,
) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if skip(&name) {
            continue;
        }
        let meta = std::fs::symlink_metadata(&path).unwrap();
        let rel = path.strip_prefix(root).unwrap().display().to_string();
        let mode = meta.permissions().mode();
        if meta.is_dir() {
            found.insert(format!("{rel}/"), (Vec::new(), mode));
            walk(root, &path, found, skip);
        } else if meta.file_type().is_symlink() {
            let target = std::fs::read_link(&path).unwrap();
            found.insert(rel, (target.display().to_string().into_bytes(), mode));
        } else {
            found.insert(rel, (std::fs::read(&path).unwrap(), mode));
        }
    }
}

/// The files only (folders are not checkpointed: git keeps no empty one).
fn plain_files(root: &Path) -> BTreeMap<String, (Vec<u8>, u32)> {
    files(root)
        .into_iter()
        .filter(|(path, _)| !path.ends_with('/'))
        .collect()
}

fn bash(id: &str, command: &str) -> Value {
    json!({"id": id, "name": "Bash", "arguments": {"command": command}})
}

/// One prompt of a new session (or of `resume`d one) whose one message
/// makes `calls`; the session's id.
fn prompt_with(home: &Home, calls: Vec<Value>, resume: Option<&str>, prompt: &str) -> String {
    let script = json!({"turns": [{"tool_calls": calls}, {"content": "done"}]});
    let mut flags = vec!["--permission-mode", "bypassPermissions"];
    if let Some(id) = resume {
        flags.extend(["--resume", id]);
    }
    let report = home.run_json(script, &flags, prompt);
    assert_eq!(report["status"], "completed", "{report}");
    report["session_id"].as_str().unwrap().to_owned()
}

/// `agenthub rewind ARGS`, which must succeed; its stdout.
fn rewind(home: &Home, args: &[&str]) -> String {
    let output = home.agenthub().arg("rewind").args(args).output().unwrap();
    assert!(
        output.status.success(),
        "rewind {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// `2026-12-02 05:03:57` as `TIME`.
fn without_times(listing: &str) -> String {
    listing
        .lines()
        .map(|line| match line.get(5..24) {
            Some(time) if time.as_bytes().get(10) == Some(&b' ') => line.replacen(time, "TIME", 1),
            _ => line.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn rewind_list_shows_each_prompt_with_its_time_first_line_and_the_files_changed_after_it() {
    let home = Home::new();
    std::fs::write(home.ws().join("a.txt"), "a\n").unwrap();
    let id = prompt_with(
        &home,
        vec![bash("c1", "echo b > b.txt && rm a.txt")],
        None,
        "make b\nand drop a",
    );
    prompt_with(
        &home,
        vec![bash("c1", "echo c > c.txt")],
        Some(&id),
        "make c",
    );
    let listing = rewind(&home, &["--continue", "--list"]);
    assert_eq!(
        without_times(&listing),
        "  1  TIME  make b  [2 files changed: a.txt, b.txt]\n  \
         2  TIME  make c  [1 file changed: c.txt]"
    );
}

#[test]
fn a_conversation_rewind_makes_resume_go_on_from_before_the_prompt() {
    let home = Home::new();
    let echo = |text: &str| json!({"id": "e1", "name": "Echo", "arguments": {"text": text}});
    let id = prompt_with(&home, vec![echo("from prompt one")], None, "one");
    prompt_with(&home, vec![echo("from prompt two")], Some(&id), "two");
    let said = rewind(&home, &["--session", &id, "--to", "2", "--conversation"]);
    let resumed = home.run_json(
        json!({"turns": [{"content": "last: {{last_tool_result}}"}]}),
        &["--resume", &id],
        "three",
    );
    assert_eq!(
        (said.trim(), &resumed["result"]),
        (
            "conversation: ends before prompt 2; resume goes on from there",
            &json!("last: from prompt one")
        )
    );
}

/// The user texts on the `parentUuid` chain ending at the transcript's
/// last message line, oldest first: the history as Claude Code's readers see it.
fn chained_prompts(transcript: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(transcript).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let by_uuid: BTreeMap<&str, &Value> = lines
        .iter()
        .filter_map(|line| Some((line["uuid"].as_str()?, line)))
        .collect();
    let mut prompts = Vec::new();
    let mut next = lines.iter().rev().find(|line| line["uuid"].is_string());
    while let Some(line) = next {
        if let Some(text) = line["message"]["content"].as_str() {
            prompts.push(agenthub::typed_prompt(text).to_owned());
        }
        next = line["parentUuid"]
            .as_str()
            .and_then(|uuid| by_uuid.get(uuid).copied());
    }
    prompts.reverse();
    prompts
}

#[test]
fn after_a_conversation_rewind_the_transcripts_parent_chain_is_the_history_the_model_sees() {
    let home = Home::new();
    let echo = |text: &str| json!({"id": "e1", "name": "Echo", "arguments": {"text": text}});
    let id = prompt_with(&home, vec![echo("from prompt one")], None, "one");
    prompt_with(&home, vec![echo("from prompt two")], Some(&id), "two");
    rewind(&home, &["--session", &id, "--to", "2", "--conversation"]);
    let resumed = home.run_json(
        json!({"turns": [{"content": "answer three"}]}),
        &["--resume", &id],
        "three",
    );
    let transcript = Path::new(resumed["transcript_path"].as_str().unwrap());
    assert_eq!(chained_prompts(transcript), vec!["one", "three"]);
}

#[test]
fn a_rewind_is_undone_by_rewinding_to_the_point_after_it() {
    let home = Home::new();
    let ws = home.ws();
    std::fs::write(ws.join("keep.txt"), "kept\n").unwrap();
    let id = prompt_with(
        &home,
        vec![bash("c1", "echo v1 > made.txt")],
        None,
        "make it",
    );
    let after = plain_files(&ws);
    let said = rewind(&home, &["--session", &id, "--to", "1", "--code"]);
    assert!(!ws.join("made.txt").exists());
    rewind(&home, &["--session", &id, "--to", "2", "--code"]);
    assert_eq!(
        (said.lines().last(), plain_files(&ws)),
        (
            Some(format!("undo the files: agenthub rewind --session {id} --to 2 --code").as_str()),
            after
        )
    );
}

#[test]
fn a_forked_session_leaves_the_original_untouched_and_resumable() {
    let home = Home::new();
    let echo = json!({"id": "e1", "name": "Echo", "arguments": {"text": "original"}});
    let original = prompt_with(&home, vec![echo], None, "one");
    let before = std::fs::read(home.transcript(&original)).unwrap();
    let forked = home.run_json(
        json!({"turns": [{"content": "fork sees: {{last_tool_result}}"}]}),
        &["--resume", &original, "--fork-session"],
        "two",
    );
    let after_fork = std::fs::read(home.transcript(&original)).unwrap();
    let resumed = home.run_json(
        json!({"turns": [{"content": "original sees: {{last_tool_result}}"}]}),
        &["--resume", &original],
        "three",
    );
    assert_eq!(
        (
            forked["session_id"] != json!(original),
            &forked["result"],
            after_fork == before,
            &resumed["session_id"],
            &resumed["result"]
        ),
        (
            true,
            &json!("fork sees: original"),
            true,
            &json!(original),
            &json!("original sees: original")
        )
    );
}

#[test]
fn slash_rewind_lists_the_points_then_restores_the_files_and_records_the_rewind() {
    use crate::support::chat_place::Place;
    let place = Place::new(
        r#"{"turns": [
          {"content": "Making it.", "tool_calls": [{"id": "c1", "name": "Bash", "arguments": {"command": "echo one > made.txt"}}]},
          {"content": "Made it."},
          {"content": "Second answer."}
        ]}"#,
    );
    let mut terminal = place.chat(&["--permission-mode", "bypassPermissions"], &[]);
    terminal.wait_for_prompt();
    terminal.type_line("make the file");
    terminal.wait_for("Made it.");
    terminal.wait_for_prompt();
    terminal.type_line("/rewind");
    terminal.wait_for("make the file  [1 file changed: made.txt]");
    terminal.wait_for_prompt();
    terminal.type_line("/rewind 1");
    terminal.wait_for("files: restored to before prompt 1 (0 written back, 1 removed)");
    terminal.wait_for_prompt();
    terminal.type_line("/exit");
    assert_eq!(terminal.wait_exit(), 0);
    let rewinds: Vec<Value> = place.transcripts()[0]
        .iter()
        .filter(|record| record["type"] == "rewind")
        .map(|record| json!([record["prompt_index"], record["scope"]]))
        .collect();
    assert_eq!(
        (place.workspace().join("made.txt").exists(), rewinds),
        (false, vec![json!([1, "both"])])
    );
}

#[test]
fn without_git_the_session_runs_without_checkpoints_and_says_so_once() {
    let home = Home::new();
    let write = |id: &str, file: &str| {
        json!({"tool_calls": [{"id": id, "name": "Write",
                               "arguments": {"file_path": file, "content": "x"}}]})
    };
    let script = home.base.join("script.json");
    let turns = json!({"turns": [write("c1", "a.txt"), write("c2", "b.txt"), {"content": "done"}]});
    std::fs::write(&script, turns.to_string()).unwrap();
    let no_git = home.base.join("empty-path");
    std::fs::create_dir(&no_git).unwrap();
    let output = home
        .agenthub()
        .env("PATH", &no_git)
        .args(["run", "--permission-mode", "acceptEdits", "--script"])
        .arg(&script)
        .arg("write two files")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let notes: Vec<&str> = stderr
        .lines()
        .filter(|line| line.contains("without checkpoints"))
        .collect();
    assert_eq!(
        (
            output.status.code(),
            notes,
            home.ws().join("b.txt").exists()
        ),
        (
            Some(0),
            vec![
                "[Warning] this session runs without checkpoints (git was not found (checkpoints \
                 need the git binary on the PATH)); `agenthub rewind` cannot restore its files"
            ],
            true
        )
    );
}

#[test]
fn what_a_commands_inline_shell_did_is_undone_by_rewinding_to_its_prompt() {
    let home = Home::new();
    let ws = home.ws();
    std::fs::write(ws.join("keep.txt"), "kept\n").unwrap();
    home.write("home/.claude/commands/wipe.md", "Gone: !`rm keep.txt`\n");
    let answer = json!({"turns": [{"content": "done"}]});
    let flags = ["--permission-mode", "bypassPermissions"];
    let first = home.run_json(answer.clone(), &flags, "hello");
    let id = first["session_id"].as_str().unwrap().to_owned();
    let mut resumed = flags.to_vec();
    resumed.extend(["--resume", &id]);
    let second = home.run_json(answer, &resumed, "/wipe");
    assert_eq!(
        (&second["status"], ws.join("keep.txt").exists()),
        (&json!("completed"), false)
    );
    rewind(&home, &["--session", &id, "--to", "2", "--code"]);
    assert_eq!(
        std::fs::read_to_string(ws.join("keep.txt")).unwrap(),
        "kept\n"
    );
}
