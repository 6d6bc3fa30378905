//! Traces over OTLP/HTTP through the real binary (contract §25): a loopback
//! collector gets one trace per session — a `session` span; `chat` spans per
//! model request; `execute_tool` spans with the permission decision and who
//! made it (a default allow, a rule's deny, an ask a PermissionRequest hook
//! answered, a PreToolUse hook's block); `hook` spans under their call with the command's exit code; a
//! subagent's spans under its Task call — in both encodings, and never a
//! prompt, a file's content or a tool's output. Each `chat` span names the
//! provider, the conversation (the session id), the response model and its
//! finish reasons (contract §31). An unreachable collector never fails a
//! run and costs it at most about a second, with a warning naming it.

use crate::support::home::Home;
use crate::support::otlp::{
    read_json, read_protobuf, Collector, Export, PlainSpan, SilentCollector,
};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

const PROMPT: &str = "PROMPT-SECRET please work";

/// A session with a PreToolUse hook on every call, an allowed Read, a Bash
/// call a deny rule refuses, a Write whose ask a PermissionRequest hook
/// allows, a Glob the PreToolUse hook blocks, and a subagent that reads a file.
fn traced_session(home: &Home, env: &[(&str, String)]) -> std::process::Output {
    let pre = home.base.join("pre.sh");
    let approve = home.base.join("approve.sh");
    home.write(
        "pre.sh",
        "#!/bin/sh\ncase \"$(cat)\" in *'\"tool_name\":\"Glob\"'*) echo 'no globs' >&2; exit 2 ;; esac\nexit 0\n",
    );
    home.write(
        "approve.sh",
        "#!/bin/sh\ncat > /dev/null\necho '{\"hookSpecificOutput\": {\"hookEventName\": \"PermissionRequest\", \"decision\": {\"behavior\": \"allow\"}}}'\n",
    );
    for script in [&pre, &approve] {
        std::process::Command::new("chmod")
            .arg("+x")
            .arg(script)
            .status()
            .unwrap();
    }
    home.settings(json!({
        "permissions": {"allow": ["Task"]},
        "hooks": {
            "PreToolUse": [{"hooks": [{"type": "command", "command": pre}]}],
            "PermissionRequest": [{"matcher": "Write", "hooks": [{"type": "command", "command": approve}]}],
        },
    }));
    home.write("ws/README.md", "README-SECRET contents\n");
    let script = json!({
        "turns": [
            {"tool_calls": [
                {"id": "r1", "name": "Read", "arguments": {"file_path": "README.md"}},
                {"id": "b1", "name": "Bash", "arguments": {"command": "rm -rf build"}},
                {"id": "w1", "name": "Write", "arguments": {"file_path": "notes.txt", "content": "WRITE-SECRET"}},
                {"id": "g1", "name": "Glob", "arguments": {"pattern": "*.md"}},
            ], "usage": usage(1)},
            {"tool_calls": [{"id": "t1", "name": "Task", "arguments": {
                "description": "look", "prompt": "TASK-SECRET read it", "subagent_type": "general-purpose"}}],
             "usage": usage(2)},
            {"content": "done: {{last_tool_result}}", "usage": usage(3)}
        ],
        "subagents": [{"turns": [
            {"tool_calls": [{"id": "s1", "name": "Read", "arguments": {"file_path": "README.md"}}]},
            {"content": "child done"}
        ]}]
    });
    let path = home.base.join("script.json");
    std::fs::write(&path, script.to_string()).unwrap();
    let mut command = home.agenthub();
    command
        .args([
            "run",
            "--output-format",
            "json",
            "--deny",
            "Bash(rm:*)",
            "--script",
        ])
        .arg(&path)
        .arg(PROMPT)
        .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
        .env_remove("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
        .env_remove("OTEL_EXPORTER_OTLP_PROTOCOL")
        .env_remove("OTEL_SDK_DISABLED");
    for (name, value) in env {
        command.env(name, value);
    }
    command.output().unwrap()
}

/// The usage the scripted model reports for its `turn`-th reply.
fn usage(turn: u64) -> Value {
    json!({"input_tokens": 100 * turn, "output_tokens": turn})
}

fn by_name<'a>(export: &'a Export, name: &str) -> Vec<&'a PlainSpan> {
    export
        .spans
        .iter()
        .filter(|span| span.name == name)
        .collect()
}

fn one<'a>(export: &'a Export, name: &str, call: &str) -> &'a PlainSpan {
    let found: Vec<_> = by_name(export, name)
        .into_iter()
        .filter(|span| span.attributes.get("gen_ai.tool.call.id") == Some(&json!(call)))
        .collect();
    assert_eq!(found.len(), 1, "one {name} span for {call}: {found:#?}");
    found[0]
}

