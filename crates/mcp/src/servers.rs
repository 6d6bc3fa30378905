//! All configured servers of a session: started in parallel, each within
//! `MCP_TIMEOUT` (or shared with the other sessions of the process, see
//! [`crate::SharedServers`]; an `sdk` server, served by the session's own
//! application, never is); a server that fails is reported and the others go on. The
//! handle registers the running servers' tools, answers `mcp list`, calls a
//! tool for a hook. A server lives while this handle or any of its registered
//! tools does: dropping the last (the session's agent) kills its process group.

use crate::server::Server;
use crate::shared::SharedServers;
use crate::tool::{tool_name, McpTool};
use crate::{McpCallResult, McpConfig, McpError, SdkMcpBridge, Transport};
use agenthub_tools::ToolRegistry;
use rmcp::model::Tool as RemoteTool;
use serde_json::Value;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// How long a server may take to start, and a call to answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// Start-up and handshake (`MCP_TIMEOUT`, default 30 s).
    pub start: Duration,
    /// One tool call (`MCP_TOOL_TIMEOUT`, default 10 min).
    pub call: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            start: Duration::from_secs(30),
            call: Duration::from_secs(600),
        }
    }
}

/// `MCP_TIMEOUT` or `MCP_TOOL_TIMEOUT` is not a positive number of
/// milliseconds.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{name}={text:?} is not a positive number of milliseconds")]
pub struct BadTimeout {
    /// The variable.
    pub name: String,
    /// Its value, as set.
    pub text: String,
}

impl Timeouts {
    /// The defaults, overridden by `MCP_TIMEOUT` / `MCP_TOOL_TIMEOUT` in
    /// milliseconds (as Claude Code reads them) where `lookup` has them.
    pub fn from_env(lookup: &dyn Fn(&str) -> Option<String>) -> Result<Timeouts, BadTimeout> {
        let read = |name: &str, default: Duration| match lookup(name) {
            None => Ok(default),
            Some(text) => text
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|ms| *ms > 0)
                .map(Duration::from_millis)
                .ok_or_else(|| BadTimeout {
                    name: name.to_owned(),
                    text,
                }),
        };
        let defaults = Timeouts::default();
        Ok(Timeouts {
            start: read("MCP_TIMEOUT", defaults.start)?,
            call: read("MCP_TOOL_TIMEOUT", defaults.call)?,
        })
    }
}

/// What a session's servers start with besides their configuration.
#[derive(Clone, Default)]
pub struct Startup<'a> {
    /// How long a server may take to start, and a call to answer.
    pub timeouts: Timeouts,
    /// The servers shared by the sessions of this process (the local
    /// batch), see [`SharedServers`]; an `sdk` server is never shared.
    pub shared: Option<&'a SharedServers>,
    /// The Agent SDK application serving the `sdk` servers; without it
    /// they do not start ([`McpError::NoSdkApplication`]).
    pub sdk_bridge: Option<Arc<dyn SdkMcpBridge>>,
}

impl std::fmt::Debug for Startup<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Startup")
            .field("timeouts", &self.timeouts)
            .field("shared", &self.shared)
            .field("sdk_bridge", &self.sdk_bridge.as_ref().map(|_| "…"))
            .finish()
    }
}

/// Whether a server is usable.
#[derive(Debug, Clone, PartialEq)]
pub enum ServerState {
    /// It started and listed its tools.
    Running,
    /// It did not start; its tools are absent.
    Failed(McpError),
}

/// One tool as `mcp list` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolSummary {
    /// The registry name, `mcp__<server>__<tool>`.
    pub name: String,
    /// The first line of the server's description.
    pub description: String,
}

/// One server after start-up.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerStatus {
    /// The server's name.
    pub name: String,
    /// Its command line or URL.
    pub command: String,
    /// The file that configured it.
    pub origin: PathBuf,
    /// Running or failed.
    pub state: ServerState,
    /// Its tools (empty when it failed).
    pub tools: Vec<ToolSummary>,
}

/// The session's servers. A server's process group is killed when the last
/// of this handle and its registered tools is dropped, or by [`McpServers::stop`].
pub struct McpServers {
    servers: Vec<(Arc<Server>, Vec<RemoteTool>)>,
    statuses: Vec<ServerStatus>,
    warnings: Vec<String>,
    max_output_tokens: usize,
}

