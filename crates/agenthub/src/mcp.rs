//! The MCP servers of a configuration (contract §14, §29): the settings
//! files' `mcpServers` (the project's `.mcp.json` only when trusted) and the
//! plugins', then each `--mcp-config` (a file or inline JSON), with `${VAR}`
//! expanded from the environment; under `--strict-mcp-config` only the
//! latter. Reading the configuration starts nothing.
//!
//! [`Assembly::begin_mcp_servers`] starts the servers in the background, in
//! parallel with each other and with the rest of the front end's start-up
//! (choosing the model, reading the prompt, finding a resumed session);
//! [`Assembly::mcp_servers_ready`] waits for them — each within
//! `MCP_TIMEOUT` — and adds the tools of those that came up, right before the
//! session's agent is built for its first request. It never fails a session
//! for a server: one that does not start is a warning.
//!
//! A server of type `sdk` lives inside the Agent SDK application that
//! started AgentHub; [`Assembly::with_sdk_mcp_bridge`] gives the session
//! that application's bridge, and its tools then join the registry like any
//! other server's (so rules and hooks apply to them unchanged).

use crate::{Assembly, Configuration, McpConfigSource, SetupError, SetupWarning};
use agenthub_hooks::{McpHookCallError, McpToolCaller};
use agenthub_mcp::{McpConfig, McpServers, SdkMcpBridge, SharedServers, Startup, Timeouts};
use agenthub_settings::parse_project_file;
use futures::future::BoxFuture;
use futures::FutureExt;
use std::path::PathBuf;
use std::sync::{Arc, PoisonError};

/// Where an inline `--mcp-config`'s servers say they came from.
pub const INLINE_MCP_CONFIG: &str = "--mcp-config (inline JSON)";

/// Every configured server of `configuration`, later files winning by name;
/// an entry that cannot be read is in [`McpConfig::problems`], not an error.
/// Under `strict_mcp_config`, only the `--mcp-config` servers.
pub fn mcp_config(configuration: &Configuration) -> Result<McpConfig, SetupError> {
    let options = configuration.options();
    let mut sections = Vec::new();
    if !options.strict_mcp_config {
        sections = configuration.settings().mcp_servers.clone();
        for plugin in configuration.plugins() {
            // A plugin's servers that cannot be read: the plugin's other parts still join.
            if let Ok(Some(section)) = plugin.mcp_servers() {
                sections.push(section);
            }
        }
    }
    for source in &options.mcp_config {
        sections.push(match source {
            McpConfigSource::File(file) => (file.clone(), parse_project_file(file)?),
            McpConfigSource::Inline(servers) => (PathBuf::from(INLINE_MCP_CONFIG), servers.clone()),
        });
    }
    Ok(McpConfig::from_sections(&sections, &|name| {
        std::env::var(name).ok()
    }))
}

/// Servers starting: a spawned task inside a Tokio runtime, else the start
/// itself, run when waited for.
pub(crate) enum PendingMcp {
    Spawned(StartTask),
    /// Held in a mutex only so the assembly stays `Sync`; never locked twice.
    Deferred(std::sync::Mutex<BoxFuture<'static, McpServers>>),
}

impl PendingMcp {
    fn begin(start: BoxFuture<'static, McpServers>) -> PendingMcp {
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => PendingMcp::Spawned(StartTask(runtime.spawn(start))),
            Err(_) => PendingMcp::Deferred(std::sync::Mutex::new(start)),
        }
    }

    /// The started servers; a start task that broke is a warning, no server.
    async fn wait(self) -> (McpServers, Option<String>) {
        match self {
            PendingMcp::Deferred(start) => {
                let start = start.into_inner().unwrap_or_else(PoisonError::into_inner);
                (start.await, None)
            }
            PendingMcp::Spawned(mut task) => match (&mut task.0).await {
                Ok(servers) => (servers, None),
                Err(error) => (
                    McpServers::none(),
                    Some(format!("the MCP servers' start broke: {error}")),
                ),
            },
        }
    }
}

/// The spawned start, aborted when dropped unwaited (a front end that
/// failed after beginning it): its servers are then killed, not left starting.
pub(crate) struct StartTask(tokio::task::JoinHandle<McpServers>);

impl Drop for StartTask {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl Assembly {
    /// Shares this session's MCP servers with the other sessions given the
    /// same `shared` (the local batch): a server whose configuration is the
    /// same for them starts once ([`SharedServers`]). Call before
    /// [`Assembly::begin_mcp_servers`].
    pub fn share_mcp_servers(mut self, shared: Arc<SharedServers>) -> Assembly {
        self.mcp_shared = Some(shared);
        self
    }

