//! A call that fetches a URL (a tool that declares a URL field: WebFetch),
//! contract §32. Two participants speak about the URL's host:
//!
//! - `sandbox.network`'s domain lists, when it is an object (judged by
//!   [`DomainLists::judge`], the one place hosts meet the lists): a denied
//!   host is refused whatever a rule, grant or mode says (`sandbox`), an
//!   allowed one runs without asking, an unlisted one leaves the call to
//!   the rules and the tool's default (it asks). With `true` or `false` the
//!   lists say nothing: `sandbox.network` governs sandboxed commands.
//! - the rules: `WebFetch(domain:…)` covering the host, or rules naming the
//!   whole tool, deny first.
//!
//! [`PolicyEngine::judge_fetch`] puts a redirect's URL to the same
//! participants (and the mode), so a hop is judged as a call would be.
//! It never resolves a name or opens a connection.

use super::files::matched;
use super::rules::{fetch_matches, Subject};
use super::verdict::{Verdict, Weight};
use crate::{CallView, PolicyConfig, PolicyEngine, PolicyError, RuleList, Source};
use agenthub_protocol::PermissionEffect::{Allow, Ask, Deny};
use agenthub_sandbox::{Destination, DomainLists, DomainVerdict};
use agenthub_tools::{fetch_destination, FetchJudgement, ToolCapabilities, ToolEffect, Workspace};

impl PolicyEngine {
    /// What this engine says of `tool` (which declares `capabilities`)
    /// fetching `url`: the judgement a fetch tool's redirect check asks for
    /// (install it with [`Workspace::with_fetch_guard`]). No hook speaks
    /// here; a URL that cannot be read is refused.
    pub fn judge_fetch(
        &self,
        tool: &str,
        capabilities: &ToolCapabilities,
        url: &str,
    ) -> FetchJudgement {
        let Some(field) = capabilities.url_field else {
            return FetchJudgement::Deny(format!("{tool} declares no URL it fetches"));
        };
        let input = serde_json::json!({ field: url });
        let call = CallView {
            tool,
            effect: ToolEffect::SideEffects,
            capabilities,
            input: &input,
        };
        match self.explain(call, None, &Workspace::new("/")) {
            Err(error) => FetchJudgement::Deny(error.to_string()),
            Ok(explanation) => match explanation.decision.effect {
                Allow => FetchJudgement::Allow,
                Ask => FetchJudgement::Ask(explanation.decision.reason),
                Deny => FetchJudgement::Deny(explanation.decision.reason),
            },
        }
    }
}

/// The URL of a tool that declares one; a declared field that is missing or
/// not a string cannot be checked.
pub(super) fn fetched_url<'a>(call: CallView<'a>) -> Result<Option<&'a str>, PolicyError> {
    call.capabilities
        .url(call.input)
        .transpose()
        .map_err(|error| {
            PolicyError::Evaluation(format!(
                "{} input has no {} string to check",
                call.tool,
                error.field()
            ))
        })
}

/// The domain lists' and the rules' verdicts on fetching `url` with `tool`.
pub(super) fn verdicts(
    config: &PolicyConfig,
    lists: Option<&DomainLists>,
    tool: &str,
    url: &str,
) -> Result<Vec<Verdict>, PolicyError> {
    let destination = fetch_destination(url)
        .map_err(|error| PolicyError::Evaluation(format!("{tool} cannot fetch it: {error}")))?
        .destination;
    let mut verdicts = Vec::new();
    if let Some(lists) = lists {
        verdicts.push(list_verdict(lists, &destination));
    }
    verdicts.push(rule_verdict(config, tool, &destination));
    Ok(verdicts)
}

fn list_verdict(lists: &DomainLists, destination: &Destination) -> Verdict {
    let host = destination.host();
    match lists.judge(destination) {
        DomainVerdict::Denied(entry) => Verdict::new(
            Source::Sandbox,
            Deny,
            Weight::Binding,
            format!("{host} is refused by sandbox.network.deniedDomains ({entry})"),
        ),
        DomainVerdict::Allowed(entry) => Verdict::new(
            Source::Sandbox,
            Allow,
            Weight::Binding,
            format!("{host} is on sandbox.network.allowedDomains ({entry})"),
        ),
        DomainVerdict::Unlisted => Verdict::passthrough(
            Source::Sandbox,
            format!("{host} is on neither list of sandbox.network"),
        ),
    }
    .about(destination.to_string())
}

fn rule_verdict(config: &PolicyConfig, tool: &str, destination: &Destination) -> Verdict {
    let subject = Subject::url(tool);
    let about = format!("{tool}(domain:{})", destination.host());
    for (list, effect) in [
        (RuleList::Deny, Deny),
        (RuleList::Ask, Ask),
        (RuleList::Allow, Allow),
    ] {
        if let Some(rule) = config
            .rules_in(list)
            .find(|rule| fetch_matches(rule, subject, destination))
        {
            return matched(rule, effect, Weight::Binding, about);
        }
    }
    Verdict::passthrough(Source::Rule, format!("no rule names {about}"))
}
