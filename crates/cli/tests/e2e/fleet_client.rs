//! The fleet's client side end to end (contract §18, §19): asks answered by
//! `agenthub approve` or denied by `approvalTimeout`, `agenthub status`,
//! cancel, `agenthub batch --restate`, and the errors of an unknown task and
//! an unreachable server, against a real Restate server and worker.

use crate::support::fleet;

use agenthub_fleet::{Ingress, TaskSpec};
use fleet::server::RestateServer;
use fleet::{eventually, read, submit_all, task, Worker};
use serde_json::{json, Value};
use std::path::Path;
use std::time::Duration;

/// A scripted task whose one Bash call asks (no rule allows it).
fn asking_task(home: &Path, id: &str, settings: Value) -> TaskSpec {
    let script = home.join(format!("{id}.json"));
    let turns = json!({"turns": [
        {"tool_calls": [{"id": "call_1", "name": "Bash", "arguments": {"command": "printf approved"}}]},
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
    // An idle invocation suspends after 1 s here (1 min by default): the ask
    // outlives its handler and the session is replayed when it is answered.
    let server =
        RestateServer::start_with(&[("RESTATE_WORKER__INVOKER__INACTIVITY_TIMEOUT", "1s")]).await;
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
    tokio::time::sleep(Duration::from_secs(2)).await;
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
        ..task(
            "cancel-1",
            &workspace,
            json!({"permissions": {"allow": ["Bash"]}}),
        )
    };
    let ingress = Ingress::new(&server.ingress).unwrap();
    let result = submit_all(&ingress, vec![spec]).remove(0);
    let started = workspace.join("started.txt");
    eventually(Duration::from_secs(30), "the slow call", || {
        started.exists()
    })
    .await;
    ingress.cancel("cancel-1").await.unwrap();
    let line = result.await.unwrap();
    assert_eq!(
        (line["status"].as_str(), line["is_error"].as_bool()),
        (Some("cancelled"), Some(true))
    );
}
