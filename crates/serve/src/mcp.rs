//! AgentHub's governed tools for other agents, as an MCP server (contract
//! §23; the CLI's `agenthub mcp serve` on stdio), on the official SDK's
//! server side.
//!
//! Each built-in tool call goes through the one pipeline — PreToolUse hooks,
//! rules, mode, sandbox, PostToolUse — with nobody to ask: an ask is
//! refused with the headless hint (`--allow RULE`, `--permission-mode`)
//! unless a mode or rule allows it. `agenthub_run` runs a whole session, as
//! `agenthub run` would, and answers its final answer; its `cwd` must be
//! the server's workspace or a folder inside it (or inside an
//! `additionalDirectories` entry), symbolic links and `..` resolved first
//! (contract §28); its text content is the final answer, its
//! `structuredContent` the whole result (contract §31). Output saved whole
//! (contract §21) goes beside the session's transcript — for the single
//! calls, where the server's session's transcript would be — and is removed
//! when that session ends. The writer carries MCP only (`transport`
//! frames it); audit lines go to the host's observers.

use crate::{Flags, Host, ServeError, ServedBy};
use agenthub::{
    Agent, Assembly, CancellationToken, ChosenModel, ModelSource, Observers, Options, RunStatus,
    ScriptedModel, SessionStart, ToolCall, ToolRegistry,
};
use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServiceExt};
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tokio::io::{AsyncRead, AsyncWrite};

mod transport;

/// The tool that runs a whole session.
pub const RUN_TOOL: &str = "agenthub_run";

/// The server: one agent for single calls, and the flags for sessions.
#[derive(Clone)]
struct McpServe {
    agent: Arc<Agent>,
    tools: Arc<Vec<Tool>>,
    flags: Flags,
    /// Where the audit lines go and how a headless ask is worded.
    host: Arc<dyn Host>,
    /// Where an `agenthub_run` `cwd` may be: the server's workspace, whose
    /// boundary check (`Workspace::check_inside`, the one every file tool
    /// passes) decides.
    workspace: agenthub::Workspace,
}

/// Serves MCP on `input` and `output` until the client closes `input`; the
/// setup warnings of the server's configuration go to the host first.
pub async fn serve<R, W>(
    flags: Flags,
    host: Arc<dyn Host>,
    input: R,
    output: W,
) -> Result<(), ServeError>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let assembly = Assembly::load(&flags.options)?.start_mcp_servers().await?;
    host.warnings(assembly.warnings());
    let builtins = ToolRegistry::with_builtins()
        .map_err(|error| ServeError::Internal(error.to_string()))?
        .without_demo_tools();
    let tools: Vec<Tool> = builtins
        .iter()
        .filter_map(|tool| assembly.tools().get(tool.name()))
        .filter(|tool| !assembly.policy().denies_tool(tool.name()))
        .map(|tool| {
            Tool::new(
                tool.name().to_owned(),
                tool.description().to_owned(),
                Arc::new(object(tool.input_schema().clone())),
            )
        })
        .chain([run_tool()])
        .collect();
    let model = model_for_calls(&assembly, &flags);
    let workspace = assembly.workspace().clone();
    let observers = host
        .observers(ServedBy::McpServe)
        .into_iter()
        .fold(Observers::new(), Observers::with);
    // The single calls are one session with no transcript: what they save
    // whole goes where its transcript would be, and goes when serving ends.
    let id = uuid::Uuid::new_v4().to_string();
    let outputs = RemovedAtEnd(agenthub::transcripts_dir().join(format!("{id}.outputs")));
    let network_gate = assembly.network_gate();
    let agent = assembly
        .agent(model)
        .session_id(id)
        .outputs_folder(outputs.0.clone())
        .observer(Arc::new(observers))
        .build();
    if let Some(gate) = network_gate {
        gate.connect(agent.person_approver(), agent.observer());
    }
    let server = McpServe {
        agent: Arc::new(agent),
        tools: Arc::new(tools),
        flags,
        host,
        workspace,
    };
    let running = server
        .serve(transport::LineTransport::new(input, output))
        .await
        .map_err(|error| ServeError::Transport(error.to_string()))?;
    running
        .waiting()
        .await
        .map_err(|error| ServeError::Stopped(error.to_string()))?;
    drop(outputs);
    Ok(())
}

/// A session's folder of output saved whole (contract §21), removed with
/// the session's other temporary files when it ends (contract §31).
struct RemovedAtEnd(PathBuf);

