//! Who made a recorded permission decision, in one wording for traces
//! (`agenthub.permission.source`) and `agenthub replay`: the rule (with its
//! file) or the participant for an allow or deny; for the answer to an ask,
//! the PermissionRequest hook that answered, the user, or no one when
//! nobody could be asked. Read from typed records, never from reason text.

use crate::{Approval, Decision, Source};
use agenthub_protocol::{HookDecision, HookRecord, PermissionEffect, PermissionRecord};

/// `rule <rule (file)>` when a rule decided, else the participant
/// (`mode`, `default`, `hook`, `workspace-boundary`, …).
pub fn policy_decider(record: &PermissionRecord) -> String {
    wording(record.source, record.rule.as_deref())
}

/// The same wording for a decision the policy engine just made.
pub fn decision_decider(decision: &Decision) -> String {
    wording(decision.source, decision.rule.as_deref())
}

fn wording(source: Source, rule: Option<&str>) -> String {
    match rule {
        Some(rule) if source == Source::Rule => format!("rule {rule}"),
        _ => source.as_str().to_owned(),
    }
}

/// Who answered an ask, given the approval's record and the call's
/// PermissionRequest hook records.
pub fn approval_decider(approval: &PermissionRecord, permission_hooks: &[&HookRecord]) -> String {
    let answered = permission_hooks.iter().rev().find(|record| {
        matches!(
            record.decision.and_then(HookDecision::permission_effect),
            Some(PermissionEffect::Allow | PermissionEffect::Deny)
        )
    });
    match answered {
        Some(record) => format!("hook {}", record.hook),
        None if approval.reason == Approval::NO_ONE_TO_ASK => "no one to ask".to_owned(),
        None => "user".to_owned(),
    }
}
