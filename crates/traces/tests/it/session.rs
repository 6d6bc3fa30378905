//! One session is one trace (contract §25): a `session` span with its
//! outcome and turns; a `chat` span per model request with its provider,
//! conversation id, response model, finish reasons and usage; an
//! `execute_tool` span per call with the permission decision and who made
//! it — sent with the configured headers and service name, as protobuf or
//! as OTLP/JSON, and never a prompt, a file's content or a tool's input.

use agenthub_core::Agent;
use agenthub_core::{AgentEvent, Observer};
use agenthub_model::ScriptedModel;
use agenthub_policy::rule::path::PathAnchors;
use agenthub_policy::rule::{parse_rule, RuleContext};
use agenthub_policy::{PermissionMode, PolicyConfig, PolicyEngine, RuleList, RuleOrigin};
use agenthub_protocol::{PermissionEffect, PermissionRecord, PermissionSource, RunStatus};
use agenthub_tools::{ToolRegistry, Workspace};
use agenthub_traces::test_collector::{
    read_json, read_protobuf, Collector, Export, PlainSpan, Received,
};
use agenthub_traces::{SandboxFacts, SessionTracer, SpanExporter, TraceConfig, TraceProtocol};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

const PROMPT: &str = "PROMPT-SECRET please work";
const SESSION: &str = "4b9f0c3e-0000-4000-8000-000000000031";

/// The policy of the default mode with `Bash(rm:*)` denied on the command line.
fn deny_rm(ws: &Path) -> PolicyEngine {
    let anchors = PathAnchors {
        workspace: ws.to_path_buf(),
        settings_root: ws.to_path_buf(),
        home: None,
    };
    let context = RuleContext {
        list: RuleList::Deny,
        anchors: &anchors,
        extra_tools: &[],
    };
    let rule = parse_rule("Bash(rm:*)", RuleOrigin::CommandLine, context).unwrap();
    let config = PolicyConfig {
        rules: vec![rule],
        mode: PermissionMode::Default,
        ..PolicyConfig::default()
    };
    PolicyEngine::new(config, None)
}

/// A session exporting to `config`: an allowed Read, then a Bash call the
/// deny rule refuses, then an answer; every request reports its usage.
async fn traced_session(config: TraceConfig) {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().canonicalize().unwrap();
    std::fs::write(ws.join("README.md"), "README-SECRET contents\n").unwrap();
    let usage = |turn: u64| json!({"input_tokens": 100 * turn, "output_tokens": turn});
    let script = json!({"turns": [
        {"tool_calls": [{"id": "r1", "name": "Read", "arguments": {"file_path": "README.md"}}],
         "usage": usage(1)},
        {"tool_calls": [{"id": "b1", "name": "Bash", "arguments": {"command": "rm -rf build"}}],
         "usage": usage(2)},
        {"content": "done", "usage": usage(3)}
    ]});
    let model = ScriptedModel::from_json("scripted", &script.to_string()).unwrap();
    let exporter = SpanExporter::start(config).unwrap();
    let tracer = SessionTracer::new(
        exporter.clone(),
        Some("scripted".into()),
        SandboxFacts::default(),
        None,
    )
    .provider("openai");
    let agent = Agent::builder(Arc::new(model), ToolRegistry::with_builtins().unwrap())
        .session_id(SESSION)
        .workspace(Workspace::new(ws.clone()))
        .policy(Arc::new(deny_rm(&ws)))
        .also_observe(Arc::new(tracer))
        .build();
    let report = agent.run(PROMPT, CancellationToken::new()).await;
    assert_eq!(report.status, RunStatus::Completed);
    drop(agent);
    exporter.flush(Duration::from_secs(10)).await;
}

fn config(endpoint: String, protocol: TraceProtocol, service_name: &str) -> TraceConfig {
    TraceConfig {
        endpoint,
        protocol,
        headers: vec![("x-team".to_owned(), "ai".to_owned())],
        service_name: service_name.to_owned(),
        resource: Vec::new(),
    }
}

