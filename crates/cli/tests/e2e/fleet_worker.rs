//! The fleet end to end (contract §18): a real Restate server on loopback,
//! `agenthub worker` processes killed with SIGKILL mid-run and restarted, a
//! loopback provider counting model requests, ledgers that each Bash call
//! and each PreToolUse hook run appends to. Nothing touches the network.

use crate::support::fleet;

use agenthub_fleet::{Ingress, TaskSpec, TaskWorkspace};
use fleet::provider::Provider;
use fleet::server::RestateServer;
use fleet::{eventually, read, submit_all, task, Worker};
use serde_json::{json, Value};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

const INTERRUPTED: &str = "Error [tool_error]: interrupted: the worker running this call stopped";

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

#[tokio::test]
async fn a_worker_refuses_a_restate_server_that_does_not_sign_with_its_key() {
    let server = RestateServer::start().await;
    let home = tempfile::tempdir().unwrap();
    let (_, other_key) = fleet::server::identity_key(home.path());
    let mut command = std::process::Command::new(fleet::agenthub_binary());
    fleet::isolate(&mut command, home.path());
    let port = fleet::server::free_port();
    let output = command
        .args(["worker", "--listen", &format!("127.0.0.1:{port}")])
        .args(["--register", &server.admin, "--identity-key", &other_key])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.code() != Some(0)
            && stderr.contains(&format!("cannot register the worker at {}", server.admin))
            && stderr.contains("401"),
        "{stderr}"
    );
    assert_eq!(server.deployments().await, 0);
}

#[test]
fn an_identity_key_not_in_restates_format_is_a_usage_error() {
    let home = tempfile::tempdir().unwrap();
    let mut command = std::process::Command::new(fleet::agenthub_binary());
    fleet::isolate(&mut command, home.path());
    let output = command
        .args([
            "worker",
            "--listen",
            "127.0.0.1:0",
            "--identity-key",
            "not-a-key",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn a_workspace_root_that_cannot_be_made_is_a_usage_error_naming_it() {
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let mut command = std::process::Command::new(fleet::agenthub_binary());
    fleet::isolate(&mut command, home.path());
    let output = command
        .args(["worker", "--listen", "127.0.0.1:0", "--workspace-root"])
        .arg(file.join("workspaces"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        (
            output.status.code(),
            stderr.contains(&format!(
                "workspace root {}",
                file.join("workspaces").display()
            ))
        ),
        (Some(2), true),
        "{stderr}"
    );
}

#[test]
fn a_worker_makes_its_default_workspace_root_under_xdg_state_home_before_listening() {
    use std::io::BufRead;
    let home = tempfile::tempdir().unwrap();
    let mut command = std::process::Command::new(fleet::agenthub_binary());
    fleet::isolate(&mut command, home.path());
    let mut child = command
        .args(["worker", "--listen", "127.0.0.1:0"])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first_line = String::new();
    if let Some(stderr) = child.stderr.take() {
        std::io::BufReader::new(stderr)
            .read_line(&mut first_line)
            .unwrap();
    }
    let _ = child.kill();
    let _ = child.wait();
    let root = home.path().join(".state/agenthub/fleet/workspaces");
    assert_eq!(
        (
            first_line.contains("listening on 127.0.0.1:"),
            root.is_dir()
        ),
        (true, true),
        "{first_line}"
    );
}

/// `agenthub status` of task `t1` at `server`, with `env`: the error it prints.
fn status_error(server: &RestateServer, home: &Path, env: &[(&str, &str)]) -> String {
    let mut command = std::process::Command::new(fleet::agenthub_binary());
    fleet::isolate(&mut command, home);
    let output = command
        .args(["status", "--restate", &server.ingress, "t1"])
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert_ne!(output.status.code(), Some(0));
    String::from_utf8_lossy(&output.stderr).trim().to_owned()
}

#[tokio::test]
async fn with_a_fleet_secret_a_request_without_its_signature_is_refused() {
    let server = RestateServer::start().await;
    let home = tempfile::tempdir().unwrap();
    let secret = [("AGENTHUB_FLEET_SECRET", "fleet-test-secret")];
    let _worker = Worker::start_with(&server, home.path(), &secret).await;
    let unsigned = status_error(&server, home.path(), &[]);
    let wrong = status_error(&server, home.path(), &[("AGENTHUB_FLEET_SECRET", "guess")]);
    let signed = status_error(&server, home.path(), &secret);
    let refusal = "status of task \"t1\" is refused: it does not carry the x-agenthub-signature \
                   signature of AGENTHUB_FLEET_SECRET (the worker requires it)";
    assert!(unsigned.contains(refusal), "{unsigned}");
    assert!(wrong.contains(refusal), "{wrong}");
    assert!(
        !signed.contains(refusal) && signed.contains("no session for task \"t1\""),
        "{signed}"
    );
}

/// `agenthub batch --restate` of one scripted task with `env`: its result line.
fn batch_line(server: &RestateServer, home: &Path, env: &[(&str, &str)]) -> Value {
    let workspace = home.join("ws");
    std::fs::create_dir_all(&workspace).unwrap();
    let script = home.join("script.json");
    std::fs::write(&script, r#"{"turns": [{"content": "done"}]}"#).unwrap();
    let id = format!("signed-{}", env.len());
    let tasks = home.join(format!("{id}.jsonl"));
    let line =
        json!({"id": id, "prompt": "go", "workspace": {"path": workspace}, "script": script});
    std::fs::write(&tasks, format!("{line}\n")).unwrap();
    let out = home.join(format!("{id}-results.jsonl"));
    let mut command = std::process::Command::new(fleet::agenthub_binary());
    fleet::isolate(&mut command, home);
    command
        .arg("batch")
        .arg(&tasks)
        .args(["--restate", &server.ingress, "--out"])
        .arg(&out)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    serde_json::from_str(read(&out).trim()).unwrap_or(Value::Null)
}

#[tokio::test]
async fn with_a_fleet_secret_a_signed_task_runs_and_an_unsigned_one_does_not() {
    let server = RestateServer::start().await;
    let home = tempfile::tempdir().unwrap();
    let secret = [("AGENTHUB_FLEET_SECRET", "fleet-test-secret")];
    let _worker = Worker::start_with(&server, home.path(), &secret).await;
    let signed = batch_line(&server, home.path(), &secret);
    let unsigned = batch_line(&server, home.path(), &[]);
    assert_eq!(
        (signed["status"].clone(), signed["result"].clone()),
        (json!("completed"), json!("done")),
        "{signed}"
    );
    assert_ne!(unsigned["status"], json!("completed"), "{unsigned}");
    assert!(
        unsigned
            .to_string()
            .contains("does not carry the x-agenthub-signature signature"),
        "{unsigned}"
    );
}
