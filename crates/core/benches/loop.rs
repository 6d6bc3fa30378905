//! The loop must never be what a user waits for: time per tool round with the
//! scripted model and Echo (target < 20 µs), and the cost of in-process
//! PreToolUse hooks in chains of 1, 4 and 16 no-op hooks (target < 1 µs per hook).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark: a panic is a failed run

use agenthub_core::Agent;
use agenthub_hooks::{HookCommon, HookRegistry, PreToolUseResult};
use agenthub_model::{ScriptedCall, ScriptedModel, ScriptedTurn};
use agenthub_protocol::ToolCall;
use agenthub_tools::{ToolRegistry, Workspace};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use serde_json::json;
use std::hint::black_box;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

const ROUNDS: usize = 100;

fn echo_rounds() -> Vec<ScriptedTurn> {
    let mut turns: Vec<ScriptedTurn> = (0..ROUNDS)
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

fn loop_rounds(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let turns = echo_rounds();
    c.bench_function(
        "loop: 100 Echo tool rounds (divide by 100 for one round)",
        |b| {
            b.iter_batched(
                || {
                    let model = Arc::new(ScriptedModel::new("bench", turns.clone()));
                    Agent::builder(model, ToolRegistry::with_builtins().unwrap())
                        .workspace(Workspace::new("/tmp"))
                        .max_turns(ROUNDS as u32 + 1)
                        .build()
                },
                |agent| black_box(runtime.block_on(agent.run("go", CancellationToken::new()))),
                BatchSize::SmallInput,
            )
        },
    );
}

fn hook_chains(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let tools = ToolRegistry::with_builtins().unwrap();
    let call = tools
        .prepare(&ToolCall::new("call_1", "Echo", r#"{"text":"hi"}"#))
        .unwrap();
    let common = HookCommon {
        session_id: "bench".into(),
        workspace: "/tmp".into(),
        transcript_path: None,
        permission_mode: agenthub_protocol::PermissionMode::Default,
        cancel: CancellationToken::new(),
        agent: None,
    };
    let mut group = c.benchmark_group("PreToolUse chain of no-op hooks");
    for size in [1usize, 4, 16] {
        let mut hooks = HookRegistry::new();
        for index in 0..size {
            hooks = hooks.pre_tool_use(format!("noop-{index}"), |_ctx| async {
                Ok(PreToolUseResult::default())
            });
        }
        group.bench_function(format!("{size} hooks"), |b| {
            b.iter(|| {
                black_box(runtime.block_on(hooks.run_pre_tool_use(common.clone(), call.clone())))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, loop_rounds, hook_chains);
criterion_main!(benches);