impl Drop for RemovedAtEnd {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The model a single call's `prompt` hooks ask: the flags' model when one
/// can be chosen; else one that answers every request with an error
/// naming why (a single call itself never asks a model).
fn model_for_calls(assembly: &Assembly, flags: &Flags) -> ChosenModel {
    match assembly.choose_model(&flags.model) {
        Ok(model) => model,
        Err(why) => ChosenModel::new(
            Arc::new(ScriptedModel::new(
                format!("no model for agenthub mcp serve ({why})"),
                Vec::new(),
            )),
            ModelSource::Provider,
            "none",
        ),
    }
}

fn object(schema: Value) -> Map<String, Value> {
    match schema {
        Value::Object(object) => object,
        _ => Map::new(),
    }
}

/// `agenthub_run`: its text content is the session's final answer, its
/// `structuredContent` the whole result object, which `outputSchema`
/// describes (contract §31).
fn run_tool() -> Tool {
    Tool::new(
        RUN_TOOL,
        "Runs a whole AgentHub session on a prompt (its hooks, rules, sandbox and transcript) and answers its final answer.",
        Arc::new(object(json!({
            "type": "object",
            "properties": {
                "prompt": {"type": "string", "description": "The task."},
                "cwd": {"type": "string", "description": "The workspace folder (default: the server's)."}
            },
            "required": ["prompt"]
        }))),
    )
    .with_raw_output_schema(Arc::new(object(json!({
        "type": "object",
        "properties": {
            "status": {"type": "string", "description": "How the session ended: completed, stopped, failed, …"},
            "result": {"type": ["string", "null"], "description": "The final answer, if there is one."},
            "session_id": {"type": "string"},
            "transcript_path": {"type": "string", "description": "The session's transcript (JSONL)."}
        },
        "required": ["status", "result", "session_id", "transcript_path"]
    }))))
}

fn text_result(text: String, is_error: bool) -> CallToolResult {
    let content = vec![ContentBlock::text(text)];
    match is_error {
        true => CallToolResult::error(content),
        false => CallToolResult::success(content),
    }
}

impl McpServe {
    /// One built-in tool call through the pipeline; a headless ask's result
    /// ends with how to allow it.
    async fn call(
        &self,
        name: &str,
        arguments: Value,
        cancel: CancellationToken,
    ) -> CallToolResult {
        if !self.tools.iter().any(|tool| tool.name == name) || name == RUN_TOOL {
            return text_result(format!("there is no tool {name:?} here"), true);
        }
        let id = format!("mcp_{}", uuid::Uuid::new_v4().simple());
        let call = ToolCall::new(id, name, arguments.to_string());
        let report = self.agent.call_tool(&call, cancel).await;
        let failed = report.is_error;
        let text = match report.denial.as_ref().and_then(|denial| {
            denial
                .how_to_allow
                .as_ref()
                .map(|how| self.host.hint(&denial.tool_name, how))
        }) {
            Some(hint) => format!("{}\n{hint}", report.content),
            None => report.content,
        };
        text_result(text, failed)
    }

    /// `agenthub_run`: a session as `agenthub run` runs one, nobody to ask.
    async fn run_session(&self, arguments: &Value, cancel: CancellationToken) -> CallToolResult {
        let Some(prompt) = arguments.get("prompt").and_then(Value::as_str) else {
            return text_result(
                "agenthub_run needs {\"prompt\": TEXT, \"cwd\"?: DIR}".to_owned(),
                true,
            );
        };
        let mut options = self.flags.options.clone();
        if let Some(cwd) = arguments.get("cwd").and_then(Value::as_str) {
            match self.allowed_cwd(Path::new(cwd)) {
                Ok(cwd) => options.workspace = Some(cwd),
                Err(why) => return text_result(why, true),
            }
        }
        match self.session(options, prompt, cancel).await {
            Ok(result) => result,
            Err(error) => text_result(format!("agenthub_run could not start: {error}"), true),
        }
    }

    /// `cwd` resolved (relative to the server's workspace, links and `..`
    /// followed) when the workspace boundary lets it in and it is a folder;
    /// else why not, naming the allowed roots.
    fn allowed_cwd(&self, cwd: &Path) -> Result<PathBuf, String> {
        let roots: Vec<String> = self
            .workspace
            .roots()
            .iter()
            .map(|root| root.display().to_string())
            .collect();
        let resolved = self
            .workspace
            .check_inside(&cwd.to_string_lossy())
            .map_err(|error| {
                format!(
                    "agenthub_run's cwd cannot be used: {error}; it must be {} or a folder \
                     inside it",
                    roots.join(" or ")
                )
            })?;
        match resolved.real.is_dir() {
            true => Ok(resolved.real),
            false => Err(format!(
                "agenthub_run's cwd {} cannot be used: it is not a folder",
                cwd.display()
            )),
        }
    }

    async fn session(
        &self,
        options: Options,
        prompt: &str,
        cancel: CancellationToken,
    ) -> Result<CallToolResult, ServeError> {
        // The servers start while the model is chosen (§29).
        let assembly = Assembly::load(&options)?.begin_mcp_servers()?;
        let model = assembly.choose_model(&self.flags.model)?;
        let assembly = assembly.mcp_servers_ready().await;
        let mut setup = assembly
            .session(model, SessionStart::new_session())
            .max_turns(self.flags.max_turns);
        for observer in self.host.observers(ServedBy::McpServe) {
            setup = setup.observer(observer);
        }
        let ready = setup.open()?;
        let _outputs = RemovedAtEnd(ready.agent.outputs_folder());
        let report = ready.begin().send_and_end(prompt, cancel).await;
        let id = ready.agent.session_id().to_owned();
        let transcript = ready.transcript;
        let answered = matches!(report.status, RunStatus::Completed | RunStatus::Stopped);
        let text = match (&report.result, &report.error) {
            (Some(result), _) if answered => result.clone(),
            (_, Some(error)) => format!("the session ended {}: {error}", report.status.as_str()),
            _ => format!("the session ended {}", report.status.as_str()),
        };
        let mut result = text_result(text, !answered);
        result.structured_content = Some(json!({
            "status": report.status.as_str(),
            "result": report.result,
            "session_id": id,
            "transcript_path": transcript,
        }));
        Ok(result)
    }
}

impl ServerHandler for McpServe {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("agenthub", env!("CARGO_PKG_VERSION")))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.as_ref().clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        let result = match request.name.as_ref() {
            RUN_TOOL => self.run_session(&arguments, context.ct).await,
            name => self.call(name, arguments, context.ct).await,
        };
        Ok(CallToolResponse::Complete(result))
    }
}
