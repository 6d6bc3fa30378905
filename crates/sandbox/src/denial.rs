//! Says so when a command failed because the sandbox stopped it, so the model
//! can tell a sandbox denial from a bug and ask to run the command unsandboxed
//! (`dangerouslyDisableSandbox: true`, which always asks the user). It only
//! reads what the command printed; it never changes the result.

use crate::runner::Mechanism;
use crate::{SandboxMode, SandboxPolicy};

/// What the model can do about a denial.
const ADVICE: &str = "if the command needs it, ask to run it unsandboxed \
                      (Bash with dangerouslyDisableSandbox: true; the user is asked)";

/// A line for a failed command's result when its stderr shows the sandbox
/// refused something; `None` when nothing points at the sandbox.
pub fn denial_note(policy: &SandboxPolicy, mechanism: &Mechanism, stderr: &str) -> Option<String> {
    let what = if stderr.contains("Read-only file system")
        || (*mechanism == Mechanism::Landlock && stderr.contains("Permission denied"))
    {
        match policy.mode {
            SandboxMode::ReadOnly => "write denied (sandbox mode read-only)".to_owned(),
            _ => "write outside the workspace (or to a protected path) denied".to_owned(),
        }
    } else if !policy.network
        && [
            "Network is unreachable",
            "Operation not permitted",
            "Connection refused",
            "Temporary failure in name resolution",
        ]
        .iter()
        .any(|sign| stderr.contains(sign))
    {
        "network access denied (sandbox.network is off)".to_owned()
    } else {
        return None;
    };
    if *mechanism == Mechanism::Unconfined {
        return None;
    }
    Some(format!("sandbox: {what}; {ADVICE}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

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
                "sandbox: network access denied (sandbox.network is off); {ADVICE}"
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
}
