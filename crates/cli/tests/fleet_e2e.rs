//! The fleet end to end (SPEC §18): a real Restate server on loopback,
//! `agenthub worker` processes killed with SIGKILL mid-run and restarted, a
//! loopback provider counting model requests, ledgers that each Bash call
//! and each PreToolUse hook run appends to. Nothing touches the network.

mod fleet;

use agenthub_fleet::{Ingress, TaskSpec, TaskWorkspace};
use fleet::provider::Provider;
use fleet::server::RestateServer;
use fleet::{eventually, Worker};
use serde_json::{json, Value};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

const INTERRUPTED: &str = "Error [tool_error]: interrupted: the worker running this call stopped";

fn task(id: &str, workspace: &Path, settings: Value) -> TaskSpec {
    TaskSpec {
        id: id.to_owned(),
        prompt: format!("task {id}"),
        workspace: TaskWorkspace::Path {
            path: workspace.to_path_buf(),
        },
        settings: Some(settings),
        script: None,
        model: None,
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// The content of the last tool message a request carried.
fn last_tool_result(body: &Value) -> String {
    body["messages"]
        .as_array()
        .and_then(|messages| {
            messages
                .iter()
                .rev()
                .find(|message| message["role"] == "tool")
        })
        .and_then(|message| message["content"].as_str())
        .unwrap_or_default()
        .to_owned()
}

/// Lets the calls the killed worker left running end (they wait for a
/// `release` file in their workspace), when the test is over.
struct Release(Vec<PathBuf>);

impl Drop for Release {
    fn drop(&mut self) {
        for dir in &self.0 {
            let _ = std::fs::write(dir.join("release"), "");
        }
    }
}

fn submit_all(ingress: &Ingress, tasks: Vec<TaskSpec>) -> Vec<tokio::task::JoinHandle<Value>> {
    tasks
        .into_iter()
        .map(|task| {
            let ingress = ingress.clone();
            tokio::spawn(async move { ingress.run(&task).await.expect("the task's result line") })
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn ten_sessions_survive_a_killed_worker_repeating_no_model_request_and_no_call() {
    let server = RestateServer::start().await;
    let home = tempfile::tempdir().unwrap();
    let provider = Provider::start(&[
        "echo call_1 >> ledger.txt",
        "echo call_2 start >> ledger.txt; until [ -f release ]; do sleep 0.05; done; echo call_2 end >> ledger.txt",
    ])
    .await;
    let mut settings = provider.settings();
    settings["permissions"] = json!({"allow": ["Bash"]});
    settings["hooks"] = json!({"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "echo hook >> \"$CLAUDE_PROJECT_DIR/hooks.txt\""}
    ]}]});
    let mut worker = Worker::start(&server, home.path()).await;
    let workspaces: Vec<PathBuf> = (0..10)
        .map(|index| {
            let dir = home.path().join(format!("ws{index}"));
            std::fs::create_dir_all(&dir).unwrap();
            dir
        })
        .collect();
    let tasks = workspaces
        .iter()
        .enumerate()
        .map(|(index, dir)| task(&format!("crash-{index}"), dir, settings.clone()))
        .collect();
    let _release = Release(workspaces.clone());
    let ingress = Ingress::new(&server.ingress).unwrap();
    let results = submit_all(&ingress, tasks);
    let ledgers: Vec<PathBuf> = workspaces
        .iter()
        .map(|dir| dir.join("ledger.txt"))
        .collect();
    eventually(
        Duration::from_secs(60),
        "every session inside its slow call",
        || {
            ledgers
                .iter()
                .all(|ledger| read(ledger).contains("call_2 start"))
        },
    )
    .await;
    worker.restart();
    let mut lines = Vec::new();
    for result in results {
        lines.push(result.await.unwrap());
    }

    let outcomes: Vec<(String, String)> = lines
        .iter()
        .map(|line| (line["status"].to_string(), line["result"].to_string()))
        .collect();
    assert_eq!(
        outcomes,
        vec![("\"completed\"".to_owned(), "\"done\"".to_owned()); 10]
    );
    let ledger_texts: Vec<String> = ledgers.iter().map(|ledger| read(ledger)).collect();
    assert_eq!(ledger_texts, vec!["call_1\ncall_2 start\n".to_owned(); 10]);
    let hook_runs: Vec<String> = workspaces
        .iter()
        .map(|dir| read(&dir.join("hooks.txt")))
        .collect();
    assert_eq!(
        hook_runs,
        vec!["hook\nhook\n".to_owned(); 10],
        "a hook run was repeated"
    );
    let seen = provider.seen();
    let distinct: HashSet<(String, usize)> = seen
        .iter()
        .map(|request| (request.prompt.clone(), request.tool_results))
        .collect();
    assert_eq!(
        (seen.len(), distinct.len()),
        (30, 30),
        "a model request was repeated"
    );
    let after_the_kill: Vec<String> = seen
        .iter()
        .filter(|request| request.tool_results == 2)
        .map(|request| last_tool_result(&request.body))
        .collect();
    assert_eq!(after_the_kill, vec![INTERRUPTED.to_owned(); 10]);
}

fn git(dir: &Path, args: &[&str]) -> String {
    let output = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        output.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A bare repository with one commit on `main`, as a task's remote.
fn remote_repository(root: &Path) -> PathBuf {
    let remote = root.join("remote.git");
    let seed = root.join("seed");
    std::fs::create_dir_all(&seed).unwrap();
    git(
        root,
        &[
            "init",
            "-q",
            "--bare",
            "-b",
            "main",
            remote.to_str().unwrap(),
        ],
    );
    git(&seed, &["init", "-q", "-b", "main"]);
    std::fs::write(seed.join("README"), "seed\n").unwrap();
    git(&seed, &["add", "README"]);
    git(
        &seed,
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-q",
            "-m",
            "seed",
        ],
    );
    git(&seed, &["push", "-q", remote.to_str().unwrap(), "main"]);
    remote
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_git_workspace_is_checkpointed_per_round_and_restored_on_a_fresh_clone_after_a_crash() {
    let server = RestateServer::start().await;
    let home = tempfile::tempdir().unwrap();
    let remote = remote_repository(home.path());
    let provider = Provider::start(&["echo hello > a.txt", "sleep 8", "cat a.txt"]).await;
    let mut settings = provider.settings();
    settings["permissions"] = json!({"allow": ["Bash"]});
    let mut worker = Worker::start(&server, home.path()).await;
    let spec = TaskSpec {
        workspace: TaskWorkspace::Git {
            git: remote.display().to_string(),
            reference: "main".to_owned(),
        },
        ..task("git-1", home.path(), settings)
    };
    let ingress = Ingress::new(&server.ingress).unwrap();
    let result = submit_all(&ingress, vec![spec]).remove(0);
    eventually(Duration::from_secs(60), "the slow call", || {
        provider
            .seen()
            .iter()
            .any(|request| request.tool_results == 1)
    })
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    worker.restart();
    let line = result.await.unwrap();

    let checkpoint = git(&remote, &["show", "refs/agenthub/sessions/git-1:a.txt"]);
    let cat_result = provider
        .seen()
        .iter()
        .find(|request| request.tool_results == 3)
        .map(|request| last_tool_result(&request.body));
    assert_eq!(
        (
            line["status"].as_str(),
            checkpoint.as_str(),
            cat_result.as_deref()
        ),
        (Some("completed"), "hello\n", Some("[exit code: 0]\nhello"))
    );
}

/// A scripted task whose one Bash call asks (no rule allows it).
fn asking_task(home: &Path, id: &str, settings: Value) -> TaskSpec {
    let script = home.join(format!("{id}.json"));
    let turns = json!({"turns": [
        {"tool_calls": [{"id": "call_1", "name": "Bash", "arguments": {"command": "echo approved"}}]},
        {"content": "{{last_tool_result}}"}
    ]});
    std::fs::write(&script, turns.to_string()).unwrap();
    let workspace = home.join(id);
    std::fs::create_dir_all(&workspace).unwrap();
    TaskSpec {
        script: Some(script),
        ..task(id, &workspace, settings)
    }
}

fn agenthub(args: &[&str]) -> std::process::Output {
    std::process::Command::new(fleet::agenthub_binary())
        .args(args)
        .output()
        .expect("agenthub runs")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_ask_waits_on_the_worker_until_agenthub_approve_allows_it() {
    let server = RestateServer::start().await;
    let home = tempfile::tempdir().unwrap();
    let _worker = Worker::start(&server, home.path()).await;
    let ingress = Ingress::new(&server.ingress).unwrap();
    let result = submit_all(&ingress, vec![asking_task(home.path(), "ask-1", json!({}))]).remove(0);
    let status = |id: &str| agenthub(&["status", "--restate", &server.ingress, id]);
    let mut waiting = Value::Null;
    eventually(Duration::from_secs(30), "the ask", || {
        waiting = serde_json::from_slice(&status("ask-1").stdout).unwrap_or(Value::Null);
        waiting["state"] == "waiting_for_approval"
    })
    .await;
    let approved = agenthub(&[
        "approve",
        "--restate",
        &server.ingress,
        "ask-1",
        "call_1",
        "allow",
    ]);
    let line = result.await.unwrap();
    assert_eq!(
        (
            waiting["pending"][0]["call_id"].as_str(),
            waiting["pending"][0]["tool"].as_str(),
            approved.status.code(),
            line["result"].as_str(),
            status("ask-1").status.code(),
        ),
        (
            Some("call_1"),
            Some("Bash"),
            Some(0),
            Some("[exit code: 0]\napproved"),
            Some(0)
        )
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_ask_nobody_answers_within_the_approval_timeout_is_denied() {
    let server = RestateServer::start().await;
    let home = tempfile::tempdir().unwrap();
    let _worker = Worker::start(&server, home.path()).await;
    let ingress = Ingress::new(&server.ingress).unwrap();
    let spec = asking_task(home.path(), "ask-2", json!({"approvalTimeout": "1s"}));
    let line = ingress.run(&spec).await.unwrap();
    assert_eq!(
        line["result"].as_str(),
        Some("Error [permission_denied]: the tool was not run: permission denied: no answer within approvalTimeout (1s): denied")
    );
}

#[tokio::test]
async fn status_and_approve_name_an_unknown_task_and_an_unreachable_server() {
    let server = RestateServer::start().await;
    let home = tempfile::tempdir().unwrap();
    let _worker = Worker::start(&server, home.path()).await;
    let unknown = agenthub(&["status", "--restate", &server.ingress, "nobody"]);
    let port = fleet::server::free_port();
    let down = agenthub(&[
        "approve",
        "--restate",
        &format!("http://127.0.0.1:{port}"),
        "t",
        "call_1",
        "deny",
    ]);
    let stderr =
        |output: &std::process::Output| String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(
        (unknown.status.code(), stderr(&unknown), down.status.code()),
        (
            Some(2),
            "agenthub: no session for task \"nobody\"\n".to_owned(),
            Some(1)
        )
    );
    assert!(
        stderr(&down).contains("cannot be reached")
            && stderr(&down).contains("is `restate-server` running"),
        "{}",
        stderr(&down)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn batch_with_restate_submits_every_task_to_the_fleet_and_writes_each_result_line() {
    let server = RestateServer::start().await;
    let home = tempfile::tempdir().unwrap();
    let _worker = Worker::start(&server, home.path()).await;
    let script = home.path().join("answer.json");
    std::fs::write(&script, json!({"turns": [{"content": "done"}]}).to_string()).unwrap();
    let lines: Vec<String> = (0..3)
        .map(|index| {
            let workspace = home.path().join(format!("b{index}"));
            std::fs::create_dir_all(&workspace).unwrap();
            json!({"id": format!("batch-{index}"), "prompt": "go", "workspace": {"path": workspace}, "script": script})
                .to_string()
        })
        .collect();
    let tasks = home.path().join("tasks.jsonl");
    std::fs::write(&tasks, lines.join("\n")).unwrap();
    let out = home.path().join("results.jsonl");
    let output = agenthub(&[
        "batch",
        tasks.to_str().unwrap(),
        "--restate",
        &server.ingress,
        "--out",
        out.to_str().unwrap(),
    ]);
    let mut results: Vec<(String, String, String)> = read(&out)
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .map(|line| {
            (
                line["id"].to_string(),
                line["status"].to_string(),
                line["result"].to_string(),
            )
        })
        .collect();
    results.sort();
    let expected: Vec<(String, String, String)> = (0..3)
        .map(|index| {
            (
                format!("\"batch-{index}\""),
                "\"completed\"".to_owned(),
                "\"done\"".to_owned(),
            )
        })
        .collect();
    assert_eq!((output.status.code(), results), (Some(0), expected));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn cancel_ends_a_running_fleet_session_as_cancelled_with_its_result_line() {
    let server = RestateServer::start().await;
    let home = tempfile::tempdir().unwrap();
    let _worker = Worker::start(&server, home.path()).await;
    let script = home.path().join("slow.json");
    let turns = json!({"turns": [
        {"tool_calls": [{"id": "call_1", "name": "Bash", "arguments": {"command": "echo started > started.txt; sleep 1"}}]},
        {"content": "finished"}
    ]});
    std::fs::write(&script, turns.to_string()).unwrap();
    let workspace = home.path().join("slow");
    std::fs::create_dir_all(&workspace).unwrap();
    let spec = TaskSpec {
        script: Some(script),
        ..task("cancel-1", &workspace, json!({"permissions": {"allow": ["Bash"]}}))
    };
    let ingress = Ingress::new(&server.ingress).unwrap();
    let result = submit_all(&ingress, vec![spec]).remove(0);
    let started = workspace.join("started.txt");
    eventually(Duration::from_secs(30), "the slow call", || started.exists()).await;
    ingress.cancel("cancel-1").await.unwrap();
    let line = result.await.unwrap();
    assert_eq!(
        (line["status"].as_str(), line["is_error"].as_bool()),
        (Some("cancelled"), Some(true))
    );
}