impl McpServers {
    /// No servers (a session without MCP).
    pub fn none() -> McpServers {
        McpServers {
            servers: Vec::new(),
            statuses: Vec::new(),
            warnings: Vec::new(),
            max_output_tokens: crate::DEFAULT_MAX_MCP_OUTPUT_TOKENS,
        }
    }

    /// Caps what the model reads of each result at `tokens`
    /// (`MAX_MCP_OUTPUT_TOKENS`; see [`crate::max_output_tokens`]). Takes
    /// effect for the tools [`McpServers::register`] registers after.
    pub fn with_max_output_tokens(mut self, tokens: usize) -> McpServers {
        self.max_output_tokens = tokens;
        self
    }

    /// Starts every configured server in parallel, each within `timeouts.start`.
    pub async fn start(config: &McpConfig, timeouts: Timeouts) -> McpServers {
        McpServers::start_with(
            config,
            Startup {
                timeouts,
                ..Startup::default()
            },
        )
        .await
    }

    /// [`McpServers::start`], sharing each server with the other sessions
    /// of `shared` whose configuration of it is the same: the first to ask
    /// starts it, the others wait for that start and share its outcome.
    pub async fn start_shared(
        config: &McpConfig,
        timeouts: Timeouts,
        shared: &SharedServers,
    ) -> McpServers {
        McpServers::start_with(
            config,
            Startup {
                timeouts,
                shared: Some(shared),
                sdk_bridge: None,
            },
        )
        .await
    }

    /// Starts every configured server in parallel as `startup` says: each
    /// within its timeout, shared where there are [`Startup::shared`]
    /// servers, an `sdk` server through [`Startup::sdk_bridge`] and always
    /// the session's own.
    pub async fn start_with(config: &McpConfig, startup: Startup<'_>) -> McpServers {
        let Startup {
            timeouts,
            shared,
            sdk_bridge,
        } = startup;
        let entries: Vec<Entry> = config
            .servers
            .iter()
            .map(|server| match (&server.transport, shared) {
                (Transport::Sdk, _) | (_, None) => Entry::Own(Arc::new(
                    Server::new(server.clone(), timeouts).with_sdk_bridge(sdk_bridge.clone()),
                )),
                (_, Some(shared)) => Entry::Shared(shared.entry(server, timeouts)),
            })
            .collect();
        let started = futures::future::join_all(entries.iter().map(Entry::start)).await;
        let servers = entries.into_iter().map(Entry::server);
        McpServers::of(config, servers.zip(started))
    }

    /// The handle of `config`'s servers, each with its start's outcome.
    fn of(
        config: &McpConfig,
        outcomes: impl Iterator<Item = (Arc<Server>, Result<Vec<RemoteTool>, McpError>)>,
    ) -> McpServers {
        let mut handle = McpServers::none();
        handle.warnings = config.problems.iter().map(ToString::to_string).collect();
        for (server, outcome) in outcomes {
            handle.add(server, outcome);
        }
        handle
    }

    fn add(&mut self, server: Arc<Server>, outcome: Result<Vec<RemoteTool>, McpError>) {
        let config = &server.config;
        let mut status = ServerStatus {
            name: config.name.clone(),
            command: config.describe(),
            origin: config.origin.clone(),
            state: ServerState::Running,
            tools: Vec::new(),
        };
        let tools = match outcome {
            Ok(tools) => tools,
            Err(error) => {
                self.warnings.push(error.to_string());
                status.state = ServerState::Failed(error);
                self.statuses.push(status);
                return;
            }
        };
        let mut usable = Vec::new();
        for tool in tools {
            match tool_name(&config.name, &tool.name) {
                Ok(name) => {
                    status.tools.push(ToolSummary {
                        name,
                        description: first_line(&tool),
                    });
                    usable.push(tool);
                }
                Err(warning) => self.warnings.push(warning),
            }
        }
        self.statuses.push(status);
        self.servers.push((server, usable));
    }

    /// Each configured server: its state and tools, in name order.
    pub fn statuses(&self) -> &[ServerStatus] {
        &self.statuses
    }

