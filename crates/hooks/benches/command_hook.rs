//! What AgentHub adds to one command hook run (issue 5: target < 0.5 ms),
//! measured side by side with the physical floor: spawning the same script on
//! the same stdin directly with tokio, in the same runtime and the same run.
//!
//! - `direct`: `sh -c <script>`, write the payload, close stdin, read stdout/stderr, wait.
//! - `runner`: AgentHub's runner alone (own session, caps, timeout, group kill).
//! - `engine`: one PreToolUse command hook through the registry and engine:
//!   payload, runner, exit code and JSON contract, merged verdict.
//!
//! - `http engine`: one PreToolUse `http` hook through the registry and
//!   engine, against a keep-alive server on 127.0.0.1 answering the same JSON;
//!   `http baseline`: the registry with no hook at all.
//!
//! added cost per hook = median(engine) − median(direct);
//! added cost per http hook = median(http engine) − median(http baseline).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark: a panic is a failed run

use agenthub_hooks::command::{runner, Invocation, Program};
use agenthub_hooks::{CommandHooks, HookCommon, HookRegistry, PreToolUseContext};
use agenthub_protocol::ToolCall;
use agenthub_settings::{CommandHookConfig, HookHandler, HttpHook};
use agenthub_settings::{FailurePolicy, HookEvent, Matcher};
use agenthub_tools::{PreparedCall, ToolRegistry};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_util::sync::CancellationToken;

const SCRIPT: &str = "#!/bin/sh\ncat > /dev/null\necho '{\"hookSpecificOutput\": {\"hookEventName\": \"PreToolUse\", \"permissionDecision\": \"allow\"}}'\n";

