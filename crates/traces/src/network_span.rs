//! The span of one decision of the sandbox's network proxy (contract §32).
//! Like the tool spans it exports the decision and who made it, never the
//! reason text, which may quote what a command sent.

use super::span::{FinishedSpan, OpenSpan, SpanContext};
use agenthub_policy::decided_by::policy_decider;
use agenthub_protocol::{PermissionEffect, PermissionRecord};

/// The span of one decision of the sandbox's network proxy (contract §32):
/// `network <host:port>`, with the host, the decision and what decided it
/// (`rule <entry> (sandbox.network.allowedDomains)`, or `approval` for an
/// unlisted host), failed when refused. Never the reason text.
pub(crate) fn network_span(
    record: &PermissionRecord,
    parent: SpanContext,
    now: u64,
) -> FinishedSpan {
    let host = record.host.as_deref().unwrap_or_default();
    let mut span = OpenSpan::start(format!("network {host}"), Some(parent), now);
    span.set("agenthub.network.host", host);
    span.set("agenthub.permission.decision", record.effect.as_str());
    span.set("agenthub.permission.source", policy_decider(record));
    if record.effect == PermissionEffect::Deny {
        span.fail();
    }
    span.finish(now)
}
