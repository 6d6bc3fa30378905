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
//! It never resolves a name or opens a connection.

use super::files::matched;
use super::rules::{fetch_matches, Subject};
use super::verdict::{Verdict, Weight};
use crate::{PolicyConfig, PolicyError, RuleList, Source};
use agenthub_protocol::PermissionEffect::{Allow, Ask, Deny};
use agenthub_sandbox::{Destination, DomainLists, DomainVerdict};
use agenthub_tools::fetch_destination;

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
