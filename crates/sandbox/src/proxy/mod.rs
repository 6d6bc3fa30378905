//! The network proxy of sandboxed commands (contract §32): with
//! `sandbox.network` an object, a command's only way out is this proxy,
//! which runs in AgentHub's process, outside the sandbox. It speaks HTTP
//! (`CONNECT host:port`, and plain requests with an absolute URI) and SOCKS5
//! (names sent as names: `socks5h`), judges each destination with
//! [`DomainLists::judge`] — the one place names are matched — and, for an
//! unlisted host, asks the [`NetworkGate`] (a person, a session grant, or a
//! refusal headless). Every decision is told to the gate, to be recorded.
//! It connects by name, so what was judged is what is reached.
//!
//! It must never relay a byte to a destination the lists refuse, nor one
//! the gate did not allow, nor match a name itself.

mod http;
mod socks;

use crate::{Destination, DomainEntry, DomainLists, DomainVerdict};
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// The most connections the proxy serves at once; more wait to be accepted.
const MOST_CLIENTS: usize = 256;

/// How long a failed accept waits before the next.
const ACCEPT_RETRY: std::time::Duration = std::time::Duration::from_millis(50);

/// The longest a client may take to say where it goes (a request head, a
/// SOCKS handshake); asking a person and relaying have no limit here.
const HANDSHAKE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// The answer to an unlisted destination.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GateAnswer {
    /// It may be reached; `by` names who said so ("the user", a session grant).
    Allowed {
        /// Who allowed it.
        by: String,
    },
    /// It is refused; `reason` is what the client is told.
    Refused {
        /// Why, naming the host and the setting that would allow it.
        reason: String,
    },
}

/// A future a [`NetworkGate`] answers with.
pub type GateFuture<'a> = Pin<Box<dyn Future<Output = GateAnswer> + Send + 'a>>;

/// Who answers for hosts on neither list, and who is told every decision:
/// the embedding session (its approver, its transcript and traces).
pub trait NetworkGate: Send + Sync {
    /// Whether `destination`, on neither list, may be reached.
    fn unlisted<'a>(&'a self, destination: &'a Destination) -> GateFuture<'a>;
    /// Told each decision, once, before the client hears it; `Err` (why it
    /// could not be recorded) refuses a connection it would have allowed,
    /// as a failed audit stops a tool call.
    fn decided(&self, decision: &NetworkDecision) -> Result<(), String>;
}

/// One decision of the proxy on one connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetworkDecision {
    /// Where the client asked to go, as it asked.
    pub destination: Destination,
    /// Whether it may.
    pub allowed: bool,
    /// What decided.
    pub by: DecidedBy,
}

/// What decided a [`NetworkDecision`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecidedBy {
    /// This entry of `sandbox.network.allowedDomains`.
    AllowedEntry(DomainEntry),
    /// This entry of `sandbox.network.deniedDomains`.
    DeniedEntry(DomainEntry),
    /// The gate, for an unlisted host; the text is its `by` or its reason.
    Gate(String),
}

impl NetworkDecision {
    /// The decision in words, as the transcript records it and a refused
    /// client is told.
    pub fn reason(&self) -> String {
        let host = &self.destination;
        match &self.by {
            DecidedBy::AllowedEntry(entry) => {
                format!("{host} is allowed by `{entry}` on sandbox.network.allowedDomains")
            }
            DecidedBy::DeniedEntry(entry) => {
                format!("{host} is refused: `{entry}` is on sandbox.network.deniedDomains")
            }
            DecidedBy::Gate(text) if self.allowed => format!("{host} allowed by {text}"),
            DecidedBy::Gate(text) => text.clone(),
        }
    }
}

/// The proxy of one sandbox: the lists and the gate. Cheap to clone; two
/// handles are equal when they are clones of one another (a sandbox is
/// kept per proxy).
#[derive(Clone)]
pub struct NetworkProxy {
    id: u64,
    lists: Arc<DomainLists>,
    gate: Arc<dyn NetworkGate>,
}