fn by_name<'a>(export: &'a Export, name: &str) -> Vec<&'a PlainSpan> {
    export
        .spans
        .iter()
        .filter(|span| span.name == name)
        .collect()
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
        .map(|(key, value)| ((*key).to_owned(), value.clone()))
        .collect()
}

const CALL: &[&str] = &[
    "gen_ai.operation.name",
    "gen_ai.tool.name",
    "gen_ai.tool.call.id",
    "agenthub.permission.decision",
    "agenthub.permission.source",
    "error.type",
];

/// The whole tree: one trace, the session at its root, everything under it.
fn check_tree(export: &Export) {
    let sessions = by_name(export, "session");
    assert_eq!(sessions.len(), 1, "{:#?}", export.spans);
    let session = sessions[0];
    let under_session = export
        .spans
        .iter()
        .filter(|span| span.name != "session")
        .all(|span| span.parent == session.span_id && span.trace_id == session.trace_id);
    let chats: Vec<_> = by_name(export, "chat scripted")
        .into_iter()
        .map(|chat| {
            let keys = [
                "gen_ai.operation.name",
                "gen_ai.provider.name",
                "gen_ai.conversation.id",
                "gen_ai.request.model",
                "gen_ai.response.model",
                "gen_ai.response.finish_reasons",
                "gen_ai.usage.input_tokens",
                "gen_ai.usage.output_tokens",
            ];
            picked(chat, &keys)
        })
        .collect();
    let chat = |turn: i64, finish: &str| {
        attributes(&[
            ("gen_ai.operation.name", json!("chat")),
            ("gen_ai.provider.name", json!("openai")),
            ("gen_ai.conversation.id", json!(SESSION)),
            ("gen_ai.request.model", json!("scripted")),
            ("gen_ai.response.model", json!("scripted")),
            ("gen_ai.response.finish_reasons", json!([finish])),
            ("gen_ai.usage.input_tokens", json!(100 * turn)),
            ("gen_ai.usage.output_tokens", json!(turn)),
        ])
    };
    let call = |name: &str| {
        let spans = by_name(export, name);
        assert_eq!(spans.len(), 1, "one {name}");
        (picked(spans[0], CALL), spans[0].failed)
    };
    assert_eq!(
        (
            session.parent.as_str(),
            picked(session, &["agenthub.outcome", "agenthub.turns"]),
            under_session,
            chats,
            call("execute_tool Read"),
            call("execute_tool Bash"),
        ),
        (
            "",
            attributes(&[
                ("agenthub.outcome", json!("completed")),
                ("agenthub.turns", json!(3))
            ]),
            true,
            vec![
                chat(1, "tool_calls"),
                chat(2, "tool_calls"),
                chat(3, "stop")
            ],
            (
                attributes(&[
                    ("gen_ai.operation.name", json!("execute_tool")),
                    ("gen_ai.tool.name", json!("Read")),
                    ("gen_ai.tool.call.id", json!("r1")),
                    ("agenthub.permission.decision", json!("allow")),
                    ("agenthub.permission.source", json!("default")),
                ]),
                false
            ),
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
                    ("error.type", json!("permission_denied")),
                ]),
                true
            ),
        )
    );
}

/// No prompt, file content or tool input is in any body.
fn assert_no_contents(received: &[Received]) {
    for request in received {
        let text = String::from_utf8_lossy(&request.body);
        for secret in ["PROMPT-SECRET", "README-SECRET", "rm -rf"] {
            assert!(!text.contains(secret), "{secret} was exported");
        }
    }
}

/// Whether every request went to `path` with `content_type` and the header.
fn all_sent(received: &[Received], path: &str, content_type: &str) -> bool {
    !received.is_empty()
        && received.iter().all(|request| {
            request.path == path
                && request.headers.get("content-type").map(String::as_str) == Some(content_type)
                && request.headers.get("x-team").map(String::as_str) == Some("ai")
        })
}

