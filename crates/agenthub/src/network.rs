//! The session's side of the sandbox's network proxy (contract §32): who
//! answers for a host on neither `sandbox.network.allowedDomains` nor
//! `deniedDomains` — the session's approver (the person in the interactive
//! session and ACP, a refusal headless), a session grant for that host
//! first — and where each decision is recorded: a `Network` permission
//! record in the transcript, which the trace exporter also sees.
//!
//! The lists themselves are judged by the proxy with
//! [`agenthub_sandbox::DomainLists::judge`]; this module never matches a
//! name. Until a session is connected, an unlisted host is refused and
//! nothing is recorded (there is no transcript yet).

use agenthub_core::{AgentEvent, Observer};
use agenthub_policy::{Approval, Approver, Decision, Source};
use agenthub_protocol::{PermissionEffect, PermissionRecord};
use agenthub_sandbox::{
    DecidedBy, Destination, DomainVerdict, GateAnswer, GateFuture, NetworkDecision, NetworkGate,
    SandboxMode, SandboxPolicy,
};
use agenthub_tools::{
    DynamicTool, PreparedCall, ToolCapabilities, ToolContext, ToolDefinition, ToolEffect,
    ToolError, ToolOutput,
};
use futures::future::BoxFuture;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// The tool name network decisions are asked and recorded under.
pub const NETWORK_TOOL: &str = "Network";

/// The session's gate: asks its approver, records to its observers.
#[derive(Default)]
pub struct SessionNetworkGate {
    session: Mutex<Option<Connected>>,
    decided: AtomicU64,
    /// `dontAsk`: an unlisted host is refused as if nobody could be asked.
    never_ask: bool,
}

struct Connected {
    approver: Arc<dyn Approver>,
    observer: Arc<dyn Observer>,
}

impl SessionNetworkGate {
    /// A gate for a session in `mode`: under `dontAsk` nobody is asked about
    /// an unlisted host, it is refused; every other mode asks (the lists are
    /// the sandbox's, which `bypassPermissions` does not lift).
    pub fn in_mode(mode: agenthub_policy::PermissionMode) -> SessionNetworkGate {
        SessionNetworkGate {
            never_ask: mode == agenthub_policy::PermissionMode::DontAsk,
            ..SessionNetworkGate::default()
        }
    }

    /// Asks `approver` about unlisted hosts from now on and records every
    /// decision to `observer` (the session's transcript first).
    pub fn connect(&self, approver: Arc<dyn Approver>, observer: Arc<dyn Observer>) {
        *self.session.lock().unwrap_or_else(PoisonError::into_inner) =
            Some(Connected { approver, observer });
    }

    fn connected(&self) -> Option<(Arc<dyn Approver>, Arc<dyn Observer>)> {
        self.session
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .map(|session| (session.approver.clone(), session.observer.clone()))
    }

    fn next_id(&self) -> String {
        format!(
            "network-{}",
            self.decided.fetch_add(1, Ordering::Relaxed) + 1
        )
    }
}

impl NetworkGate for SessionNetworkGate {
    fn unlisted<'a>(&'a self, destination: &'a Destination) -> GateFuture<'a> {
        Box::pin(async move {
            let connected = self.connected().filter(|_| !self.never_ask);
            let Some((approver, _)) = connected else {
                return GateAnswer::Refused {
                    reason: no_one_to_ask(destination),
                };
            };
            let Ok(call) = network_call(destination) else {
                return GateAnswer::Refused {
                    reason: no_one_to_ask(destination),
                };
            };
            match approver.approve(&call, &unlisted_ask(destination)).await {
                Approval::AllowOnce { by } => GateAnswer::Allowed { by },
                Approval::AllowWithInput { by, input } if input == *call.input() => {
                    GateAnswer::Allowed { by }
                }
                Approval::AllowWithInput { .. } => GateAnswer::Refused {
                    reason: format!("{destination} is refused: the approval named another host"),
                },
                Approval::Deny { reason } => GateAnswer::Refused {
                    reason: format!("{destination} is refused: {reason}"),
                },
                Approval::NoOneToAsk => GateAnswer::Refused {
                    reason: no_one_to_ask(destination),
                },
            }
        })
    }

