//! A custom typed tool and a typed hook in an embedding application, under
//! the library's default policy: the tool's input struct is its JSON Schema
//! (a call that does not match never reaches the handler), and a PostToolUse
//! hook adds a note for the model after the tool ran.
//!
//! `cargo run -p agenthub --example custom_tool`

use agenthub::{
    Agent, CancellationToken, HookRegistry, PathField, PostToolUseResult, RunReport, SchemaError,
    ScriptedCall, ScriptedModel, ScriptedTurn, Tool, ToolCapabilities, ToolContext, ToolEffect,
    ToolError, ToolOutput, ToolRegistry, Workspace,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use std::path::Path;
use std::sync::Arc;

/// Counts the words of a file in the workspace.
struct WordCount;

/// `WordCount`'s input: the schema the model is shown comes from this struct.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct WordCountInput {
    /// The file, relative to the workspace.
    path: String,
}

impl Tool for WordCount {
    type Input = WordCountInput;

    fn name(&self) -> &str {
        "WordCount"
    }

    fn description(&self) -> &str {
        "Counts the words of a text file in the workspace."
    }

    fn effect(&self) -> ToolEffect {
        ToolEffect::ReadOnly
    }

    /// `path` is a file it reads: the workspace boundary, Read deny rules and
    /// hook payloads (made absolute) apply to it as to the built-in Read.
    fn capabilities(&self) -> ToolCapabilities {
        ToolCapabilities::none().reading(PathField::required("path"))
    }

    async fn call(
        &self,
        input: WordCountInput,
        context: ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let bytes = context
            .workspace
            .read_bytes(&input.path)
            .map_err(|error| ToolError::new(format!("cannot read {}: {error}", input.path)))?;
        let words = String::from_utf8_lossy(&bytes).split_whitespace().count();
        Ok(format!("{words} words").into())
    }
}

/// Counts the words of `notes.txt` in `workspace`, once with a valid call and
/// once with a call the schema refuses, then answers with the last result.
pub async fn run_in(workspace: &Path) -> Result<RunReport, SchemaError> {
    let mut tools = ToolRegistry::new();
    tools.register(WordCount)?;
    let hooks = HookRegistry::new().post_tool_use("note", |ctx| async move {
        Ok(PostToolUseResult::context(format!(
            "{} took {} ms",
            ctx.call.name(),
            ctx.result.elapsed.as_millis()
        )))
    });
    let call = |id: &str, arguments| ScriptedCall {
        id: Some(id.to_owned()),
        name: "WordCount".to_owned(),
        arguments,
    };
    let script = ScriptedModel::new(
        "custom tool example",
        vec![
            ScriptedTurn {
                content: None,
                tool_calls: vec![
                    call("call_1", json!({ "path": "notes.txt" })),
                    call("call_2", json!({ "file": "notes.txt" })),
                ],
            },
            ScriptedTurn {
                content: Some("notes.txt has {{last_tool_result}}".to_owned()),
                tool_calls: Vec::new(),
            },
        ],
    );
    let agent = Agent::builder(Arc::new(script), tools)
        .workspace(Workspace::new(workspace))
        .hooks(hooks)
        .build();
    Ok(agent
        .run("how long are my notes?", CancellationToken::new())
        .await)
}

#[tokio::main]
async fn main() {
    let workspace = std::env::temp_dir().join("agenthub-custom-tool-example");
    if let Err(error) = std::fs::create_dir_all(&workspace)
        .and_then(|()| std::fs::write(workspace.join("notes.txt"), "three short words"))
    {
        eprintln!("cannot prepare {}: {error}", workspace.display());
        return;
    }
    let report = match run_in(&workspace).await {
        Ok(report) => report,
        Err(error) => return eprintln!("{error}"),
    };
    for message in &report.history {
        println!("{message:?}");
    }
    println!("{}: {}", report.status, report.result.unwrap_or_default());
}
