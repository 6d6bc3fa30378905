//! What tracing costs a run (contract §25, README "Traces"): the loop benchmark
//! (`agenthub-core`'s: 100 Echo tool rounds with the scripted model) and a hook
//! benchmark (10 Echo rounds, each call through one PreToolUse command hook,
//! as `agenthub-hooks`' command-hook benchmark runs one) — each with tracing
//! off (no trace observer: every run without `OTEL_EXPORTER_OTLP_*`) and on
//! (a `SessionTracer` exporting over OTLP/HTTP protobuf to a loopback
//! collector on 127.0.0.1 that answers 200), side by side in one run.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark: a panic is a failed run

use agenthub_core::{Agent, AgentBuilder};
use agenthub_hooks::CommandHooks;
use agenthub_model::{ScriptedCall, ScriptedModel, ScriptedTurn};
use agenthub_settings::{CommandHookConfig, FailurePolicy, HookEvent, HookHandler, Matcher};
use agenthub_tools::{ToolRegistry, Workspace};
use agenthub_traces::{SandboxFacts, SessionTracer, SpanExporter, TraceConfig, TraceProtocol};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use serde_json::json;
use std::hint::black_box;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// A collector that reads each request and answers 200, on its own threads.
fn loopback_collector() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut writer = stream;
                loop {
                    let mut length = 0usize;
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    loop {
                        line.clear();
                        if reader.read_line(&mut line).unwrap_or(0) == 0 {
                            return;
                        }
                        let header = line.trim_end().to_ascii_lowercase();
                        if header.is_empty() {
                            break;
                        }
                        if let Some(value) = header.strip_prefix("content-length:") {
                            length = value.trim().parse().unwrap_or(0);
                        }
                    }
                    let mut body = vec![0; length];
                    if reader.read_exact(&mut body).is_err() {
                        return;
                    }
                    let answer = "HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n";
                    if writer.write_all(answer.as_bytes()).is_err() {
                        return;
                    }
                }
            });
        }
    });
    format!("http://127.0.0.1:{port}/v1/traces")
}

fn echo_rounds(rounds: usize) -> Vec<ScriptedTurn> {
    let mut turns: Vec<ScriptedTurn> = (0..rounds)
        .map(|round| ScriptedTurn {
            content: None,
            tool_calls: vec![ScriptedCall {
                id: Some(format!("call_{round}")),
                name: "Echo".into(),
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

/// Tracing off or on, for one benchmark's agents.
#[derive(Clone, Copy)]
enum Tracing<'a> {
    Off,
    On(&'a SpanExporter),
}

fn agent(turns: &[ScriptedTurn], tracing: Tracing<'_>, hooks: Option<&CommandHooks>) -> Agent {
    let model = Arc::new(ScriptedModel::new("bench", turns.to_vec()));
    let mut builder: AgentBuilder = Agent::builder(model, ToolRegistry::with_builtins().unwrap())
        .workspace(Workspace::new("/tmp"))
        .max_turns(turns.len() as u32 + 1);
    if let Some(hooks) = hooks {
        builder = builder.hooks(hooks.clone().into_registry().unwrap());
    }
    if let Tracing::On(exporter) = tracing {
        let tracer = SessionTracer::new(
            exporter.clone(),
            Some("scripted".into()),
            SandboxFacts::default(),
            None,
        );
        builder = builder.also_observe(Arc::new(tracer));
    }
    builder.build()
}

fn exporter(runtime: &tokio::runtime::Runtime) -> SpanExporter {
    let config = TraceConfig {
        endpoint: loopback_collector(),
        protocol: TraceProtocol::Protobuf,
        headers: Vec::new(),
        service_name: "bench".into(),
        resource: Vec::new(),
    };
    runtime
        .block_on(async { SpanExporter::start(config) })
        .unwrap()
}

fn loop_rounds(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let exporter = exporter(&runtime);
    let turns = echo_rounds(100);
    let mut group = c.benchmark_group("loop: 100 Echo tool rounds");
    for (name, tracing) in [
        ("tracing off", Tracing::Off),
        ("tracing on", Tracing::On(&exporter)),
    ] {
        group.bench_function(name, |b| {
            b.iter_batched(
                || agent(&turns, tracing, None),
                |agent| black_box(runtime.block_on(agent.run("go", CancellationToken::new()))),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

fn hook_config(script: &Path) -> CommandHookConfig {
    CommandHookConfig {
        event: HookEvent::PreToolUse,
        matcher: Matcher::parse(Some("Echo")).unwrap(),
        command: script.display().to_string(),
        args: None,
        condition: None,
        timeout: Duration::from_secs(600),
        on_failure: FailurePolicy::Block,
        on_failure_given: false,
        handler: HookHandler::Command,
        run_async: false,
        once: false,
        source: script.with_file_name("settings.json"),
        index: 0,
        json_path: "hooks.PreToolUse[0].hooks[0]".into(),
        plugin: None,
    }
}

fn hooked_rounds(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let exporter = exporter(&runtime);
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("allow.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\ncat > /dev/null\necho '{\"hookSpecificOutput\": {\"hookEventName\": \"PreToolUse\", \"permissionDecision\": \"allow\"}}'\n",
    )
    .unwrap();
    std::process::Command::new("chmod")
        .arg("+x")
        .arg(&script)
        .status()
        .unwrap();
    let hooks = CommandHooks::new(vec![hook_config(&script)]);
    let turns = echo_rounds(10);
    let mut group = c.benchmark_group("hooks: 10 Echo rounds, one PreToolUse command hook each");
    group.sample_size(20);
    for (name, tracing) in [
        ("tracing off", Tracing::Off),
        ("tracing on", Tracing::On(&exporter)),
    ] {
        group.bench_function(name, |b| {
            b.iter_batched(
                || agent(&turns, tracing, Some(&hooks)),
                |agent| black_box(runtime.block_on(agent.run("go", CancellationToken::new()))),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, loop_rounds, hooked_rounds);
criterion_main!(benches);
