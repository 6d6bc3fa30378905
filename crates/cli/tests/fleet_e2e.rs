//! The fleet end to end (SPEC §18): a real Restate server on loopback,
//! `agenthub worker` processes killed with SIGKILL mid-run and restarted, a
//! loopback provider counting model requests, ledgers that each Bash call
//! appends to. Nothing touches the network.

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
