//! Participants' verdicts and the one merge that turns them into a decision.
//!
//! 1. Any deny wins (boundary, deny rule, shell refusal, hook deny, plan mode).
//! 2. Else a *binding* ask wins: an explicit ask rule, a protected path, a
//!    command that does not parse, a hook's ask. Only a person answers it.
//! 3. Else an allow answers what is left: a rule covering the whole call, a
//!    read-only command (contract §29), a hook's allow, the mode (acceptEdits
//!    for edits, bypassPermissions).
//! 4. Else the first *soft* verdict: a construct no rule may allow, a
//!    sub-command no rule allows, finally the tool's default.
//! 5. dontAsk turns a remaining ask into a deny.
//!
//! 6. An ask that a protected path (or a written path that may be one, or
//!    may leave the workspace) joined is [`AskScope::ThisCallOnly`]: no
//!    session grant, `allowed-tools` rule or allow rule answers it. This is
//!    the one place that says so (contract §28).
//!
//! So a hook's allow can only answer a default (soft) ask, never an explicit
//! rule, a protected path or the boundary — the merge has no other path.

use crate::{AskScope, Decision, PermissionMode, Source};
use agenthub_protocol::PermissionEffect;

/// How a verdict counts in the merge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Weight {
    /// Counts as its effect: a deny wins, an ask needs a person, an allow
    /// answers soft asks.
    Binding,
    /// An ask (or the default allow of a read-only tool) that an allow may answer.
    Soft,
    /// Shown in explanations only (one sub-command's rule match).
    Detail,
}

/// One participant's verdict on the call, or on part of it (`subject`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The participant that gave it.
    pub source: Source,
    /// `None`: the participant has nothing to say (passthrough).
    pub effect: Option<PermissionEffect>,
    /// How much it counts in the merge.
    pub weight: Weight,
    /// The sub-command or path this verdict is about, if not the whole call.
    pub subject: Option<String>,
    /// The rule that gave it (text and origin), when a rule did.
    pub rule: Option<String>,
    /// Why, in words, for explanations and audit lines.
    pub reason: String,
    /// Who may answer it, when it is a binding ask that wins or joins the
    /// winning ask (see [`AskScope`]).
    pub scope: AskScope,
}

impl Verdict {
    /// A participant's verdict with an effect.
    pub fn new(
        source: Source,
        effect: PermissionEffect,
        weight: Weight,
        reason: impl Into<String>,
    ) -> Self {
        Verdict {
            source,
            effect: Some(effect),
            weight,
            subject: None,
            rule: None,
            reason: reason.into(),
            scope: AskScope::Grantable,
        }
    }

    /// A participant that has nothing to say, and why (shown by `explain`).
    pub fn passthrough(source: Source, reason: impl Into<String>) -> Self {
        Verdict {
            source,
            effect: None,
            weight: Weight::Detail,
            subject: None,
            rule: None,
            reason: reason.into(),
            scope: AskScope::Grantable,
        }
    }

    /// The same ask, answered only by the person for this one call (a
    /// protected path, a written path that may be one or may leave the
    /// workspace): no grant answers it.
    pub fn this_call_only(mut self) -> Self {
        self.scope = AskScope::ThisCallOnly;
        self
    }

    /// The same verdict, about one sub-command or path of the call.
    pub fn about(mut self, subject: impl Into<String>) -> Self {
        self.subject = Some(subject.into());
        self
    }

    /// The same verdict, naming the rule that gave it.
    pub fn by_rule(mut self, rule: impl Into<String>) -> Self {
        self.rule = Some(rule.into());
        self
    }

    fn is(&self, effect: PermissionEffect, weight: Weight) -> bool {
        self.effect == Some(effect) && self.weight == weight
    }

    fn decision(&self) -> Decision {
        Decision {
            effect: self.effect.unwrap_or(PermissionEffect::Ask),
            source: self.source,
            rule: self.rule.clone(),
            reason: self.reason.clone(),
            scope: self.scope,
        }
    }
}

/// Every verdict, in participant order, and the merged decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    /// The permission mode the call was judged in.
    pub mode: PermissionMode,
    /// Every participant's verdict, passthroughs included.
    pub verdicts: Vec<Verdict>,
    /// What the merge made of them: what `decide` returns.
    pub decision: Decision,
}

/// The merge described in the module docs.
pub fn merge(verdicts: &[Verdict], mode: PermissionMode) -> Decision {
    use PermissionEffect::{Allow, Ask, Deny};
    let counted = || {
        verdicts
            .iter()
            .filter(|verdict| verdict.weight != Weight::Detail)
    };
    let decided = counted()
        .find(|verdict| verdict.effect == Some(Deny))
        .or_else(|| counted().find(|verdict| verdict.is(Ask, Weight::Binding)))
        .or_else(|| counted().find(|verdict| verdict.is(Allow, Weight::Binding)))
        .or_else(|| counted().find(|verdict| verdict.weight == Weight::Soft));
    let mut decision = match decided {
        Some(verdict) => verdict.decision(),
        None => Decision::new(Ask, Source::Default, "no participant decided; asking"),
    };
    decision.scope = scope(verdicts);
    if mode == PermissionMode::DontAsk && decision.effect == Ask {
        return Decision {
            effect: Deny,
            source: Source::Mode,
            rule: decision.rule,
            reason: format!("dontAsk mode denies what would ask: {}", decision.reason),
            scope: decision.scope,
        };
    }
    decision
}

/// [`AskScope::ThisCallOnly`] when a participant that only the person may
/// answer (a protected path, a write that cannot be checked) asks about the
/// call, whatever won the merge.
fn scope(verdicts: &[Verdict]) -> AskScope {
    let person_only = verdicts.iter().any(|verdict| {
        verdict.effect == Some(PermissionEffect::Ask)
            && verdict.weight != Weight::Detail
            && verdict.scope == AskScope::ThisCallOnly
    });
    match person_only {
        true => AskScope::ThisCallOnly,
        false => AskScope::Grantable,
    }
}
