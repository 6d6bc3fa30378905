//! A session must cost the same per turn however long it grows, and resuming
//! a long one must be quick (issue 11 item 8): Echo rounds at 1,000 and 4,000
//! rounds (per-round time should match), and reading back the transcript of a
//! 1,000-round session.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark: a panic is a failed run

use agenthub_core::{read_session, Agent, Observers, TranscriptWriter};
use agenthub_model::{ScriptedCall, ScriptedModel, ScriptedTurn};
use agenthub_tools::{ToolRegistry, Workspace};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use serde_json::json;
use std::hint::black_box;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

fn echo_rounds(rounds: usize) -> Vec<ScriptedTurn> {
    let mut turns: Vec<ScriptedTurn> = (0..rounds)
        .map(|round| ScriptedTurn {
            content: None,
            tool_calls: vec![ScriptedCall {
                id: Some(format!("call_{round}")),
                name: "Echo".into(),
                // A different text each round: identical calls in a row meet the loop guard.
                arguments: json!({"text": format!("hello {round}")}),
            }],
        })
        .collect();
    turns.push(ScriptedTurn {
        content: Some("done".into()),
        tool_calls: Vec::new(),
    });
    turns
}

fn agent(rounds: usize, observers: Observers) -> Agent {
    let model = Arc::new(ScriptedModel::new("bench", echo_rounds(rounds)));
    Agent::builder(model, ToolRegistry::with_builtins().unwrap())
        .workspace(Workspace::new("/tmp"))
        .max_turns(rounds as u32 + 1)
        .observer(Arc::new(observers))
        .build()
}

fn long_sessions(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let mut group = c.benchmark_group("session");
    group.sample_size(10);
    for rounds in [1_000, 4_000] {
        group.bench_function(format!("{rounds} Echo rounds"), |b| {
            b.iter_batched(
                || agent(rounds, Observers::new()),
                |agent| black_box(runtime.block_on(agent.run("go", CancellationToken::new()))),
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

fn resume(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let dir = tempfile::TempDir::new().unwrap();
    let path = dir.path().join("session.jsonl");
    let writer = TranscriptWriter::create(&path).unwrap();
    let recorded = agent(1_000, Observers::new().with(Arc::new(writer)));
    runtime.block_on(recorded.run("go", CancellationToken::new()));
    c.bench_function("resume: read back a 1,000-round session", |b| {
        b.iter(|| black_box(read_session(&path).unwrap()))
    });
}

criterion_group!(benches, long_sessions, resume);
criterion_main!(benches);