/// The attributes of `span` named in `keys`.
fn picked(span: &PlainSpan, keys: &[&str]) -> BTreeMap<String, Value> {
    keys.iter()
        .filter_map(|key| Some(((*key).to_owned(), span.attributes.get(*key)?.clone())))
        .collect()
}

fn attributes(pairs: &[(&str, Value)]) -> BTreeMap<String, Value> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect()
}

const PERMISSION: &[&str] = &[
    "gen_ai.operation.name",
    "gen_ai.tool.name",
    "gen_ai.tool.call.id",
    "agenthub.permission.decision",
    "agenthub.permission.source",
    "agenthub.permission.approval",
    "agenthub.permission.asked_by",
    "agenthub.sandbox",
    "error.type",
];

/// Checks the whole tree and its attributes; `user_settings` is the hook file.
fn check_tree(export: &Export, home: &Home) {
    let sessions = by_name(export, "session");
    assert_eq!(sessions.len(), 1, "{:#?}", export.spans);
    let session = sessions[0];
    assert_eq!(session.parent, "");
    assert!(export
        .spans
        .iter()
        .all(|span| span.trace_id == session.trace_id));
    assert_eq!(
        picked(session, &["agenthub.outcome", "agenthub.turns"]),
        attributes(&[
            ("agenthub.outcome", json!("completed")),
            ("agenthub.turns", json!(3))
        ])
    );

    let chats = by_name(export, "chat scripted");
    assert_eq!(
        chats.len(),
        5,
        "3 requests of the session, 2 of the subagent"
    );
    let mut chat_attributes: Vec<_> = chats
        .iter()
        .map(|chat| {
            let keys = [
                "gen_ai.operation.name",
                "gen_ai.provider.name",
                "gen_ai.conversation.id",
                "gen_ai.request.model",
                "gen_ai.response.model",
                "gen_ai.usage.input_tokens",
                "gen_ai.usage.output_tokens",
            ];
            (chat.kind, picked(chat, &keys))
        })
        .collect();
    let conversation = session.attributes["gen_ai.conversation.id"].clone();
    let reply = |chat: &&PlainSpan| chat.attributes["gen_ai.response.finish_reasons"].clone();
    let mut finish_reasons: Vec<Value> = chats.iter().map(reply).collect();
    finish_reasons.sort_by_key(Value::to_string);
    assert_eq!(
        finish_reasons,
        [
            json!(["end_turn"]),
            json!(["end_turn"]),
            json!(["tool_use"]),
            json!(["tool_use"]),
            json!(["tool_use"])
        ]
    );
    chat_attributes.sort_by_key(|(_, found)| {
        found
            .get("gen_ai.usage.output_tokens")
            .and_then(Value::as_i64)
    });
    // The subagent's script reports no usage: its requests have none (unknown, not 0).
    let asked = [
        ("gen_ai.operation.name", json!("chat")),
        ("gen_ai.provider.name", json!("agenthub.scripted")),
        ("gen_ai.conversation.id", conversation),
        ("gen_ai.request.model", json!("scripted")),
        ("gen_ai.response.model", json!("scripted")),
    ];
    let unreported = attributes(&asked);
    let mut expected = vec![(3, unreported.clone()), (3, unreported)];
    expected.extend((1..=3).map(|turn: i64| {
        (
            3,
            attributes(
                &[
                    asked.to_vec(),
                    vec![
                        ("gen_ai.usage.input_tokens", json!(100 * turn)),
                        ("gen_ai.usage.output_tokens", json!(turn)),
                    ],
                ]
                .concat(),
            ),
        )
    }));
    assert_eq!(chat_attributes, expected);
    let under_session = chats
        .iter()
        .filter(|chat| chat.parent == session.span_id)
        .count();
    assert_eq!(under_session, 3);

    let read = one(export, "execute_tool Read", "r1");
    assert_eq!(read.parent, session.span_id);
    assert_eq!(
        picked(read, PERMISSION),
        attributes(&[
            ("gen_ai.operation.name", json!("execute_tool")),
            ("gen_ai.tool.name", json!("Read")),
            ("gen_ai.tool.call.id", json!("r1")),
            ("agenthub.permission.decision", json!("allow")),
            ("agenthub.permission.source", json!("default")),
            ("agenthub.sandbox", json!("none")),
        ])
    );
    let bash = one(export, "execute_tool Bash", "b1");
    assert_eq!(
        (picked(bash, PERMISSION), bash.failed),
        (
            attributes(&[
                ("gen_ai.operation.name", json!("execute_tool")),
                ("gen_ai.tool.name", json!("Bash")),
                ("gen_ai.tool.call.id", json!("b1")),
                ("agenthub.permission.decision", json!("deny")),
                (
                    "agenthub.permission.source",
                    json!("rule Bash(rm:*) (command line)")
                ),
                ("agenthub.sandbox", json!("workspace-write")),
                ("error.type", json!("permission_denied")),
            ]),
            true
        )
    );
    let approve = home.base.join("approve.sh").display().to_string();
    let write = one(export, "execute_tool Write", "w1");
    assert_eq!(
        picked(write, PERMISSION),
        attributes(&[
            ("gen_ai.operation.name", json!("execute_tool")),
            ("gen_ai.tool.name", json!("Write")),
            ("gen_ai.tool.call.id", json!("w1")),
            ("agenthub.permission.decision", json!("ask")),
            ("agenthub.permission.asked_by", json!("default")),
            ("agenthub.permission.approval", json!("allow")),
            (
                "agenthub.permission.source",
                json!(format!("hook {approve}"))
            ),
            ("agenthub.sandbox", json!("none")),
        ])
    );

    let glob = one(export, "execute_tool Glob", "g1");
    let pre = home.base.join("pre.sh").display().to_string();
    assert_eq!(
        picked(glob, PERMISSION),
        attributes(&[
            ("gen_ai.operation.name", json!("execute_tool")),
            ("gen_ai.tool.name", json!("Glob")),
            ("gen_ai.tool.call.id", json!("g1")),
            ("agenthub.permission.decision", json!("deny")),
            ("agenthub.permission.source", json!(format!("hook {pre}"))),
            ("agenthub.sandbox", json!("none")),
            ("error.type", json!("hook_blocked")),
        ])
    );

    let hooks = by_name(export, "hook PreToolUse");
    assert_eq!(hooks.len(), 6, "r1, b1, w1, g1, t1 and the subagent's s1");
    for hook in &hooks {
        let parent = export
            .spans
            .iter()
            .find(|span| span.span_id == hook.parent)
            .unwrap();
        let (outcome, code) = if parent.span_id == glob.span_id {
            ("blocked", 2)
        } else {
            ("ok", 0)
        };
        assert_eq!(
            picked(
                hook,
                &[
                    "agenthub.hook.command",
                    "agenthub.hook.outcome",
                    "agenthub.hook.exit_code"
                ]
            ),
            attributes(&[
                ("agenthub.hook.command", json!(pre)),
                ("agenthub.hook.outcome", json!(outcome)),
                ("agenthub.hook.exit_code", json!(code)),
            ])
        );
        assert!(
            parent.name.starts_with("execute_tool "),
            "a tool's hook is under its call: {parent:#?}"
        );
        assert!(
            hook.start >= parent.start && hook.end <= parent.end,
            "{hook:#?} within {parent:#?}"
        );
    }
    let asked = by_name(export, "hook PermissionRequest");
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].parent, write.span_id);
    assert_eq!(
        asked[0].attributes.get("agenthub.hook.decision"),
        Some(&json!("allow"))
    );

    let task = one(export, "execute_tool Task", "t1");
    let invoke = by_name(export, "invoke_agent general-purpose");
    assert_eq!(invoke.len(), 1);
    assert_eq!(invoke[0].parent, task.span_id);
    assert_eq!(
        picked(invoke[0], &["gen_ai.operation.name", "gen_ai.agent.name"]),
        attributes(&[
            ("gen_ai.operation.name", json!("invoke_agent")),
            ("gen_ai.agent.name", json!("general-purpose")),
        ])
    );
    let child_read = one(export, "execute_tool Read", "s1");
    assert_eq!(child_read.parent, invoke[0].span_id);
    let child_chats = chats
        .iter()
        .filter(|chat| chat.parent == invoke[0].span_id)
        .count();
    assert_eq!(child_chats, 2);
}

