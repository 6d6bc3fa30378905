//! An ask, answered in the editor: `session/request_permission` with the
//! options allow once, allow always (a session grant — the interactive
//! session's `a` — that answers later asks for the same tool and command)
//! and reject. A grant only ever answers an ask: deny rules, the boundary
//! and hooks have had their say before an approver is asked; and an ask no
//! grant may answer (a protected path) is offered no allow always
//! (`agenthub_policy::SessionGrants` decides both).
//!
//! A cancelled turn, a cancelled question and a client that cannot answer
//! all deny; nothing here allows by default.

use super::rpc::Peer;
use super::schema::{
    PermissionOption, PermissionOutcome, PermissionResponse, ToolCallContent, ToolCallFields,
};
use super::shown::{call_fields, Changes, ToolsByName};
use agenthub::CurrentTurn;
use agenthub::PreparedCall;
use agenthub::{Approval, Approver, Decision, GrantOffer, SessionGrants};
use futures::future::BoxFuture;
use serde_json::json;

const ALLOW_ONCE: &str = "allow_once";
const ALLOW_ALWAYS: &str = "allow_always";
const REJECT_ONCE: &str = "reject_once";

/// Asks the editor of one session.
pub struct EditorApprover {
    pub session_id: String,
    pub peer: Peer,
    pub tools: ToolsByName,
    pub grants: SessionGrants,
    pub turn: CurrentTurn,
}

impl Approver for EditorApprover {
    fn approve<'a>(
        &'a self,
        call: &'a PreparedCall,
        decision: &'a Decision,
    ) -> BoxFuture<'a, Approval> {
        Box::pin(async move {
            if let Some(grant) = self.grants.covering(call, decision) {
                return Approval::AllowOnce {
                    by: format!("this session's grant {}", grant.rule()),
                };
            }
            let offer = SessionGrants::offer(call, decision);
            let cancelled = self.turn.token();
            let asked = self.peer.request(
                "session/request_permission",
                json!({
                    "sessionId": self.session_id,
                    "toolCall": tool_call(&self.tools, call, decision),
                    "options": options(offer.as_ref()),
                }),
            );
            let answer = tokio::select! {
                answer = asked => answer,
                () = cancelled.cancelled() => return deny("denied: the turn was cancelled"),
            };
            let response = answer.map_err(|error| error.message).and_then(|value| {
                serde_json::from_value::<PermissionResponse>(value)
                    .map_err(|error| format!("the editor's answer is not understood: {error}"))
            });
            match response {
                Ok(PermissionResponse {
                    outcome: PermissionOutcome::Selected { option_id },
                }) => self.selected(&option_id, offer),
                Ok(PermissionResponse {
                    outcome: PermissionOutcome::Cancelled,
                }) => deny("denied: the editor cancelled the question"),
                Err(why) => deny(&format!("denied: no answer from the editor ({why})")),
            }
        })
    }

    fn waits_for_a_person(&self) -> bool {
        true
    }
}

impl EditorApprover {
    /// The editor's choice; `allow_always` counts only when it was offered.
    fn selected(&self, option_id: &str, offer: Option<GrantOffer>) -> Approval {
        match (option_id, offer) {
            (ALLOW_ONCE, _) => Approval::by_user(),
            (ALLOW_ALWAYS, Some(offer)) => {
                let grant = self.grants.add(offer);
                Approval::AllowOnce {
                    by: format!("the user, for this session ({})", grant.rule()),
                }
            }
            (ALLOW_ALWAYS, None) => deny("denied: allow always was not offered for this call"),
            _ => deny("denied by the user"),
        }
    }
}

/// The call as the question shows it: the announced call (its diff, its
/// command), computed again for the input being decided (a hook may have
/// rewritten it), then why it asks.
fn tool_call(tools: &ToolsByName, call: &PreparedCall, decision: &Decision) -> ToolCallFields {
    let mut fields = call_fields(
        tools,
        call.id(),
        call.name(),
        call.input().clone(),
        Changes::Previewed,
    );
    let reason = ToolCallContent::text(format!(
        "needs approval ({}): {}",
        decision.source, decision.reason
    ));
    let mut content = fields.content.take().unwrap_or_default();
    content.push(reason);
    fields.content = Some(content);
    fields
}

/// Allow once, allow always (only when a grant may answer), reject.
fn options(offer: Option<&GrantOffer>) -> Vec<PermissionOption> {
    let allow_once = PermissionOption {
        option_id: ALLOW_ONCE,
        name: "Allow once".to_owned(),
        kind: ALLOW_ONCE,
    };
    let allow_always = offer.map(|offer| PermissionOption {
        option_id: ALLOW_ALWAYS,
        name: format!("Always allow {} in this session", offer.grant().shown()),
        kind: ALLOW_ALWAYS,
    });
    let reject = PermissionOption {
        option_id: REJECT_ONCE,
        name: "Reject".to_owned(),
        kind: REJECT_ONCE,
    };
    std::iter::once(allow_once)
        .chain(allow_always)
        .chain(std::iter::once(reject))
        .collect()
}

fn deny(reason: &str) -> Approval {
    Approval::Deny {
        reason: reason.to_owned(),
    }
}