impl NetworkProxy {
    /// A proxy judging by `lists`, asking `gate` about the rest.
    pub fn new(lists: DomainLists, gate: Arc<dyn NetworkGate>) -> NetworkProxy {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        NetworkProxy {
            id: NEXT.fetch_add(1, Ordering::Relaxed),
            lists: Arc::new(lists),
            gate,
        }
    }

    /// The lists it judges by.
    pub fn lists(&self) -> &DomainLists {
        &self.lists
    }

    /// Serves `listener` on the current tokio runtime until the returned
    /// guard is dropped; each connection is served on a task of its own, at
    /// most `MOST_CLIENTS` (256) at once (a command cannot spend all of this
    /// process's file descriptors). A failed accept (out of descriptors)
    /// waits a moment and goes on: the proxy never stops serving by itself.
    pub fn serve(&self, listener: std::net::TcpListener) -> std::io::Result<ServeGuard> {
        let listener = TcpListener::from_std(listener)?;
        let proxy = self.clone();
        let slots = Arc::new(tokio::sync::Semaphore::new(MOST_CLIENTS));
        let task = tokio::spawn(async move {
            loop {
                let Ok(slot) = slots.clone().acquire_owned().await else {
                    return;
                };
                match listener.accept().await {
                    Ok((client, _)) => {
                        let proxy = proxy.clone();
                        tokio::spawn(async move {
                            proxy.serve_client(client).await;
                            drop(slot);
                        });
                    }
                    Err(_) => tokio::time::sleep(ACCEPT_RETRY).await,
                }
            }
        });
        Ok(ServeGuard(task))
    }

    async fn serve_client(&self, client: TcpStream) {
        // The handshakes are small writes each answered before the next:
        // Nagle's algorithm would hold them back.
        let _ = client.set_nodelay(true);
        let mut first = [0u8; 1];
        if client.peek(&mut first).await.unwrap_or(0) == 0 {
            return;
        }
        let served = match first[0] {
            socks::VERSION => socks::serve(self, client).await,
            _ => http::serve(self, client).await,
        };
        // A client that went away or spoke nonsense has nobody to tell.
        let _ = served;
    }

    /// Judges `destination` (the lists, then the gate), tells the gate the
    /// decision and returns it.
    pub async fn decide(&self, destination: Destination) -> NetworkDecision {
        let decision = match self.lists.judge(&destination) {
            DomainVerdict::Allowed(entry) => NetworkDecision {
                destination,
                allowed: true,
                by: DecidedBy::AllowedEntry(entry),
            },
            DomainVerdict::Denied(entry) => NetworkDecision {
                destination,
                allowed: false,
                by: DecidedBy::DeniedEntry(entry),
            },
            DomainVerdict::Unlisted => {
                let answer = self.gate.unlisted(&destination).await;
                let (allowed, text) = match answer {
                    GateAnswer::Allowed { by } => (true, by),
                    GateAnswer::Refused { reason } => (false, reason),
                };
                NetworkDecision {
                    destination,
                    allowed,
                    by: DecidedBy::Gate(text),
                }
            }
        };
        match self.gate.decided(&decision) {
            Ok(()) => decision,
            Err(why) if decision.allowed => NetworkDecision {
                allowed: false,
                by: DecidedBy::Gate(format!(
                    "{} is refused: the decision could not be recorded: {why}",
                    decision.destination
                )),
                ..decision
            },
            Err(_) => decision,
        }
    }
}

/// Connects to `destination` by name, from this process's network.
async fn connect(destination: &Destination) -> std::io::Result<TcpStream> {
    TcpStream::connect((destination.host().as_str(), destination.port())).await
}

/// Relays bytes both ways until either side closes.
async fn relay(
    client: &mut (impl AsyncRead + AsyncWrite + Unpin),
    upstream: &mut TcpStream,
) -> std::io::Result<()> {
    let _ = upstream.set_nodelay(true);
    tokio::io::copy_bidirectional(client, upstream)
        .await
        .map(|_| ())
}

/// Stops serving when dropped.
pub struct ServeGuard(JoinHandle<()>);

impl Drop for ServeGuard {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl fmt::Debug for NetworkProxy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "NetworkProxy#{}({:?})", self.id, self.lists)
    }
}

impl PartialEq for NetworkProxy {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Eq for NetworkProxy {}