/// No prompt, file content, tool input or output is in any body.
fn assert_no_contents(bodies: &[Vec<u8>]) {
    for body in bodies {
        let text = String::from_utf8_lossy(body);
        for secret in [
            "PROMPT-SECRET",
            "README-SECRET",
            "WRITE-SECRET",
            "TASK-SECRET",
            "rm -rf",
        ] {
            assert!(!text.contains(secret), "{secret} was exported");
        }
    }
}

#[test]
fn a_session_is_one_trace_of_requests_calls_hooks_and_its_subagent_over_protobuf() {
    let home = Home::new();
    let collector = Collector::start();
    let output = traced_session(
        &home,
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", collector.endpoint()),
            (
                "OTEL_EXPORTER_OTLP_HEADERS",
                "x-api-key=k%3D1,x-team=ai".to_owned(),
            ),
            ("OTEL_SERVICE_NAME", "reviewer".to_owned()),
        ],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let received = collector.received();
    assert!(!received.is_empty());
    assert!(received.iter().all(|request| request.path == "/v1/traces"
        && request.headers.get("content-type").map(String::as_str)
            == Some("application/x-protobuf")
        && request.headers.get("x-api-key").map(String::as_str) == Some("k=1")
        && request.headers.get("x-team").map(String::as_str) == Some("ai")));
    let export = read_protobuf(&received);
    assert_eq!(
        export.resource.get("service.name"),
        Some(&json!("reviewer"))
    );
    check_tree(&export, &home);
    assert_no_contents(&received.iter().map(|r| r.body.clone()).collect::<Vec<_>>());
}

