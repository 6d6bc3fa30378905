//! `agenthub batch` end to end (contract §18): tasks as independent scripted
//! sessions N at a time, one result line per task whatever happens to it,
//! git workspaces cloned fresh and removed unless `--keep`, and Ctrl-C
//! cancelling every task while still writing every line.

use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A batch case: a temp folder holding the home, the temp dir for clones,
/// a workspace, the scripts and the task list.
struct Batch {
    dir: tempfile::TempDir,
}

impl Batch {
    fn new() -> Batch {
        let batch = Batch {
            dir: tempfile::tempdir().unwrap(),
        };
        for sub in ["home", "tmp", "ws"] {
            std::fs::create_dir(batch.path(sub)).unwrap();
        }
        batch
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// Writes a script of `turns` as `name` beside the task list.
    fn script(&self, name: &str, turns: Value) {
        std::fs::write(self.path(name), json!({ "turns": turns }).to_string()).unwrap();
    }

    fn tasks(&self, tasks: &[Value]) -> PathBuf {
        let lines: Vec<String> = tasks.iter().map(Value::to_string).collect();
        let path = self.path("tasks.jsonl");
        std::fs::write(&path, lines.join("\n")).unwrap();
        path
    }

    /// `agenthub batch tasks.jsonl ARGS`, isolated from the user's files.
    fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(assert_cmd::cargo::cargo_bin("agenthub"));
        command
            .arg("batch")
            .arg(self.path("tasks.jsonl"))
            .args(args)
            .env("HOME", self.path("home"))
            .env("XDG_CONFIG_HOME", self.path("home/.config"))
            .env("XDG_STATE_HOME", self.path("home/.local/state"))
            .env("TMPDIR", self.path("tmp"))
            .stdin(Stdio::null());
        command
    }

    /// The result lines of `--out results.jsonl`, by id.
    fn results(&self) -> BTreeMap<String, Value> {
        std::fs::read_to_string(self.path("results.jsonl"))
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str::<Value>(line).unwrap())
            .map(|line| (line["id"].as_str().unwrap().to_owned(), line))
            .collect()
    }

    /// What the temp dir holds (clones left behind), by name.
    fn temp_entries(&self) -> Vec<PathBuf> {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(self.path("tmp"))
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .collect();
        entries.sort();
        entries
    }
}

fn task(id: &str, script: &str, workspace: Value, settings: Value) -> Value {
    json!({"id": id, "prompt": "do it", "workspace": workspace, "script": script, "settings": settings})
}

fn bash_turns(command: &str) -> Value {
    json!([
        {"content": "running", "tool_calls": [
            {"id": "call_1", "name": "Bash", "arguments": {"command": command}}]},
        {"content": "{{last_tool_result}}"}
    ])
}

/// Tasks' Bash calls run without asking: the task's own settings say so.
fn bypass() -> Value {
    json!({"permissions": {"defaultMode": "bypassPermissions"}})
}

#[test]
fn fifty_tasks_four_at_a_time_each_get_a_line_and_one_failure_stops_no_other() {
    let batch = Batch::new();
    batch.script("ok.json", json!([{"content": "done"}]));
    let mut tasks: Vec<Value> = (0..49)
        .map(|n| {
            task(
                &format!("t{n:02}"),
                "ok.json",
                json!({"path": "ws"}),
                json!({}),
            )
        })
        .collect();
    tasks.insert(
        17,
        task("broken", "missing.json", json!({"path": "ws"}), json!({})),
    );
    batch.tasks(&tasks);
    let status = batch
        .command(&["--parallel", "4", "--out"])
        .arg(batch.path("results.jsonl"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    let outcomes: BTreeMap<String, (Value, Value)> = batch
        .results()
        .into_iter()
        .map(|(id, line)| (id, (line["status"].clone(), line["is_error"].clone())))
        .collect();
    let mut expected: BTreeMap<String, (Value, Value)> = (0..49)
        .map(|n| (format!("t{n:02}"), (json!("completed"), json!(false))))
        .collect();
    expected.insert("broken".to_owned(), (json!("failed"), json!(true)));
    assert_eq!((status.code(), outcomes), (Some(1), expected));
}

#[test]
fn every_successful_task_exits_zero_with_one_summary_line_on_stderr() {
    let batch = Batch::new();
    batch.script("ok.json", json!([{"content": "done"}]));
    batch.tasks(&[task("only", "ok.json", json!({"path": "ws"}), json!({}))]);
    let output = batch.command(&[]).output().unwrap();
    let line: Value = serde_json::from_slice(&output.stdout).unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        (
            output.status.code(),
            line["id"].clone(),
            line["result"].clone(),
            stderr.lines().count(),
            stderr.contains("batch: 1 tasks in ")
                && stderr.contains(": 1 succeeded, 0 failed, 0 cancelled"),
        ),
        (Some(0), json!("only"), json!("done"), 1, true)
    );
}

/// Runs git in `dir` with a fixed identity.
fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "git {args:?}");
}