    /// Serves this session's `sdk` MCP servers (`"type": "sdk"` entries of
    /// its configuration, such as an inline `--mcp-config`) through
    /// `bridge`: the Agent SDK application that started AgentHub, over its
    /// control channel. Without one they do not start (a warning). Call
    /// before [`Assembly::begin_mcp_servers`]; such a server is the
    /// session's own even when its servers are shared.
    pub fn with_sdk_mcp_bridge(mut self, bridge: Arc<dyn SdkMcpBridge>) -> Assembly {
        self.mcp_sdk_bridge = Some(bridge);
        self
    }

    /// Starts the configured MCP servers in parallel, in the background
    /// (inside a Tokio runtime; outside one they start when waited for),
    /// and returns at once: the front end goes on with its own start-up,
    /// then calls [`Assembly::mcp_servers_ready`] before building the
    /// session. Errors only on a configuration that cannot be read (a
    /// `--mcp-config` file, `MCP_TIMEOUT`, `MAX_MCP_OUTPUT_TOKENS`).
    pub fn begin_mcp_servers(mut self) -> Result<Assembly, SetupError> {
        let config = mcp_config(&self.configuration)?;
        if config.servers.is_empty() && config.problems.is_empty() {
            return Ok(self);
        }
        let timeouts =
            Timeouts::from_env(&|name| std::env::var(name).ok()).map_err(SetupError::McpTimeout)?;
        let max_output_tokens = agenthub_mcp::max_output_tokens(&|name| std::env::var(name).ok())
            .map_err(SetupError::McpOutputLimit)?;
        let shared = self.mcp_shared.clone();
        let sdk_bridge = self.mcp_sdk_bridge.clone();
        let start = async move {
            let startup = Startup {
                timeouts,
                shared: shared.as_deref(),
                sdk_bridge,
            };
            McpServers::start_with(&config, startup)
                .await
                .with_max_output_tokens(max_output_tokens)
        };
        self.mcp_pending = Some(PendingMcp::begin(start.boxed()));
        Ok(self)
    }

    /// Waits for the servers [`Assembly::begin_mcp_servers`] started (each
    /// within `MCP_TIMEOUT`) and adds the tools of those that came up; a
    /// server that failed is a warning and the session goes on without its
    /// tools. Without a start under way, the assembly as it is.
    pub async fn mcp_servers_ready(mut self) -> Assembly {
        let Some(pending) = self.mcp_pending.take() else {
            return self;
        };
        let (servers, broke) = pending.wait().await;
        self.mcp_warnings = servers.warnings().to_vec();
        self.mcp_warnings.extend(broke);
        self.mcp_warnings.extend(servers.register(&mut self.tools));
        self.mcp = Arc::new(servers);
        self
    }

    /// Starts the configured MCP servers in parallel (each within
    /// `MCP_TIMEOUT`) and adds their tools: [`Assembly::begin_mcp_servers`]
    /// and [`Assembly::mcp_servers_ready`] at once. A server that fails is
    /// a warning and the session goes on without its tools. The servers stop
    /// when the agent built from this assembly (and [`Assembly::mcp_servers`])
    /// is dropped.
    pub async fn start_mcp_servers(self) -> Result<Assembly, SetupError> {
        Ok(self.begin_mcp_servers()?.mcp_servers_ready().await)
    }

    /// The MCP servers' warnings alone (they are also in
    /// [`Assembly::warnings`]): a front end that showed the others before the
    /// servers were up shows these once they are.
    pub fn mcp_warnings(&self) -> Vec<SetupWarning> {
        self.mcp_warnings
            .iter()
            .cloned()
            .map(SetupWarning::Mcp)
            .collect()
    }
}

/// The started servers answering `mcp_tool` hooks (docs/hooks.md,
/// Handler types): the hook's call starts or restarts the server as a
/// tool call would, and the tool's text is what the hook reads as stdout.
pub(crate) struct ServersAnswerHooks(pub(crate) std::sync::Arc<agenthub_mcp::McpServers>);

impl McpToolCaller for ServersAnswerHooks {
    fn call<'a>(
        &'a self,
        server: &'a str,
        tool: &'a str,
        arguments: serde_json::Value,
    ) -> futures::future::BoxFuture<'a, Result<serde_json::Value, McpHookCallError>> {
        Box::pin(async move {
            let cancel = tokio_util::sync::CancellationToken::new();
            match self.0.call_tool(server, tool, arguments, cancel).await {
                Ok(result) if result.is_error => Err(McpHookCallError::ToolFailed(result.text)),
                Ok(result) => Ok(serde_json::Value::String(result.text)),
                Err(error) => Err(McpHookCallError::NotCalled(Box::new(error))),
            }
        })
    }
}
