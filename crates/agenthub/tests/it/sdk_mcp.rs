//! An Agent SDK application's in-process MCP server (`"type": "sdk"` in an
//! inline `--mcp-config`), given to the assembly as a bridge: its tool joins
//! the registry as `mcp__calc__add` and is called through the one pipeline,
//! so a deny rule for it denies it before the application hears of the call,
//! and a deny rule naming the whole server keeps its tools from the model.

use agenthub::{
    Assembly, CancellationToken, ChosenModel, McpConfigSource, Message, ModelSource, Options,
    PermissionOptions, ScriptedCall, ScriptedModel, ScriptedTurn, SdkBridgeError, SdkMcpBridge,
};
use futures::future::BoxFuture;
use serde_json::{json, Value};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// The application's `calc` server, answering as a tiny MCP server would;
/// it notes each method it is sent.
#[derive(Default)]
struct Calculator {
    methods: Mutex<Vec<String>>,
}

impl Calculator {
    fn answer(message: &Value) -> Value {
        let result = match message["method"].as_str().unwrap_or_default() {
            "initialize" => json!({
                "protocolVersion": message["params"]["protocolVersion"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "calc", "version": "1.0.0"}
            }),
            "tools/list" => json!({"tools": [{
                "name": "add",
                "description": "Adds two numbers.",
                "inputSchema": {"type": "object",
                                "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
                                "required": ["a", "b"]}
            }]}),
            "tools/call" => {
                let arguments = &message["params"]["arguments"];
                let sum = arguments["a"].as_f64().unwrap_or_default()
                    + arguments["b"].as_f64().unwrap_or_default();
                json!({"content": [{"type": "text", "text": format!("{sum}")}]})
            }
            _ => json!({}),
        };
        json!({"jsonrpc": "2.0", "id": message["id"], "result": result})
    }
}

impl SdkMcpBridge for Calculator {
    fn send<'a>(
        &'a self,
        server: &'a str,
        message: Value,
    ) -> BoxFuture<'a, Result<Value, SdkBridgeError>> {
        let method = message["method"].as_str().unwrap_or("response");
        self.methods
            .lock()
            .unwrap()
            .push(format!("{server} {method}"));
        Box::pin(async move { Ok(Calculator::answer(&message)) })
    }
}

/// The workspace's assembly with `calc` as an inline `--mcp-config` sdk
/// server served by `application`, and the run's `allow` / `deny` rules.
async fn assembled(
    workspace: &Path,
    application: &Arc<Calculator>,
    allow: &[&str],
    deny: &[&str],
) -> Assembly {
    let rules = |rules: &[&str]| rules.iter().map(|rule| (*rule).to_owned()).collect();
    let options = Options {
        mcp_config: vec![McpConfigSource::Inline(
            json!({"calc": {"type": "sdk", "name": "calc"}}),
        )],
        strict_mcp_config: true,
        permissions: PermissionOptions {
            allow: rules(allow),
            deny: rules(deny),
            ..PermissionOptions::default()
        },
        ..Options::for_workspace(workspace)
    };
    let bridge: Arc<dyn SdkMcpBridge> = application.clone();
    Assembly::load(&options)
        .unwrap()
        .with_sdk_mcp_bridge(bridge)
        .start_mcp_servers()
        .await
        .unwrap()
}

/// The tool results of a run whose scripted model calls `mcp__calc__add`.
async fn add_one_and_two(assembly: Assembly) -> Vec<String> {
    let script = ScriptedModel::new(
        "sdk mcp",
        vec![
            ScriptedTurn {
                content: None,
                tool_calls: vec![ScriptedCall {
                    id: Some("call_1".to_owned()),
                    name: "mcp__calc__add".to_owned(),
                    arguments: json!({"a": 1, "b": 2}),
                }],
            },
            ScriptedTurn {
                content: Some("done".to_owned()),
                tool_calls: Vec::new(),
            },
        ],
    );
    let model = ChosenModel::new(Arc::new(script), ModelSource::Scripted, "scripted");
    let report = assembly
        .agent(model)
        .build()
        .run("add", CancellationToken::new())
        .await;
    report
        .history
        .iter()
        .filter_map(|message| match message {
            Message::Tool { content, .. } => Some(content.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn an_sdk_servers_tool_joins_the_assemblys_registry() {
    let workspace = tempfile::tempdir().unwrap();
    let application = Arc::new(Calculator::default());
    let assembly = assembled(workspace.path(), &application, &[], &[]).await;
    let spec = assembly
        .tools()
        .specs()
        .into_iter()
        .find(|spec| spec.name.starts_with("mcp__"))
        .map(|spec| (spec.name, spec.description));
    assert_eq!(
        (spec, assembly.mcp_warnings()),
        (
            Some(("mcp__calc__add".to_owned(), "Adds two numbers.".to_owned())),
            vec![]
        )
    );
}

#[tokio::test]
async fn an_allowed_sdk_tool_is_called_through_the_pipeline_and_answers() {
    let workspace = tempfile::tempdir().unwrap();
    let application = Arc::new(Calculator::default());
    let assembly = assembled(workspace.path(), &application, &["mcp__calc__add"], &[]).await;
    assert_eq!(add_one_and_two(assembly).await, ["3"]);
}

#[tokio::test]
async fn a_deny_rule_for_an_sdk_tool_denies_it_before_the_application_hears_of_it() {
    let workspace = tempfile::tempdir().unwrap();
    let application = Arc::new(Calculator::default());
    let assembly = assembled(
        workspace.path(),
        &application,
        &["mcp__calc"],
        &["mcp__calc__add"],
    )
    .await;
    let results = add_one_and_two(assembly).await;
    let methods = application.methods.lock().unwrap().clone();
    assert_eq!(
        (results, methods),
        (
            vec!["Error [permission_denied]: the tool was not run: permission denied: mcp__calc__add matches deny rule mcp__calc__add (command line)".to_owned()],
            vec![
                "calc initialize".to_owned(),
                "calc notifications/initialized".to_owned(),
                "calc tools/list".to_owned()
            ]
        )
    );
}

/// The tools the agent built from `assembly` offers its model.
fn offered(assembly: Assembly) -> Vec<String> {
    let script = ScriptedModel::new("offered", Vec::new());
    let model = ChosenModel::new(Arc::new(script), ModelSource::Scripted, "scripted");
    let agent = assembly.agent(model).build();
    agent
        .tools()
        .specs()
        .into_iter()
        .map(|spec| spec.name)
        .collect()
}

#[tokio::test]
async fn deny_rules_naming_whole_tools_withhold_them_from_the_model_and_a_specifier_withholds_nothing(
) {
    let workspace = tempfile::tempdir().unwrap();
    let application = Arc::new(Calculator::default());
    let denied = ["mcp__calc", "Task", "Bash(rm:*)", "Write"];
    let assembly = assembled(workspace.path(), &application, &[], &denied).await;
    let registered = assembly.tools().get("Task").is_some();
    assert_eq!(
        (registered, offered(assembly)),
        (
            true,
            vec![
                "Read".to_owned(),
                "Edit".to_owned(),
                "Bash".to_owned(),
                "Glob".to_owned(),
                "Grep".to_owned(),
                "TodoWrite".to_owned(),
                "WebFetch".to_owned(),
                "Echo".to_owned()
            ]
        )
    );
}
