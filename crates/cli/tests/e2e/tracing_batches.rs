//! Many sessions in one trace (contract §25): `agenthub batch` makes a
//! `batch` span with a `task` span per task and each task's session under
//! it; with `--restate` the fleet worker's sessions join the same trace
//! through the W3C `traceparent` the client sends with each task.

use crate::support::fleet::{self, server::RestateServer, Worker};
use crate::support::otlp::{read_protobuf, Collector, Export, PlainSpan};
use serde_json::json;
use std::path::Path;
use std::time::Duration;

/// A task list of `count` scripted tasks (one Read call each, then an answer).
fn task_list(folder: &Path, count: usize) -> std::path::PathBuf {
    let script = folder.join("read.json");
    let turns = json!({"turns": [
        {"tool_calls": [{"id": "r1", "name": "Read", "arguments": {"file_path": "a.txt"}}]},
        {"content": "done"}
    ]});
    std::fs::write(&script, turns.to_string()).unwrap();
    let lines: Vec<String> = (0..count)
        .map(|index| {
            let workspace = folder.join(format!("w{index}"));
            std::fs::create_dir_all(&workspace).unwrap();
            std::fs::write(workspace.join("a.txt"), "a").unwrap();
            json!({"id": format!("t{index}"), "prompt": "go", "workspace": {"path": workspace}, "script": script})
                .to_string()
        })
        .collect();
    let tasks = folder.join("tasks.jsonl");
    std::fs::write(&tasks, lines.join("\n")).unwrap();
    tasks
}

fn named<'a>(export: &'a Export, name: &str) -> Vec<&'a PlainSpan> {
    export
        .spans
        .iter()
        .filter(|span| span.name == name)
        .collect()
}

/// The batch → task → session → (chat, execute_tool) tree for `ids`.
fn assert_batch_tree(export: &Export, ids: &[&str]) {
    let batches = named(export, "batch");
    assert_eq!(batches.len(), 1, "{:#?}", export.spans);
    let batch = batches[0];
    assert_eq!(batch.parent, "");
    let mut task_ids = Vec::new();
    for task in named(export, "task") {
        assert_eq!(
            (task.trace_id.as_str(), task.parent.as_str()),
            (batch.trace_id.as_str(), batch.span_id.as_str())
        );
        task_ids.push(
            task.attributes["agenthub.task.id"]
                .as_str()
                .unwrap()
                .to_owned(),
        );
        let sessions: Vec<_> = named(export, "session")
            .into_iter()
            .filter(|session| session.parent == task.span_id)
            .collect();
        assert_eq!(sessions.len(), 1, "one session under task {task:#?}");
        let children: Vec<&str> = export
            .spans
            .iter()
            .filter(|span| span.parent == sessions[0].span_id)
            .map(|span| span.name.as_str())
            .collect();
        assert_eq!(
            children
                .iter()
                .filter(|name| name.starts_with("chat "))
                .count(),
            2
        );
        assert_eq!(
            children
                .iter()
                .filter(|name| **name == "execute_tool Read")
                .count(),
            1
        );
    }
    task_ids.sort();
    assert_eq!(task_ids, ids);
}

#[test]
fn a_local_batch_is_one_trace_with_a_span_per_task_holding_its_session() {
    let collector = Collector::start();
    let folder = tempfile::tempdir().unwrap();
    let tasks = task_list(folder.path(), 2);
    let mut command = std::process::Command::new(fleet::agenthub_binary());
    fleet::isolate(&mut command, &folder.path().join("home"));
    let output = command
        .arg("batch")
        .arg(&tasks)
        .args(["--parallel", "2", "--out"])
        .arg(folder.path().join("out.jsonl"))
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", collector.endpoint())
        .env_remove("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
        .env_remove("OTEL_EXPORTER_OTLP_PROTOCOL")
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_batch_tree(&read_protobuf(&collector.received()), &["t0", "t1"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_fleet_batch_joins_the_workers_sessions_to_the_clients_trace() {
    let collector = Collector::start();
    let endpoint = collector.endpoint();
    let server = RestateServer::start().await;
    let home = tempfile::tempdir().unwrap();
    let _worker = Worker::start_with(
        &server,
        home.path(),
        &[("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint.as_str())],
    )
    .await;
    let tasks = task_list(home.path(), 2);
    let mut command = std::process::Command::new(fleet::agenthub_binary());
    fleet::isolate(&mut command, &home.path().join("client"));
    let output = command
        .arg("batch")
        .arg(&tasks)
        .args(["--restate", &server.ingress, "--out"])
        .arg(home.path().join("out.jsonl"))
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", &endpoint)
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // The worker sends its sessions' spans in the background once its queue goes quiet.
    fleet::eventually(Duration::from_secs(20), "the worker's sessions", || {
        named(&read_protobuf(&collector.received()), "session").len() == 2
    })
    .await;
    assert_batch_tree(&read_protobuf(&collector.received()), &["t0", "t1"]);
}