struct Fixture {
    _dir: tempfile::TempDir,
    workspace: PathBuf,
    script: String,
    common: HookCommon,
    call: PreparedCall,
    registry: HookRegistry,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let workspace = dir.path().canonicalize().unwrap();
    let script_path = workspace.join("allow.sh");
    std::fs::write(&script_path, SCRIPT).unwrap();
    std::process::Command::new("chmod")
        .arg("+x")
        .arg(&script_path)
        .status()
        .unwrap();
    let script = script_path.display().to_string();
    let common = HookCommon {
        session_id: "bench".into(),
        workspace: workspace.clone(),
        transcript_path: Some(workspace.join("t.jsonl")),
        permission_mode: agenthub_protocol::PermissionMode::Default,
        cancel: CancellationToken::new(),
        agent: None,
    };
    let tools = ToolRegistry::with_builtins().unwrap();
    let call = tools
        .prepare(&ToolCall::new("call_1", "Echo", r#"{"text":"hello"}"#))
        .unwrap();
    let config = CommandHookConfig {
        event: HookEvent::PreToolUse,
        matcher: Matcher::parse(Some("Echo")).unwrap(),
        command: script.clone(),
        args: None,
        condition: None,
        timeout: Duration::from_secs(600),
        on_failure: FailurePolicy::Block,
        on_failure_given: false,
        handler: HookHandler::Command,
        run_async: false,
        once: false,
        source: workspace.join(".agenthub/settings.json"),
        index: 0,
        json_path: "hooks.PreToolUse[0].hooks[0]".into(),
        plugin: None,
    };
    let registry = CommandHooks::new(vec![config.clone()])
        .into_registry()
        .unwrap();
    Fixture {
        _dir: dir,
        workspace,
        script,
        common,
        call,
        registry,
    }
}

/// The floor: the same script, the same stdin, spawned directly.
async fn direct(script: &str, cwd: &Path, stdin: &[u8]) -> Vec<u8> {
    let mut child = tokio::process::Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let write = async {
        let _ = input.write_all(stdin).await;
        drop(input);
    };
    let _ = tokio::join!(
        write,
        stdout.read_to_end(&mut out),
        stderr.read_to_end(&mut err)
    );
    child.wait().await.unwrap();
    out
}

fn command_hook(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let fixture = fixture();
    let context = PreToolUseContext {
        common: fixture.common.clone(),
        call: fixture.call.clone(),
    };
    let stdin = serde_json::to_vec(&agenthub_hooks::events::pre_tool_use::input(&context)).unwrap();
    let mut group =
        c.benchmark_group("one command hook (PreToolUse, script reads stdin, prints allow JSON)");
    group
        .sample_size(60)
        .measurement_time(Duration::from_secs(15));
    group.bench_function("direct: tokio spawn of the same script", |b| {
        b.iter(|| runtime.block_on(direct(&fixture.script, &fixture.workspace, &stdin)))
    });
    group.bench_function("runner: AgentHub's runner alone", |b| {
        b.iter(|| {
            let invocation = Invocation {
                program: Program::Shell(fixture.script.clone()),
                cwd: fixture.workspace.clone(),
                env: agenthub_hooks::command::environment(&fixture.workspace, "bench"),
                stdin: stdin.clone(),
                timeout: Duration::from_secs(600),
                cancel: CancellationToken::new(),
            };
            black_box(runtime.block_on(runner::run(invocation)))
        })
    });
    group.bench_function(
        "engine: one PreToolUse command hook through the registry",
        |b| {
            b.iter(|| {
                black_box(
                    runtime.block_on(
                        fixture
                            .registry
                            .run_pre_tool_use(fixture.common.clone(), fixture.call.clone()),
                    ),
                )
            })
        },
    );
    group.finish();
    http_hook(c, &runtime, &fixture);
}

const ALLOW: &str = "{\"hookSpecificOutput\": {\"hookEventName\": \"PreToolUse\", \"permissionDecision\": \"allow\"}}";

/// A keep-alive HTTP/1.1 server on 127.0.0.1 answering every POST with ALLOW.
async fn serve(listener: tokio::net::TcpListener) {
    loop {
        let Ok((mut socket, _)) = listener.accept().await else {
            return;
        };
        tokio::spawn(async move {
            let mut buffer = Vec::new();
            let mut chunk = [0u8; 8192];
            loop {
                let Some(head_end) = find(&buffer, b"\r\n\r\n") else {
                    match socket.read(&mut chunk).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => buffer.extend_from_slice(&chunk[..n]),
                    }
                    continue;
                };
                let head = String::from_utf8_lossy(&buffer[..head_end]).to_lowercase();
                let length: usize = head
                    .lines()
                    .find_map(|line| line.strip_prefix("content-length:"))
                    .and_then(|value| value.trim().parse().ok())
                    .unwrap_or(0);
                while buffer.len() < head_end + 4 + length {
                    match socket.read(&mut chunk).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => buffer.extend_from_slice(&chunk[..n]),
                    }
                }
                buffer.drain(..head_end + 4 + length);
                let response = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{ALLOW}",
                    ALLOW.len()
                );
                if socket.write_all(response.as_bytes()).await.is_err() {
                    return;
                }
            }
        });
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

fn http_hook(c: &mut Criterion, runtime: &tokio::runtime::Runtime, fixture: &Fixture) {
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    runtime.spawn(serve(listener));
    let config = CommandHookConfig {
        event: HookEvent::PreToolUse,
        matcher: Matcher::parse(Some("Echo")).unwrap(),
        command: url.clone(),
        args: None,
        condition: None,
        timeout: Duration::from_secs(600),
        on_failure: FailurePolicy::Block,
        on_failure_given: false,
        handler: HookHandler::Http(HttpHook {
            url,
            headers: Vec::new(),
            allowed_env_vars: Vec::new(),
            refused: None,
        }),
        run_async: false,
        once: false,
        source: fixture.workspace.join(".agenthub/settings.json"),
        index: 0,
        json_path: "hooks.PreToolUse[0].hooks[0]".into(),
        plugin: None,
    };
    let http = CommandHooks::new(vec![config]).into_registry().unwrap();
    let empty = HookRegistry::new();
    let mut group =
        c.benchmark_group("one http hook (PreToolUse, loopback server answers allow JSON)");
    group
        .sample_size(100)
        .measurement_time(Duration::from_secs(5));
    group.bench_function("http baseline: the registry with no hook", |b| {
        b.iter(|| {
            black_box(
                runtime
                    .block_on(empty.run_pre_tool_use(fixture.common.clone(), fixture.call.clone())),
            )
        })
    });
    group.bench_function(
        "http engine: one PreToolUse http hook through the registry",
        |b| {
            b.iter(|| {
                black_box(
                    runtime.block_on(
                        http.run_pre_tool_use(fixture.common.clone(), fixture.call.clone()),
                    ),
                )
            })
        },
    );
    group.finish();
}

criterion_group!(benches, command_hook);
criterion_main!(benches);
