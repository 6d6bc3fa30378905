//! Says so when a command failed because the sandbox stopped it, so the model
//! can tell a sandbox denial from a bug and ask to run the command unsandboxed
//! (`dangerouslyDisableSandbox: true`, which always asks the user); names
//! the protected paths whose write the sandbox refused (contract §29: never
//! a silent refusal), and the protected names it removed because the
//! command created them. It only reads what the command printed and what
//! was removed; it never changes the result.

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
        network_denial(policy, mechanism).to_owned()
    } else {
        return None;
    };
    if *mechanism == Mechanism::Unconfined {
        return None;
    }
    Some(format!("sandbox: {what}; {ADVICE}"))
}

/// Why a connection failed, as far as the sandbox is concerned.
fn network_denial(policy: &SandboxPolicy, mechanism: &Mechanism) -> &'static str {
    match (policy.proxied(), mechanism) {
        (None, _) => "network access denied, Unix sockets included (sandbox.network is off)",
        (Some(_), Mechanism::Bubblewrap(_)) => {
            "direct network access denied: sandbox.network lists domains, reached only through \
             the proxy in HTTP_PROXY / HTTPS_PROXY / ALL_PROXY"
        }
        (Some(_), _) => {
            "network access denied: sandbox.network lists domains, and domain lists need \
             bubblewrap (without it commands get no network at all)"
        }
    }
}

/// What a command prints when a write met a read-only bind (`EROFS`), or
/// a rename or removal met a mount point (`EBUSY`: `git config` replacing
/// `.git/config`, `mv .git x`).
const REFUSED_SIGNS: [&str; 2] = ["read-only file system", "device or resource busy"];

/// A line naming the protected paths (of `protected`, relative to the root
/// holding them) that a line of the command's `output` names beside a sign
/// of a refused write — the innermost one, not the folders holding it;
/// `None` when none is named, or nothing was confined.
pub fn protected_note(
    mechanism: &Mechanism,
    protected: &[PathBuf],
    roots: &[PathBuf],
    output: &str,
) -> Option<String> {
    if *mechanism == Mechanism::Unconfined {
        return None;
    }
    let lines: Vec<&str> = output
        .lines()
        .filter(|line| {
            let line = line.to_lowercase();
            REFUSED_SIGNS.iter().any(|sign| line.contains(sign))
        })
        .collect();
    let mut named: Vec<String> = Vec::new();
    for path in protected {
        let shown = relative(path, roots);
        let named_here = mentions(&shown, path)
            .iter()
            .any(|mention| lines.iter().any(|line| names(line, mention)));
        if named_here && !named.contains(&shown) {
            named.push(shown);
        }
    }
    let inner = named.clone();
    named.retain(|shown| {
        !inner
            .iter()
            .any(|other| other.starts_with(&format!("{shown}/")))
    });
    if named.is_empty() {
        return None;
    }
    Some(format!(
        "sandbox: write to a protected path refused: {} (protected paths are read-only in \
         the sandbox); {ADVICE}",
        named.join(", ")
    ))
}

/// `path` relative to the root holding it, else whole.
fn relative(path: &std::path::Path, roots: &[PathBuf]) -> String {
    roots
        .iter()
        .find_map(|root| path.strip_prefix(root).ok())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// How output may name a protected path: whole, relative to its root, or
/// from one of its dot components on (`.git/config` for `sub/.git/config`,
/// as git run in `sub` prints it).
fn mentions(shown: &str, path: &std::path::Path) -> Vec<String> {
    let parts: Vec<&str> = shown.split('/').collect();
    let mut mentions = vec![path.display().to_string(), shown.to_owned()];
    for start in 1..parts.len() {
        if parts[start].starts_with('.') {
            mentions.push(parts[start..].join("/"));
        }
    }
    mentions
}

/// Whether `line` holds `mention` as a path of its own or the folder of one
/// (`.git/hooks` in `.git/hooks/pre-commit`, not in `.git/hooks2`).
fn names(line: &str, mention: &str) -> bool {
    let part_of_name = |character: char| character.is_alphanumeric() || "_.-".contains(character);
    line.match_indices(mention).any(|(at, _)| {
        let before = line[..at].chars().next_back();
        let after = line[at + mention.len()..].chars().next();
        !before.is_some_and(part_of_name) && !after.is_some_and(part_of_name)
    })
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
    fn with_domain_lists_a_refused_connection_names_the_proxy_or_the_missing_bubblewrap() {
        struct Nobody;
        impl crate::NetworkGate for Nobody {
            fn unlisted<'a>(&'a self, _: &'a crate::Destination) -> crate::GateFuture<'a> {
                Box::pin(async {
                    crate::GateAnswer::Refused {
                        reason: String::new(),
                    }
                })
            }
            fn decided(&self, _: &crate::NetworkDecision) -> Result<(), String> {
                Ok(())
            }
        }
        let policy = SandboxPolicy {
            proxy: Some(crate::NetworkProxy::new(
                crate::DomainLists::default(),
                std::sync::Arc::new(Nobody),
            )),
            ..SandboxPolicy::default()
        };
        let refused = "curl: (7) Failed to connect to 127.0.0.1 port 80: Connection refused";
        assert_eq!(
            [
                denial_note(
                    &policy,
                    &Mechanism::Bubblewrap("/usr/bin/bwrap".into()),
                    refused
                ),
                denial_note(&policy, &Mechanism::Landlock, refused),
            ],
            [
                Some(format!(
                    "sandbox: direct network access denied: sandbox.network lists domains, \
                     reached only through the proxy in HTTP_PROXY / HTTPS_PROXY / ALL_PROXY; \
                     {ADVICE}"
                )),
                Some(format!(
                    "sandbox: network access denied: sandbox.network lists domains, and domain \
                     lists need bubblewrap (without it commands get no network at all); {ADVICE}"
                )),
            ]
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
    fn a_refused_write_names_the_protected_paths_the_output_names() {
        let root = PathBuf::from("/w");
        let protected = [
            root.join(".git"),
            root.join(".git/config"),
            root.join(".git/hooks"),
            root.join("sub/.git/config"),
            root.join(".envrc"),
        ];
        let output = "error: could not write config file .git/config: Device or resource busy\n\
                      sh: cannot create /w/.git/hooks/pre-commit: Read-only file system\n\
                      .envrc is mentioned without a refusal\n";
        assert_eq!(
            protected_note(&Mechanism::Landlock, &protected, &[root], output),
            Some(format!(
                "sandbox: write to a protected path refused: .git/config, .git/hooks, \
                 sub/.git/config (protected paths are read-only in the sandbox); {ADVICE}"
            ))
        );
    }

    #[test]
    fn a_refusal_naming_no_protected_path_or_a_longer_name_says_nothing_of_them() {
        let root = PathBuf::from("/w");
        assert_eq!(
            protected_note(
                &Mechanism::Landlock,
                &[root.join(".git/hooks")],
                &[root],
                "touch: cannot touch '.git/hooks2': Read-only file system"
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
