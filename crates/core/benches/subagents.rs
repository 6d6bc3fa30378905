//! Subagents must be cheap to start and fast together (issue 17 item 8):
//! the overhead of starting one (a run whose Task call starts a subagent
//! that answers at once, against a run whose model answers at once), and
//! the wall time of 4 subagents that each run `sleep 0.2`, concurrently
//! (`maxParallelAgents` 4) against one at a time (`maxParallelAgents` 1).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark: a panic is a failed run

use agenthub_core::{Agent, AgentDefinitions, TaskTool};
use agenthub_model::ScriptedModel;
use agenthub_policy::{CliPermissions, PolicyConfig, PolicyEngine, PolicyInput};
use agenthub_tools::{ToolRegistry, Workspace};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use serde_json::{json, Value};
use std::path::Path;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

fn task(id: &str) -> Value {
    json!({"id": id, "name": "Task", "arguments": {
        "description": "d", "prompt": "p", "subagent_type": "general-purpose"}})
}

fn agent(script: Value, parallel: usize, root: &Path) -> Agent {
    let model = ScriptedModel::from_json("bench", &script.to_string()).unwrap();
    let mut tools = ToolRegistry::with_builtins().unwrap();
    tools
        .register(TaskTool::new(AgentDefinitions::builtin()))
        .unwrap();
    let config = PolicyConfig::build(PolicyInput {
        workspace: root,
        home: None,
        sections: &[(root.join("settings.json"), json!({"allow": ["Bash"]}))],
        cli: CliPermissions::default(),
        extra_tools: &[],
    })
    .unwrap();
    Agent::builder(Arc::new(model), tools)
        .workspace(Workspace::new(root))
        .policy(Arc::new(PolicyEngine::new(config, None)))
        .max_parallel_agents(parallel)
        .build()
}

fn start_overhead(c: &mut Criterion) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let root = std::env::temp_dir();
    let mut group = c.benchmark_group("subagent_start");
    let direct = json!({"turns": [{"content": "done"}]});
    let one = json!({
        "turns": [{"tool_calls": [task("t1")]}, {"content": "done"}],
        "subagents": [{"turns": [{"content": "child"}]}]
    });
    for (name, script) in [("direct_answer", direct), ("one_subagent", one)] {
        group.bench_function(name, |b| {
            b.iter_batched(
                || agent(script.clone(), 4, &root),
                |agent| runtime.block_on(agent.run("go", CancellationToken::new())),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

fn four_sleeping(c: &mut Criterion) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let root = std::env::temp_dir();
    let sleeper = json!({"turns": [
        {"tool_calls": [{"id": "s", "name": "Bash", "arguments": {"command": "sleep 0.2"}}]},
        {"content": "slept"}
    ]});
    let script = json!({
        "turns": [
            {"tool_calls": [task("t1"), task("t2"), task("t3"), task("t4")]},
            {"content": "done"}
        ],
        "subagents": [sleeper, sleeper, sleeper, sleeper]
    });
    let mut group = c.benchmark_group("four_subagents_sleep_0_2");
    group.sample_size(10);
    for (name, parallel) in [("concurrent", 4), ("sequential", 1)] {
        group.bench_function(name, |b| {
            b.iter_batched(
                || agent(script.clone(), parallel, &root),
                |agent| runtime.block_on(agent.run("go", CancellationToken::new())),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, start_overhead, four_sleeping);
criterion_main!(benches);