#[tokio::test]
async fn a_session_is_one_trace_of_requests_and_calls_with_their_decisions_over_protobuf() {
    let collector = Collector::start();
    let endpoint = format!("{}/v1/traces", collector.endpoint());
    traced_session(config(endpoint, TraceProtocol::Protobuf, "reviewer")).await;
    let received = collector.received();
    let export = read_protobuf(&received);
    assert_eq!(
        (
            all_sent(&received, "/v1/traces", "application/x-protobuf"),
            export.resource.get("service.name")
        ),
        (true, Some(&json!("reviewer")))
    );
    check_tree(&export);
    assert_no_contents(&received);
}

#[tokio::test]
async fn the_same_trace_goes_out_as_otlp_json_to_the_endpoint_as_given() {
    let collector = Collector::start();
    let endpoint = format!("{}/custom/traces", collector.endpoint());
    traced_session(config(endpoint, TraceProtocol::Json, "agenthub")).await;
    let received = collector.received();
    let export = read_json(&received);
    assert_eq!(
        (
            all_sent(&received, "/custom/traces", "application/json"),
            export.resource.get("service.name")
        ),
        (true, Some(&json!("agenthub")))
    );
    check_tree(&export);
    assert_no_contents(&received);
}

/// A `Network` permission record (the sandbox proxy's decision, contract §32).
fn network_record(id: &str, host: &str, allowed: bool, rule: Option<&str>) -> PermissionRecord {
    PermissionRecord {
        agent_id: None,
        tool: "Network".to_owned(),
        tool_use_id: id.to_owned(),
        host: Some(host.to_owned()),
        effect: match allowed {
            true => PermissionEffect::Allow,
            false => PermissionEffect::Deny,
        },
        source: match rule {
            Some(_) => PermissionSource::Rule,
            None => PermissionSource::Approval,
        },
        rule: rule.map(str::to_owned),
        reason: "REASON-SECRET".to_owned(),
    }
}

#[tokio::test]
async fn each_network_decision_is_a_network_span_with_its_host_decision_and_decider() {
    let collector = Collector::start();
    let endpoint = format!("{}/v1/traces", collector.endpoint());
    let exporter = SpanExporter::start(config(endpoint, TraceProtocol::Json, "agenthub")).unwrap();
    let tracer = SessionTracer::new(exporter.clone(), None, SandboxFacts::default(), None);
    let allowed = network_record(
        "network-1",
        "registry.example.com:443",
        true,
        Some("*.example.com (sandbox.network.allowedDomains)"),
    );
    let refused = network_record("network-2", "example.net:80", false, None);
    tracer.on_event(&AgentEvent::Permission(&allowed)).unwrap();
    tracer.on_event(&AgentEvent::Permission(&refused)).unwrap();
    drop(tracer);
    exporter.flush(Duration::from_secs(10)).await;
    let received = collector.received();
    let export = read_json(&received);
    let spans: Vec<(String, BTreeMap<String, Value>, bool)> = export
        .spans
        .iter()
        .filter(|span| span.name.starts_with("network "))
        .map(|span| {
            let keys = [
                "agenthub.network.host",
                "agenthub.permission.decision",
                "agenthub.permission.source",
            ];
            (span.name.clone(), picked(span, &keys), span.failed)
        })
        .collect();
    assert_eq!(
        spans,
        vec![
            (
                "network registry.example.com:443".to_owned(),
                attributes(&[
                    ("agenthub.network.host", json!("registry.example.com:443")),
                    ("agenthub.permission.decision", json!("allow")),
                    (
                        "agenthub.permission.source",
                        json!("rule *.example.com (sandbox.network.allowedDomains)")
                    ),
                ]),
                false
            ),
            (
                "network example.net:80".to_owned(),
                attributes(&[
                    ("agenthub.network.host", json!("example.net:80")),
                    ("agenthub.permission.decision", json!("deny")),
                    ("agenthub.permission.source", json!("approval")),
                ]),
                true
            ),
        ]
    );
    assert!(received
        .iter()
        .all(|request| !String::from_utf8_lossy(&request.body).contains("REASON-SECRET")));
}
