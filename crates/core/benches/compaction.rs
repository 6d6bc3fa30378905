//! Compaction's own overhead beside the model call (issue 11 item 8): a
//! manual compaction of a 1,000-message history with the scripted model (its
//! summary costs nothing, so what is measured is the kept-suffix choice, the
//! token estimate, the summary request's copy and the new history), next to
//! one scripted model request over the same history and the estimate alone.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark: a panic is a failed run

use agenthub_core::{estimate_tokens, Agent, Session};
use agenthub_model::{ChatModel, ModelRequest, NoModelEvents, ScriptedModel, ScriptedTurn};
use agenthub_protocol::{Message, ToolCall};
use agenthub_tools::{ToolRegistry, Workspace};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use std::hint::black_box;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// `rounds` Echo rounds of a prompt: 2 messages each, 120 characters a result.
fn history(rounds: usize) -> Vec<Message> {
    let mut history = vec![Message::system("system prompt"), Message::user("go")];
    for round in 0..rounds {
        let id = format!("call_{round}");
        history.push(Message::Assistant {
            content: None,
            tool_calls: vec![ToolCall::new(&id, "Echo", r#"{"text":"hello"}"#)],
        });
        history.push(Message::tool(&id, "h".repeat(120)));
    }
    history
}

fn agent() -> Agent {
    let answer = ScriptedTurn {
        content: Some("done".into()),
        tool_calls: Vec::new(),
    };
    let model = Arc::new(ScriptedModel::new("bench", vec![answer]));
    Agent::builder(model, ToolRegistry::with_builtins().unwrap())
        .workspace(Workspace::new("/tmp"))
        .build()
}

fn compaction(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let agent = agent();
    let messages = history(500);
    let mut group = c.benchmark_group("compaction of 1,000 messages");
    group.bench_function("manual compaction (scripted summary)", |b| {
        b.iter_batched(
            || Session::resume(&agent, messages.clone()),
            |mut session| {
                let record = runtime.block_on(session.compact("", CancellationToken::new()));
                black_box(record.unwrap())
            },
            BatchSize::LargeInput,
        )
    });
    group.bench_function("one scripted model request", |b| {
        let model = ScriptedModel::new("bench", Vec::new()).with_summaries(Vec::new());
        b.iter(|| {
            let request = ModelRequest::summary(&messages);
            let reply = runtime.block_on(model.complete(
                request,
                &NoModelEvents,
                &CancellationToken::new(),
            ));
            black_box(reply.unwrap())
        })
    });
    group.bench_function("token estimate", |b| {
        b.iter(|| black_box(estimate_tokens(&messages)))
    });
    group.finish();
}

criterion_group!(benches, compaction);
criterion_main!(benches);
