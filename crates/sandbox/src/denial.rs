//! Says so when a command failed because the sandbox stopped it, so the model
//! can tell a sandbox denial from a bug and ask to run the command unsandboxed
//! (`dangerouslyDisableSandbox: true`, which always asks the user), and when
//! the sandbox removed protected names the command created. It only reads
//! what the command printed and what was removed; it never changes the result.

use crate::protected::Removal;
use crate::runner::Mechanism;
use crate::{SandboxMode, SandboxPolicy};
use std::path::PathBuf;

/// What the model can do about a denial.
const ADVICE: &str = "if the command needs it, ask to run it unsandboxed \
                      (Bash with dangerouslyDisableSandbox: true; the user is asked)";

/// A line for a failed command's result when its stderr shows the sandbox
/// refused something; `None` when nothing points at the sandbox.
pub fn denial_note(policy: &SandboxPolicy, mechanism: &Mechanism, stderr: &str) -> Option<String> {
    let stderr = stderr.to_lowercase();
    let what = if stderr.contains("read-only file system")
        || (*mechanism == Mechanism::Landlock && stderr.contains("permission denied"))
    {
        match policy.mode {
            SandboxMode::ReadOnly => "write denied (sandbox mode read-only)".to_owned(),
            _ => "write outside the workspace (or to a protected path) denied".to_owned(),
        }
    } else if !policy.network
        && [
            "network is unreachable",
            "operation not permitted",
            "connection refused",
            "temporary failure in name resolution",
        ]
        .iter()
        .any(|sign| stderr.contains(sign))
    {
        "network access denied, Unix sockets included (sandbox.network is off)".to_owned()
    } else {
        return None;
    };
    if *mechanism == Mechanism::Unconfined {
        return None;
    }
    Some(format!("sandbox: {what}; {ADVICE}"))
}

/// A line naming the protected entries the command created, which the
/// sandbox removed; `None` when there were none.
pub fn removal_note(removals: &[Removal], roots: &[PathBuf]) -> Option<String> {
    if removals.is_empty() {
        return None;
    }
    let shown: Vec<String> = removals
        .iter()
        .map(|removal| {
            let relative = roots
                .iter()
                .find_map(|root| removal.path.strip_prefix(root).ok())
                .unwrap_or(&removal.path);
            match &removal.error {
                None => relative.display().to_string(),
                Some(error) => format!("{} (could not be removed: {error})", relative.display()),
            }
        })
        .collect();
    Some(format!(
        "sandbox: protected paths are read-only; removed what the command created: {}",
        shown.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_read_only_file_system_error_is_named_a_sandbox_write_denial() {
        let bwrap = Mechanism::Bubblewrap(PathBuf::from("/usr/bin/bwrap"));
        assert_eq!(
            denial_note(
                &SandboxPolicy::default(),
                &bwrap,
                "touch: cannot touch '/etc/x': Read-only file system"
            ),
            Some(format!(
                "sandbox: write outside the workspace (or to a protected path) denied; {ADVICE}"
            ))
        );
    }

    #[test]
    fn an_unreachable_network_is_named_a_sandbox_network_denial() {
        assert_eq!(
            denial_note(
                &SandboxPolicy::default(),
                &Mechanism::Landlock,
                "OSError: [Errno 101] Network is unreachable"
            ),
            Some(format!(
                "sandbox: network access denied, Unix sockets included (sandbox.network is off); \
                 {ADVICE}"
            ))
        );
    }

    #[test]
    fn an_ordinary_failure_says_nothing_about_the_sandbox() {
        assert_eq!(
            denial_note(
                &SandboxPolicy::default(),
                &Mechanism::Landlock,
                "No such file"
            ),
            None
        );
    }

    #[test]
    fn removed_protected_entries_are_named_relative_to_their_root() {
        let root = PathBuf::from("/w");
        let removals = [
            Removal {
                path: root.join("sub/.git"),
                error: None,
            },
            Removal {
                path: root.join(".envrc"),
                error: Some("busy".to_owned()),
            },
        ];
        assert_eq!(
            removal_note(&removals, &[root]),
            Some(
                "sandbox: protected paths are read-only; removed what the command created: \
                 sub/.git, .envrc (could not be removed: busy)"
                    .to_owned()
            )
        );
    }
}