    /// What the user should be told: unreadable entries, servers that did
    /// not start (with their command and stderr tail), skipped tools.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Registers every running server's tools; a tool whose schema does not
    /// compile is left out, with a warning in the returned list.
    pub fn register(&self, registry: &mut ToolRegistry) -> Vec<String> {
        let mut warnings = Vec::new();
        for (server, tools) in &self.servers {
            for tool in tools {
                let Ok(name) = tool_name(&server.config.name, &tool.name) else {
                    continue;
                };
                let tool = McpTool {
                    server: server.clone(),
                    name,
                    remote_name: tool.name.to_string(),
                    description: description(tool),
                    schema: Value::Object(tool.input_schema.as_ref().clone()),
                    output_cap: self
                        .max_output_tokens
                        .saturating_mul(crate::CHARS_PER_TOKEN),
                };
                if let Err(error) = registry.register_dynamic(tool) {
                    warnings.push(format!("{error}; the tool is left out"));
                }
            }
        }
        warnings
    }

    /// Calls `tool` of `server` as a tool call would (starting or restarting
    /// the server as needed), for callers outside the pipeline such as an
    /// `mcp_tool` hook handler.
    pub async fn call_tool(
        &self,
        server: &str,
        tool: &str,
        arguments: Value,
        cancel: CancellationToken,
    ) -> Result<McpCallResult, McpError> {
        let (found, _) = self
            .servers
            .iter()
            .find(|(candidate, _)| candidate.config.name == server)
            .ok_or_else(|| McpError::UnknownServer(server.to_owned()))?;
        found.call(tool, arguments, &cancel).await
    }

    /// Whether `server` has a live connection now.
    pub async fn is_running(&self, server: &str) -> bool {
        for (candidate, _) in &self.servers {
            if candidate.config.name == server {
                return candidate.is_running().await;
            }
        }
        false
    }

    /// Stops every server now (their process groups are killed).
    pub async fn stop(&self) {
        for (server, _) in &self.servers {
            server.stop().await;
        }
    }
}

impl std::fmt::Debug for McpServers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpServers")
            .field("statuses", &self.statuses)
            .finish_non_exhaustive()
    }
}

/// A server of this session alone, or one shared with the others.
enum Entry {
    Own(Arc<Server>),
    Shared(Arc<crate::shared::SharedStart>),
}

impl Entry {
    async fn start(&self) -> Result<Vec<RemoteTool>, McpError> {
        match self {
            Entry::Own(server) => server.start().await,
            Entry::Shared(entry) => entry.start().await,
        }
    }

    fn server(self) -> Arc<Server> {
        match self {
            Entry::Own(server) => server,
            Entry::Shared(entry) => entry.server.clone(),
        }
    }
}

fn description(tool: &RemoteTool) -> String {
    tool.description
        .as_deref()
        .or(tool.title.as_deref())
        .unwrap_or_default()
        .to_owned()
}

fn first_line(tool: &RemoteTool) -> String {
    description(tool)
        .lines()
        .next()
        .unwrap_or_default()
        .trim()
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lookup(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |name| {
            pairs
                .iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| (*value).to_owned())
        }
    }

    #[test]
    fn timeouts_default_to_30_seconds_to_start_and_10_minutes_a_call() {
        assert_eq!(
            Timeouts::from_env(&lookup(&[])),
            Ok(Timeouts {
                start: Duration::from_secs(30),
                call: Duration::from_secs(600)
            })
        );
    }

    #[test]
    fn timeouts_are_read_in_milliseconds_as_claude_code_reads_them() {
        let env = lookup(&[("MCP_TIMEOUT", "1500"), ("MCP_TOOL_TIMEOUT", "60000")]);
        assert_eq!(
            Timeouts::from_env(&env),
            Ok(Timeouts {
                start: Duration::from_millis(1500),
                call: Duration::from_secs(60)
            })
        );
    }

    #[test]
    fn a_timeout_that_is_not_a_positive_number_is_an_error_naming_it() {
        assert_eq!(
            Timeouts::from_env(&lookup(&[("MCP_TIMEOUT", "30s")])),
            Err(BadTimeout {
                name: "MCP_TIMEOUT".to_owned(),
                text: "30s".to_owned()
            })
        );
        assert_eq!(
            Timeouts::from_env(&lookup(&[("MCP_TIMEOUT", "30s")]))
                .map_err(|error| error.to_string()),
            Err("MCP_TIMEOUT=\"30s\" is not a positive number of milliseconds".to_owned())
        );
    }
}
