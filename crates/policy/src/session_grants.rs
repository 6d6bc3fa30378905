//! Session grants: "allow for this session" — the interactive session's
//! `a`, ACP's `allow_always` — remembered for the rest of the session and
//! answering later asks for the same tool (and, for a shell tool, the same
//! command; for a fetch tool, the same host: `WebFetch(domain:example.com)`).
//!
//! A grant only ever answers an ask: deny rules, the workspace boundary and
//! hooks have had their say before an approver is asked. Which asks a grant
//! may answer is not decided here but by the policy's merge
//! ([`Decision::grantable`], contract §28): a grant is offered only for a
//! grantable ask ([`SessionGrants::offer`] is the only way to make a
//! [`GrantOffer`]) and answers only a grantable ask
//! ([`SessionGrants::covering`]). So a grant given for an ordinary Write
//! never answers a Write to `.git/hooks/`, whichever front door holds it.
//! This module must never answer an ask the policy scoped to one call.

use crate::Decision;
use agenthub_tools::PreparedCall;
use std::sync::{Arc, Mutex, PoisonError};

/// "Allow for this session": a tool, and for a shell tool the exact
/// command, for a fetch tool the host (`domain:example.com`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    tool: String,
    /// The command, or `domain:HOST`: what goes between the rule's brackets.
    specifier: Option<String>,
}

impl Grant {
    /// The grant that "allow for this session" would give for `call`.
    fn for_call(call: &PreparedCall) -> Grant {
        let definition = call.definition();
        let capabilities = definition.capabilities();
        let command = capabilities
            .command(call.input())
            .and_then(Result::ok)
            .map(str::to_owned);
        let host = capabilities
            .url(call.input())
            .and_then(Result::ok)
            .and_then(|url| agenthub_tools::fetch_destination(url).ok())
            .map(|target| format!("domain:{}", target.destination.host()));
        Grant {
            tool: definition.name().to_owned(),
            specifier: command.or(host),
        }
    }

    /// Whether this grant is about `call` (its tool, and its command).
    fn covers(&self, call: &PreparedCall) -> bool {
        *self == Grant::for_call(call)
    }

    /// The grant written as a rule: `Bash(git status)`, `Write`,
    /// `WebFetch(domain:example.com)`.
    pub fn rule(&self) -> String {
        match &self.specifier {
            Some(command) => format!("{}({command})", self.tool),
            None => self.tool.clone(),
        }
    }

    /// The grant as a question's choices name it, on one line: a command
    /// of several lines is named by its line count, never repeated there,
    /// so its lines cannot draw a forged question after the marked ones
    /// (contract §26).
    pub fn shown(&self) -> String {
        match &self.specifier {
            Some(command) if command.split('\n').count() > 1 => format!(
                "{}(the {}-line command above)",
                self.tool,
                command.split('\n').count()
            ),
            _ => self.rule(),
        }
    }
}

/// A grant a person may give for one ask: made only by
/// [`SessionGrants::offer`], so only for an ask a grant may answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrantOffer(Grant);

impl GrantOffer {
    /// The grant taking the offer would add.
    pub fn grant(&self) -> &Grant {
        &self.0
    }
}

/// The grants of one session, shared by its approver and whatever lists
/// them (`/permissions`).
#[derive(Debug, Clone, Default)]
pub struct SessionGrants(Arc<Mutex<Vec<Grant>>>);

impl SessionGrants {
    /// The grant "allow for this session" would add for `call`, or `None`
    /// when `decision` is an ask no grant may answer: then only "allow
    /// once" may be offered.
    pub fn offer(call: &PreparedCall, decision: &Decision) -> Option<GrantOffer> {
        decision
            .grantable()
            .then(|| GrantOffer(Grant::for_call(call)))
    }

    /// The grant that answers the ask `decision` about `call`, if one was
    /// given and the ask is one a grant may answer.
    pub fn covering(&self, call: &PreparedCall, decision: &Decision) -> Option<Grant> {
        if !decision.grantable() {
            return None;
        }
        self.grants()
            .iter()
            .find(|grant| grant.covers(call))
            .cloned()
    }

    /// Takes an offer: its grant answers later asks (added once). Returns it.
    pub fn add(&self, offer: GrantOffer) -> Grant {
        let mut grants = self.grants();
        if !grants.contains(&offer.0) {
            grants.push(offer.0.clone());
        }
        offer.0
    }

    /// The grants, oldest first.
    pub fn list(&self) -> Vec<Grant> {
        self.grants().clone()
    }

    /// Forgets every grant (a new session).
    pub fn clear(&self) {
        self.grants().clear();
    }

    fn grants(&self) -> std::sync::MutexGuard<'_, Vec<Grant>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AskScope, Source};
    use agenthub_protocol::{PermissionEffect, ToolCall};
    use agenthub_tools::ToolRegistry;

    fn write_call(path: &str) -> PreparedCall {
        let tools = ToolRegistry::with_builtins().expect("built-in tools");
        let input = serde_json::json!({"file_path": path, "content": "x"}).to_string();
        tools
            .prepare(&ToolCall::new("call_1", "Write", input))
            .expect("a valid Write")
    }

    fn ask(scope: AskScope) -> Decision {
        let mut decision = Decision::new(PermissionEffect::Ask, Source::Default, "asks");
        decision.scope = scope;
        decision
    }

    #[test]
    fn a_grant_answers_a_later_grantable_ask_for_the_same_tool() {
        let grants = SessionGrants::default();
        let offer = SessionGrants::offer(&write_call("a.txt"), &ask(AskScope::Grantable));
        grants.add(offer.expect("a grantable ask is offered a grant"));
        let covering = grants.covering(&write_call("b.txt"), &ask(AskScope::Grantable));
        assert_eq!(covering.map(|grant| grant.rule()), Some("Write".to_owned()));
    }

    #[test]
    fn no_grant_is_offered_for_an_ask_scoped_to_one_call() {
        let offer = SessionGrants::offer(&write_call(".git/hooks/x"), &ask(AskScope::ThisCallOnly));
        assert_eq!(offer, None);
    }

    #[test]
    fn a_grant_never_answers_an_ask_scoped_to_one_call() {
        let grants = SessionGrants::default();
        let offer = SessionGrants::offer(&write_call("a.txt"), &ask(AskScope::Grantable));
        grants.add(offer.expect("a grantable ask is offered a grant"));
        let covering = grants.covering(
            &write_call(".git/hooks/post-merge"),
            &ask(AskScope::ThisCallOnly),
        );
        assert_eq!(covering, None);
    }
}
