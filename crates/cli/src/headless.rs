//! Headless asks (contract §12): when an ask — the session's or a subagent's — is
//! denied because nobody can answer it here, stderr says how to allow it in this command's own flags, and the
//! JSON output's `permission_denials` gives the same words as the reason.
//!
//! The library only gives the typed [`HowToAllow`]; the wording (flags,
//! quoting) lives here and nowhere else. It never changes what the model is
//! told (`approval required`) and never allows anything itself.

use agenthub::{AgentEvent, HowToAllow, Observer, ObserverError, PermissionDenial};
use std::io::Write;
use std::sync::Mutex;

/// `Bash needs approval and no one can answer here: re-run with --allow 'Bash(npm test:*)'`.
pub fn hint(tool: &str, how: &HowToAllow) -> String {
    let remedy = match how {
        HowToAllow::Rules(rules) => {
            let flags: Vec<String> = rules.iter().map(|rule| format!("--allow '{rule}'")).collect();
            format!("re-run with {}", flags.join(" "))
        }
        HowToAllow::Mode(mode) => format!("re-run with --permission-mode {mode}"),
        HowToAllow::OnlyAPerson => {
            "no flag allows this call (a rule, a protected path, a hook or the shell analysis asks); run agenthub in a terminal to answer".to_owned()
        }
    };
    format!("{tool} needs approval and no one can answer here: {remedy}")
}

/// The reason a denial is reported with: the hint when nobody could answer
/// the ask, otherwise the deciding participant's own reason.
pub fn denial_reason(denial: &PermissionDenial) -> String {
    match &denial.how_to_allow {
        Some(how) => hint(&denial.tool_name, how),
        None => denial.reason.clone(),
    }
}

/// Writes `[Permission] <hint>` for every ask nobody could answer.
pub struct HeadlessHints<W: Write + Send> {
    out: Mutex<W>,
}

impl<W: Write + Send> HeadlessHints<W> {
    /// Hints written to `out` (stderr).
    pub fn new(out: W) -> Self {
        HeadlessHints {
            out: Mutex::new(out),
        }
    }
}

impl<W: Write + Send> Observer for HeadlessHints<W> {
    fn on_event(&self, event: &AgentEvent<'_>) -> Result<(), ObserverError> {
        let denial = match event {
            AgentEvent::PermissionDenied(denial)
            | AgentEvent::Subagent(_, AgentEvent::PermissionDenied(denial)) => denial,
            _ => return Ok(()),
        };
        let Some(how) = &denial.how_to_allow else {
            return Ok(());
        };
        let mut out = self
            .out
            .lock()
            .map_err(|_| ObserverError("hints poisoned".to_owned()))?;
        writeln!(out, "[Permission] {}", hint(&denial.tool_name, how))
            .map_err(|error| ObserverError(error.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenthub::PermissionMode;

    #[test]
    fn each_kind_of_suggestion_is_worded_with_this_commands_flags() {
        assert_eq!(
            [
                hint(
                    "Bash",
                    &HowToAllow::Rules(vec!["Bash(cargo fmt:*)".into(), "Bash(npm test:*)".into()])
                ),
                hint("Write", &HowToAllow::Mode(PermissionMode::AcceptEdits)),
                hint(
                    "WebFetch",
                    &HowToAllow::Rules(vec!["WebFetch(domain:example.com)".into()])
                ),
                hint("Bash", &HowToAllow::OnlyAPerson),
            ],
            [
                "Bash needs approval and no one can answer here: re-run with --allow 'Bash(cargo fmt:*)' --allow 'Bash(npm test:*)'",
                "Write needs approval and no one can answer here: re-run with --permission-mode acceptEdits",
                "WebFetch needs approval and no one can answer here: re-run with --allow 'WebFetch(domain:example.com)'",
                "Bash needs approval and no one can answer here: no flag allows this call (a rule, a protected path, a hook or the shell analysis asks); run agenthub in a terminal to answer",
            ]
        );
    }
}
