//! Embedding AgentHub: a workspace and options in, the agent `agenthub run`
//! would build out (the settings files, the permission policy, the command
//! hooks), plus a typed in-process hook. Offline: the model is scripted.
//!
//! `cargo run -p agenthub --example embed`

use agenthub::{
    Assembly, CancellationToken, ChosenModel, HookRegistry, ModelSource, Options, PreToolUseResult,
    RunReport, ScriptedCall, ScriptedModel, ScriptedTurn, SetupError,
};
use serde_json::json;
use std::path::Path;
use std::sync::Arc;

/// Asks for `rm -rf build` (the hook blocks it) and `make` (the default policy
/// asks, and with no approver an ask is a deny), then answers.
pub async fn run_in(workspace: &Path) -> Result<RunReport, SetupError> {
    let hooks = HookRegistry::new().pre_tool_use("no-rm", |ctx| async move {
        let command = ctx.call.input()["command"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        Ok(if command.contains("rm -rf") {
            PreToolUseResult::block("rm -rf is not allowed here")
        } else {
            PreToolUseResult::default()
        })
    });
    let assembly = Assembly::load(&Options::for_workspace(workspace))?.with_hooks(hooks);
    let bash = |id: &str, command: &str| ScriptedCall {
        id: Some(id.to_owned()),
        name: "Bash".to_owned(),
        arguments: json!({ "command": command }),
    };
    let script = ScriptedModel::new(
        "embed example",
        vec![
            ScriptedTurn {
                content: None,
                tool_calls: vec![bash("call_1", "rm -rf build"), bash("call_2", "make")],
            },
            ScriptedTurn {
                content: Some("I was not allowed to clean up.".to_owned()),
                tool_calls: Vec::new(),
            },
        ],
    );
    let model = ChosenModel::new(Arc::new(script), ModelSource::Scripted, "scripted");
    let agent = assembly.agent(model).build();
    Ok(agent
        .run("clean the build folder", CancellationToken::new())
        .await)
}

#[tokio::main]
async fn main() -> Result<(), SetupError> {
    let workspace = std::env::temp_dir();
    let report = run_in(&workspace).await?;
    for message in &report.history {
        println!("{message:?}");
    }
    println!("{}: {}", report.status, report.result.unwrap_or_default());
    Ok(())
}
