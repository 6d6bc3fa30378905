//! How a task's refused ask could have been allowed, in a task list's own
//! terms: nobody answers an ask in a batch, so the remedy is the task's
//! `settings` (an allow rule, a mode), never a command-line flag.
//!
//! It only words the library's typed [`HowToAllow`]; it never allows anything.

use agenthub::{HowToAllow, PermissionDenial};

/// The reason a task's denial is reported with: the remedy when nobody
/// could answer the ask, otherwise the deciding participant's own reason.
pub fn denial_reason(denial: &PermissionDenial) -> String {
    let Some(how) = &denial.how_to_allow else {
        return denial.reason.clone();
    };
    let remedy = match how {
        HowToAllow::Rules(rules) => {
            let quoted: Vec<String> = rules.iter().map(|rule| format!("\"{rule}\"")).collect();
            format!(
                "add {{\"permissions\": {{\"allow\": [{}]}}}} to the task's settings",
                quoted.join(", ")
            )
        }
        HowToAllow::Mode(mode) => format!(
            "add {{\"permissions\": {{\"defaultMode\": \"{mode}\"}}}} to the task's settings"
        ),
        HowToAllow::OnlyAPerson => "no setting allows this call (a rule, a protected path, a hook or the shell analysis asks); run it with agenthub in a terminal to answer".to_owned(),
    };
    format!(
        "{} needs approval and no one can answer in a batch: {remedy}",
        denial.tool_name
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenthub::PermissionMode;
    use serde_json::json;

    fn denial(how: Option<HowToAllow>) -> PermissionDenial {
        PermissionDenial {
            tool_name: "Bash".into(),
            tool_use_id: "call_1".into(),
            tool_input: json!({"command": "npm test"}),
            reason: "approval required".into(),
            how_to_allow: how,
        }
    }

    #[test]
    fn each_remedy_is_worded_as_the_tasks_settings() {
        assert_eq!(
            [
                denial_reason(&denial(Some(HowToAllow::Rules(vec!["Bash(npm test:*)".into()])))),
                denial_reason(&denial(Some(HowToAllow::Mode(PermissionMode::AcceptEdits)))),
                denial_reason(&denial(Some(HowToAllow::OnlyAPerson))),
                denial_reason(&denial(None)),
            ],
            [
                "Bash needs approval and no one can answer in a batch: add {\"permissions\": {\"allow\": [\"Bash(npm test:*)\"]}} to the task's settings",
                "Bash needs approval and no one can answer in a batch: add {\"permissions\": {\"defaultMode\": \"acceptEdits\"}} to the task's settings",
                "Bash needs approval and no one can answer in a batch: no setting allows this call (a rule, a protected path, a hook or the shell analysis asks); run it with agenthub in a terminal to answer",
                "approval required",
            ]
        );
    }
}