    fn decided(&self, decision: &NetworkDecision) -> Result<(), String> {
        let Some((_, observer)) = self.connected() else {
            return Ok(());
        };
        let record = network_record(self.next_id(), decision);
        observer
            .on_event(&AgentEvent::Permission(&record))
            .map_err(|error| error.to_string())
    }
}

/// What `agenthub permissions explain Network HOST` says of one host: how
/// the sandbox's network setting would treat a sandboxed command's
/// connection to it (session grants do not exist outside a session).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetworkExplanation {
    /// `sandbox.mode` is `off`: commands run unconfined, on the host's network.
    Unsandboxed,
    /// `sandbox.network` is `false` (the default): no network at all.
    Off,
    /// `sandbox.network` is `true`: the host's network, unfiltered, no proxy.
    On,
    /// `sandbox.network` lists domains: the proxy's verdict on the host.
    Domains(DomainVerdict),
}

impl NetworkExplanation {
    /// The explanation of `destination` under `policy`, judged by
    /// [`agenthub_sandbox::DomainLists::judge`] as the proxy judges it.
    pub fn of(policy: &SandboxPolicy, destination: &Destination) -> NetworkExplanation {
        if policy.mode == SandboxMode::Off {
            return NetworkExplanation::Unsandboxed;
        }
        match (policy.network, policy.proxied()) {
            (true, _) => NetworkExplanation::On,
            (false, Some(proxy)) => NetworkExplanation::Domains(proxy.lists().judge(destination)),
            (false, None) => NetworkExplanation::Off,
        }
    }

    /// The effect on a connection: allow, deny, or ask (refused headless).
    pub fn effect(&self) -> PermissionEffect {
        match self {
            NetworkExplanation::Unsandboxed
            | NetworkExplanation::On
            | NetworkExplanation::Domains(DomainVerdict::Allowed(_)) => PermissionEffect::Allow,
            NetworkExplanation::Off | NetworkExplanation::Domains(DomainVerdict::Denied(_)) => {
                PermissionEffect::Deny
            }
            NetworkExplanation::Domains(DomainVerdict::Unlisted) => PermissionEffect::Ask,
        }
    }

    /// Why, in words naming the setting that decides.
    pub fn reason(&self, destination: &Destination) -> String {
        let host = destination.host();
        match self {
            NetworkExplanation::Unsandboxed => {
                "sandbox.mode is off: commands run unconfined, on the host's network".to_owned()
            }
            NetworkExplanation::Off => {
                "sandbox.network is false: sandboxed commands reach no network at all".to_owned()
            }
            NetworkExplanation::On => {
                "sandbox.network is true: the host's network, unfiltered (no proxy)".to_owned()
            }
            NetworkExplanation::Domains(DomainVerdict::Allowed(entry)) => {
                format!("`{entry}` on sandbox.network.allowedDomains matches {destination}")
            }
            NetworkExplanation::Domains(DomainVerdict::Denied(entry)) => {
                format!("`{entry}` on sandbox.network.deniedDomains matches {destination}")
            }
            NetworkExplanation::Domains(DomainVerdict::Unlisted) => format!(
                "{destination} is on neither sandbox.network.allowedDomains nor deniedDomains: \
                 the interactive session and ACP ask (\"allow {host} for this session?\"); \
                 headless it is refused (add it to sandbox.network.allowedDomains)"
            ),
        }
    }
}

/// The permission record of one proxy decision.
pub fn network_record(id: String, decision: &NetworkDecision) -> PermissionRecord {
    let (source, rule) = match &decision.by {
        DecidedBy::AllowedEntry(entry) => (
            Source::Rule,
            Some(format!("{entry} (sandbox.network.allowedDomains)")),
        ),
        DecidedBy::DeniedEntry(entry) => (
            Source::Rule,
            Some(format!("{entry} (sandbox.network.deniedDomains)")),
        ),
        DecidedBy::Gate(_) => (Source::Approval, None),
    };
    PermissionRecord {
        agent_id: None,
        tool: NETWORK_TOOL.to_owned(),
        tool_use_id: id,
        host: Some(decision.destination.to_string()),
        effect: match decision.allowed {
            true => PermissionEffect::Allow,
            false => PermissionEffect::Deny,
        },
        source,
        rule,
        reason: decision.reason(),
    }
}