/// A bare repository (`remote.git`) whose `v1` holds `a.txt` = "from v1".
fn remote(batch: &Batch) -> String {
    let work = batch.path("work");
    std::fs::create_dir(&work).unwrap();
    git(&work, &["init", "--quiet", "--initial-branch=main"]);
    std::fs::write(work.join("a.txt"), "from v1").unwrap();
    git(&work, &["add", "a.txt"]);
    git(&work, &["commit", "--quiet", "-m", "v1"]);
    git(&work, &["tag", "v1"]);
    git(
        batch.dir.path(),
        &["clone", "--quiet", "--bare", "work", "remote.git"],
    );
    format!("file://{}", batch.path("remote.git").display())
}

/// One git task whose Bash writes `made.txt` in its clone and prints `a.txt`.
fn git_batch() -> Batch {
    let batch = Batch::new();
    let url = remote(&batch);
    batch.script("git.json", bash_turns("echo made > made.txt && cat a.txt"));
    batch.tasks(&[task(
        "g",
        "git.json",
        json!({"git": url, "ref": "v1"}),
        bypass(),
    )]);
    batch
}

#[test]
fn a_git_task_works_in_a_fresh_clone_that_is_removed_after_its_line() {
    let batch = git_batch();
    let status = batch
        .command(&["--out"])
        .arg(batch.path("results.jsonl"))
        .stderr(Stdio::null())
        .status()
        .unwrap();
    let line = &batch.results()["g"];
    assert_eq!(
        (
            status.code(),
            line["status"].clone(),
            line["result"].clone(),
            batch.temp_entries()
        ),
        (
            Some(0),
            json!("completed"),
            json!("[exit code: 0]\nfrom v1"),
            vec![]
        )
    );
}

#[test]
fn keep_leaves_the_clone_with_the_files_the_task_wrote() {
    let batch = git_batch();
    let status = batch
        .command(&["--keep", "--out"])
        .arg(batch.path("results.jsonl"))
        .stderr(Stdio::null())
        .status()
        .unwrap();
    let kept: Vec<(String, Option<String>)> = batch
        .temp_entries()
        .iter()
        .map(|entry| {
            let name = entry.file_name().unwrap().to_string_lossy().into_owned();
            let prefix = name.get(..16).unwrap_or_default().to_owned();
            (prefix, std::fs::read_to_string(entry.join("made.txt")).ok())
        })
        .collect();
    assert_eq!(
        (status.code(), kept),
        (
            Some(0),
            vec![("agenthub-task-g-".to_owned(), Some("made\n".to_owned()))]
        )
    );
}

/// Whether a process runs `sleep <seconds>` (read from /proc).
fn sleeping(seconds: &str) -> usize {
    let wanted = format!("sleep\0{seconds}\0");
    std::fs::read_dir("/proc").map_or(0, |entries| {
        entries
            .flatten()
            .filter(|entry| {
                std::fs::read(entry.path().join("cmdline"))
                    .is_ok_and(|cmdline| cmdline == wanted.as_bytes())
            })
            .count()
    })
}

fn wait_for(what: &str, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !ready() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn ctrl_c_cancels_the_running_tasks_and_still_writes_a_line_for_every_task() {
    let batch = Batch::new();
    let seconds = format!("5.{}", std::process::id());
    batch.script("sleep.json", bash_turns(&format!("sleep {seconds}")));
    let tasks: Vec<Value> = (0..6)
        .map(|n| {
            task(
                &format!("s{n}"),
                "sleep.json",
                json!({"path": "ws"}),
                bypass(),
            )
        })
        .collect();
    batch.tasks(&tasks);
    let mut child = batch
        .command(&["--parallel", "2", "--out"])
        .arg(batch.path("results.jsonl"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for("two tasks to sleep", || sleeping(&seconds) == 2);
    let pid = child.id().to_string();
    assert!(Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap()
        .success());
    let code = child.wait().unwrap().code();
    let mut statuses: Vec<(Value, Value)> = batch
        .results()
        .values()
        .map(|line| (line["status"].clone(), line["is_error"].clone()))
        .collect();
    statuses.sort_by_key(|status| status.0.to_string());
    assert_eq!(
        (code, statuses),
        (Some(130), vec![(json!("cancelled"), json!(true)); 6])
    );
    wait_for("the sleeps to be killed", || sleeping(&seconds) == 0);
}

#[test]
fn a_malformed_task_list_is_a_usage_error_naming_the_line() {
    let batch = Batch::new();
    std::fs::write(batch.path("tasks.jsonl"), "{\"id\":\"a\"}\n").unwrap();
    let output = batch.command(&[]).output().unwrap();
    assert_eq!(
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stderr).into_owned()
        ),
        (
            Some(2),
            format!(
                "agenthub: {}:1: not a task: missing field `prompt` at line 1 column 10\n",
                batch.path("tasks.jsonl").display()
            )
        )
    );
}

#[test]
fn restate_with_no_server_listening_names_the_unreachable_server_and_submits_nothing() {
    let batch = Batch::new();
    batch.script("ok.json", json!([{"content": "done"}]));
    batch.tasks(&[task("only", "ok.json", json!({"path": "ws"}), json!({}))]);
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}");
    let output = batch.command(&["--restate", &url]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(
        (
            output.status.code(),
            stderr.starts_with(&format!(
                "agenthub: the Restate server at {url}/ cannot be reached: "
            )),
            stderr.ends_with("(is `restate-server` running, and is this its ingress URL?)\n"),
            output.stdout.is_empty(),
        ),
        (Some(1), true, true, true),
        "{stderr}"
    );
}
