//! `agenthub worker` (contract §18): AgentHub as a Restate service. Each task is
//! a `Session` virtual object keyed by its id; its model requests, tool
//! handlers and hook runs are journaled steps, so a session whose worker
//! died resumes on another without repeating a finished step.
//!
//! It must never run a task differently from the local batch: a worker only
//! adds the journal, the durable asks and git checkpoints around the same
//! `run_task`.

mod bridge;
mod checkpoint;
mod listen;
mod service;
mod session;
mod status;

pub use checkpoint::{session_ref, CheckpointError};
pub use service::{ApproveRequest, Decision};
pub use status::{PendingAsk, SessionStatus};

use crate::run_task::TaskRunOptions;
use restate_sdk::endpoint::Endpoint;
use std::future::Future;
use std::net::SocketAddr;
use thiserror::Error;
use tokio::net::TcpListener;

/// How `agenthub worker` was started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerOptions {
    /// Where the worker listens for the Restate server.
    pub listen: SocketAddr,
    /// The admin API to register this worker's deployment with, once listening.
    pub register: Option<String>,
    /// The URL the Restate server reaches the worker at (a load balancer's),
    /// when it is not `http://` + the listen address.
    pub advertise: Option<String>,
    /// Restate request-identity public keys (`publickeyv1_…`): when any is
    /// given, a request not signed by one of them is refused (contract §26).
    pub identity_keys: Vec<String>,
    /// `AGENTHUB_FLEET_SECRET`: when set, tasks and approvals must carry its
    /// HMAC ([`crate::verify`]).
    pub fleet_secret: Option<String>,
    /// What every task's run is given (`--trust-project`,
    /// `--allow-task-settings`, `--workspace-root`).
    pub run: TaskRunOptions,
}

/// Why a worker could not serve.
#[derive(Debug, Error)]
pub enum WorkerError {
    /// The listen address cannot be bound.
    #[error("cannot listen on {address}: {source}")]
    Listen {
        /// The address asked for.
        address: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// An `--identity-key` is not a Restate public key.
    #[error(
        "--identity-key {key}: not a Restate request-identity public key (publickeyv1_…): {reason}"
    )]
    IdentityKey {
        /// The key as given.
        key: String,
        /// What the SDK said.
        reason: String,
    },
    /// The admin API refused or could not be reached.
    #[error("cannot register the worker at {admin}: {reason}")]
    Register {
        /// The admin URL.
        admin: String,
        /// What went wrong.
        reason: String,
    },
}

/// Serves the `Session` object until `shutdown` completes; `listening` is
/// told the bound address (a port 0 listen gets a free port).
pub async fn serve(
    options: WorkerOptions,
    listening: impl FnOnce(SocketAddr),
    shutdown: impl Future<Output = ()>,
) -> Result<(), WorkerError> {
    let endpoint = endpoint(&options)?;
    let listener =
        TcpListener::bind(options.listen)
            .await
            .map_err(|source| WorkerError::Listen {
                address: options.listen,
                source,
            })?;
    let address = listener
        .local_addr()
        .map_err(|source| WorkerError::Listen {
            address: options.listen,
            source,
        })?;
    let server = listen::serve(listener, endpoint, shutdown);
    listening(address);
    tokio::pin!(server);
    if let Some(admin) = &options.register {
        let uri = advertised(options.advertise.as_deref(), address);
        tokio::select! {
            () = &mut server => return Ok(()),
            registered = register(admin, &uri) => registered?,
        }
    }
    server.await;
    Ok(())
}

/// The `Session` object's endpoint, verifying each request's signature
/// against `options.identity_keys` when there are any.
fn endpoint(options: &WorkerOptions) -> Result<Endpoint, WorkerError> {
    let mut builder = Endpoint::builder().bind(service::SessionObject {
        options: options.run.clone(),
        secret: options.fleet_secret.as_deref().map(std::sync::Arc::from),
    });
    for key in &options.identity_keys {
        builder = builder
            .identity_key(key)
            .map_err(|error| WorkerError::IdentityKey {
                key: key.clone(),
                reason: error.to_string(),
            })?;
    }
    Ok(builder.build())
}

/// The deployment URL to register: `advertise`, else `http://` + the bound
/// address, the host's name standing for an unspecified IP (`0.0.0.0`).
fn advertised(advertise: Option<&str>, address: SocketAddr) -> String {
    if let Some(url) = advertise {
        return url.to_owned();
    }
    if !address.ip().is_unspecified() {
        return format!("http://{address}");
    }
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|name| name.trim().to_owned())
        .ok()
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "127.0.0.1".to_owned());
    format!("http://{host}:{}", address.port())
}

/// Registers the deployment at `uri` with the admin API at `admin`
/// (`POST /deployments`, forced so a restarted worker re-registers).
async fn register(admin: &str, uri: &str) -> Result<(), WorkerError> {
    let failed = |reason: String| WorkerError::Register {
        admin: admin.to_owned(),
        reason,
    };
    let url = format!("{}/deployments", admin.trim_end_matches('/'));
    let body = serde_json::json!({ "uri": uri, "force": true });
    let client = agenthub::crates::model::transport::http_client()
        .build()
        .map_err(|error| failed(error.to_string()))?;
    let response = client
        .post(&url)
        .json(&body)
        .send()
        .await
        .map_err(|error| failed(error.to_string()))?;
    let status = response.status();
    if !status.is_success() {
        let text = response.text().await.unwrap_or_default();
        return Err(failed(format!("{status}: {text}")));
    }
    Ok(())
}
