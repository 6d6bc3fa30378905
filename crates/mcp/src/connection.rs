//! One live connection to a server: the SDK's running client, the child's
//! process group (stdio) and its stderr tail, or the pump to the application
//! (`sdk`). Dropping a connection kills the process group (or stops the
//! pump) at once, so no server outlives its session.

use crate::line_cap::{LineCap, Oversized, MAX_MESSAGE_BYTES};
use crate::sdk_pump::Pump;
use crate::stderr::StderrTail;
use crate::{McpError, SdkMcpBridge, ServerConfig, Transport};
use rmcp::model::Tool as RemoteTool;
use rmcp::service::RunningService;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{RoleClient, ServiceExt};
use std::collections::HashMap;
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Once};
use std::time::Duration;
use tokio::sync::watch;

/// A started server and what it listed at start.
pub(crate) struct Connection {
    pub(crate) client: RunningService<RoleClient, ()>,
    pub(crate) tools: Vec<RemoteTool>,
    pub(crate) stderr: StderrTail,
    /// Announces a message too long to read (stdio); `None` over HTTP.
    pub(crate) oversized: Option<watch::Receiver<Option<Oversized>>>,
    process_group: Option<i32>,
    dead: AtomicBool,
    _child: Option<tokio::process::Child>,
    _pump: Option<Pump>,
}

impl Connection {
    /// Starts the server, shakes hands and lists its tools, all within
    /// `timeout`; an `sdk` server through `sdk_bridge`, and without one it
    /// does not start.
    pub(crate) async fn open(
        config: &ServerConfig,
        timeout: Duration,
        sdk_bridge: Option<&Arc<dyn SdkMcpBridge>>,
    ) -> Result<Connection, McpError> {
        let stderr = StderrTail::default();
        let mut process_group = None;
        let mut oversized = None;
        let mut child_handle = None;
        let mut pump = None;
        if matches!(config.transport, Transport::Sdk) && sdk_bridge.is_none() {
            return Err(McpError::NoSdkApplication {
                server: config.name.clone(),
            });
        }
        let fail = |message: String, stderr: &StderrTail| McpError::Start {
            server: config.name.clone(),
            command: config.describe(),
            message,
            stderr: stderr.text(),
        };
        let started = async {
            let client = match &config.transport {
                Transport::Stdio { command, args, env } => {
                    let spawned = spawn(command, args, env, &stderr)?;
                    process_group = spawned.group;
                    oversized = Some(spawned.oversized);
                    child_handle = Some(spawned.child);
                    ().serve((spawned.stdout, spawned.stdin))
                        .await
                        .map_err(|error| format!("the handshake failed: {error}"))?
                }
                Transport::Http { url, headers } => {
                    let transport = http_transport(url, headers)?;
                    ().serve(transport)
                        .await
                        .map_err(|error| format!("the handshake failed: {error}"))?
                }
                Transport::Sdk => {
                    let bridge = sdk_bridge.cloned().ok_or("no Agent SDK application")?;
                    let (ends, started) = crate::sdk_pump::connect(&config.name, bridge);
                    pump = Some(started);
                    ().serve(ends)
                        .await
                        .map_err(|error| format!("the handshake failed: {error}"))?
                }
            };
            let tools = client
                .list_all_tools()
                .await
                .map_err(|error| format!("listing its tools failed: {error}"))?;
            Ok::<_, String>((client, tools))
        };
        let outcome = tokio::time::timeout(timeout, started).await;
        let guard = KillOnDrop(process_group);
        let (client, tools) = match outcome {
            Ok(Ok(started)) => started,
            Ok(Err(message)) => return Err(fail(message, &settled(guard, &stderr).await)),
            Err(_) => {
                let message = format!("no answer within {} s (MCP_TIMEOUT)", timeout.as_secs_f64());
                return Err(fail(message, &settled(guard, &stderr).await));
            }
        };
        guard.disarm();
        Ok(Connection {
            client,
            tools,
            stderr,
            oversized,
            process_group,
            dead: AtomicBool::new(false),
            _child: child_handle,
            _pump: pump,
        })
    }