#[test]
fn the_same_trace_goes_out_as_otlp_json_to_the_traces_endpoint_as_given() {
    let home = Home::new();
    let collector = Collector::start();
    let output = traced_session(
        &home,
        &[
            (
                "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
                format!("{}/custom/traces", collector.endpoint()),
            ),
            ("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json".to_owned()),
        ],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let received = collector.received();
    assert!(received
        .iter()
        .all(|request| request.path == "/custom/traces"
            && request.headers.get("content-type").map(String::as_str)
                == Some("application/json")));
    let export = read_json(&received);
    assert_eq!(
        export.resource.get("service.name"),
        Some(&json!("agenthub"))
    );
    check_tree(&export, &home);
    assert_no_contents(&received.iter().map(|r| r.body.clone()).collect::<Vec<_>>());
}

fn timed(home: &Home, env: &[(&str, String)]) -> (std::process::Output, Duration) {
    let started = Instant::now();
    let output = traced_session(home, env);
    (output, started.elapsed())
}

#[test]
fn a_collector_that_never_answers_delays_the_end_of_a_run_by_about_a_second_at_most() {
    let home = Home::new();
    // Accepts connections, reads the requests and never answers.
    let silent = SilentCollector::start();
    let endpoint = silent.endpoint();
    let (_, without) = timed(&home, &[]);
    let (output, with) = timed(&home, &[("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint.clone())]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["status"], "completed");
    assert!(
        with < without + Duration::from_millis(2000),
        "with a silent collector {with:?}, without tracing {without:?}"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!(
            "[Warning] traces were left unsent: {endpoint}/v1/traces (OTEL_EXPORTER_OTLP_ENDPOINT) did not answer within 1 s\n"
        )),
        "{stderr}"
    );
}

#[test]
fn a_refused_collector_is_a_warning_and_the_run_still_completes() {
    let home = Home::new();
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let endpoint = format!("http://127.0.0.1:{}", closed.local_addr().unwrap().port());
    drop(closed);
    let output = traced_session(&home, &[("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint.clone())]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!(
            "[Warning] traces could not be sent to {endpoint}/v1/traces"
        )),
        "{stderr}"
    );
}

#[test]
fn an_unsupported_protocol_is_a_warning_and_traces_stay_off() {
    let home = Home::new();
    let collector = Collector::start();
    let output = traced_session(
        &home,
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", collector.endpoint()),
            ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc".to_owned()),
        ],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("OTEL_EXPORTER_OTLP_PROTOCOL=\"grpc\" is not supported"),
        "{stderr}"
    );
    assert!(collector.received().is_empty());
}

/// `agenthub run --script` with `args`, traces sent to `collector`.
fn traced_run(home: &Home, collector: &Collector, args: &[&str]) -> Value {
    let script = home.base.join("answer.json");
    std::fs::write(&script, json!({"turns": [{"content": "ok"}]}).to_string()).unwrap();
    let output = home
        .agenthub()
        .args(["run", "--output-format", "json", "--script"])
        .arg(&script)
        .args(args)
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", collector.endpoint())
        .env_remove("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
        .env_remove("OTEL_SDK_DISABLED")
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn a_resumed_sessions_chat_spans_name_the_session_they_go_on() {
    let home = Home::new();
    let first = Collector::start();
    let report = traced_run(&home, &first, &["hello"]);
    let id = report["session_id"].as_str().unwrap().to_owned();
    let resumed = Collector::start();
    traced_run(&home, &resumed, &["--resume", &id, "again"]);
    let export = read_protobuf(&resumed.received());
    let conversations: Vec<Value> = by_name(&export, "chat scripted")
        .iter()
        .chain(by_name(&export, "session").iter())
        .map(|span| span.attributes["gen_ai.conversation.id"].clone())
        .collect();
    assert_eq!(conversations, [json!(id), json!(id)]);
}