/// What a host on neither list is refused with when nobody can be asked.
pub fn no_one_to_ask(destination: &Destination) -> String {
    format!(
        "{destination} is not on sandbox.network.allowedDomains and nobody can be asked here; \
         add it to sandbox.network.allowedDomains to allow it"
    )
}

/// The ask about a host on neither list: grantable, so "allow for this
/// session" grants that host (and port) alone.
fn unlisted_ask(destination: &Destination) -> Decision {
    Decision::new(
        PermissionEffect::Ask,
        Source::Sandbox,
        format!(
            "allow {} for this session? A sandboxed command connects to {destination}, which is \
             on neither sandbox.network.allowedDomains nor deniedDomains",
            destination.host()
        ),
    )
}

/// The call an approver is asked about: tool `Network`, input
/// `{"host": "name:port"}`; a session grant covers that host and port.
fn network_call(destination: &Destination) -> Result<PreparedCall, agenthub_tools::SchemaError> {
    static DEFINITION: OnceLock<Result<Arc<ToolDefinition>, agenthub_tools::SchemaError>> =
        OnceLock::new();
    let definition = DEFINITION
        .get_or_init(|| ToolDefinition::from_dynamic(NetworkTool::new()).map(Arc::new))
        .clone()?;
    Ok(PreparedCall::from_parts(
        format!("network-ask-{destination}"),
        NETWORK_TOOL,
        definition,
        json!({"host": destination.to_string()}),
    ))
}

/// The tool a network ask names: never offered to a model, never run.
struct NetworkTool {
    schema: Value,
}

impl NetworkTool {
    fn new() -> NetworkTool {
        NetworkTool {
            schema: json!({
                "type": "object",
                "properties": {"host": {"type": "string"}},
                "required": ["host"],
                "additionalProperties": false,
            }),
        }
    }
}

impl DynamicTool for NetworkTool {
    fn name(&self) -> &str {
        NETWORK_TOOL
    }

    fn description(&self) -> &str {
        "A sandboxed command's connection through AgentHub's network proxy."
    }

    fn input_schema(&self) -> &Value {
        &self.schema
    }

    fn effect(&self) -> ToolEffect {
        ToolEffect::SideEffects
    }

    /// The host is what a session grant is for (`Network(example.net:443)`).
    fn capabilities(&self) -> ToolCapabilities {
        ToolCapabilities::none().running("host")
    }

    fn call(
        &self,
        _input: Value,
        _context: ToolContext,
    ) -> BoxFuture<'_, Result<ToolOutput, ToolError>> {
        Box::pin(async { Err(ToolError::new("Network is not a tool a model can call")) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenthub_policy::PermissionMode;

    /// Says yes to every ask.
    struct Yes;

    impl Approver for Yes {
        fn approve<'a>(&'a self, _: &'a PreparedCall, _: &'a Decision) -> BoxFuture<'a, Approval> {
            Box::pin(async {
                Approval::AllowOnce {
                    by: "the test".to_owned(),
                }
            })
        }
    }

    async fn answer_in(mode: PermissionMode) -> GateAnswer {
        let gate = SessionNetworkGate::in_mode(mode);
        gate.connect(Arc::new(Yes), Arc::new(agenthub_core::Observers::new()));
        let destination = Destination::new("example.net", 443).unwrap();
        gate.unlisted(&destination).await
    }

    #[tokio::test]
    async fn an_unlisted_host_is_asked_about_in_every_mode_but_dont_ask() {
        let destination = Destination::new("example.net", 443).unwrap();
        let allowed = GateAnswer::Allowed {
            by: "the test".to_owned(),
        };
        assert_eq!(
            [
                answer_in(PermissionMode::Default).await,
                answer_in(PermissionMode::BypassPermissions).await,
                answer_in(PermissionMode::DontAsk).await,
            ],
            [
                allowed.clone(),
                allowed,
                GateAnswer::Refused {
                    reason: no_one_to_ask(&destination)
                }
            ]
        );
    }
}