    /// Whether the connection can still carry a call.
    pub(crate) fn is_alive(&self) -> bool {
        !self.dead.load(Ordering::SeqCst) && !self.client.is_closed()
    }

    /// Kills the server's process group now, whoever still holds the connection.
    pub(crate) fn kill(&self) {
        self.mark_dead();
        kill_group(self.process_group);
    }

    /// Marks the connection dead: the next call starts the server again.
    pub(crate) fn mark_dead(&self) {
        self.dead.store(true, Ordering::SeqCst);
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        kill_group(self.process_group);
    }
}

/// Kills the failed server's group and gives its stderr a moment to drain,
/// so the error shows the server's last words.
async fn settled(guard: KillOnDrop, stderr: &StderrTail) -> StderrTail {
    drop(guard);
    tokio::time::sleep(Duration::from_millis(50)).await;
    stderr.clone()
}

/// Kills a process group when dropped (a server that timed out at start).
struct KillOnDrop(Option<i32>);

impl KillOnDrop {
    /// The server started: its connection owns the group from now on.
    fn disarm(mut self) {
        self.0 = None;
    }
}

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        kill_group(self.0);
    }
}

fn kill_group(group: Option<i32>) {
    if let Some(group) = group.filter(|group| *group > 0) {
        // SAFETY: killpg only sends a signal; the group is the child's own
        // (it was started as a group leader), never AgentHub's.
        unsafe {
            libc::killpg(group, libc::SIGKILL);
        }
    }
}

/// A stdio server just started: its pipes (stdout behind a [`LineCap`]),
/// the child and its process group.
struct Spawned {
    stdout: LineCap<tokio::process::ChildStdout>,
    stdin: tokio::process::ChildStdin,
    oversized: watch::Receiver<Option<Oversized>>,
    child: tokio::process::Child,
    group: Option<i32>,
}

/// Starts a stdio server as the leader of its own process group, with its
/// stderr followed into `tail` and its stdout read through a [`LineCap`].
fn spawn(
    command: &str,
    args: &[String],
    env: &std::collections::BTreeMap<String, String>,
    tail: &StderrTail,
) -> Result<Spawned, String> {
    let mut cmd = tokio::process::Command::new(command);
    cmd.args(args)
        .envs(env)
        .process_group(0)
        .kill_on_drop(true)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd
        .spawn()
        .map_err(|error| format!("cannot run {command}: {error}"))?;
    if let Some(stderr) = child.stderr.take() {
        tail.follow(stderr);
    }
    let (Some(stdout), Some(stdin)) = (child.stdout.take(), child.stdin.take()) else {
        return Err(format!("cannot reach the pipes of {command}"));
    };
    let (stdout, oversized) = LineCap::new(stdout, MAX_MESSAGE_BYTES);
    let group = child.id().and_then(|pid| i32::try_from(pid).ok());
    Ok(Spawned {
        stdout,
        stdin,
        oversized,
        child,
        group,
    })
}

fn http_transport(
    url: &str,
    headers: &std::collections::BTreeMap<String, String>,
) -> Result<StreamableHttpClientTransport<reqwest::Client>, String> {
    install_crypto_provider();
    let mut custom = HashMap::new();
    for (name, value) in headers {
        let name = http::HeaderName::try_from(name.as_str())
            .map_err(|error| format!("header {name:?}: {error}"))?;
        let value = http::HeaderValue::try_from(value.as_str())
            .map_err(|error| format!("header {name}: {error}"))?;
        custom.insert(name, value);
    }
    let config =
        rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig::with_uri(url)
            .custom_headers(custom);
    Ok(StreamableHttpClientTransport::from_config(config))
}

/// The SDK's HTTP client uses rustls without a built-in crypto provider;
/// the workspace already carries `ring`, installed here once unless the
/// embedder installed a provider of its own.
fn install_crypto_provider() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        if rustls::crypto::CryptoProvider::get_default().is_none() {
            let _ = rustls::crypto::ring::default_provider().install_default();
        }
    });
}
