//! Whether the workspace's own configuration may act (contract §11), decided once,
//! here, for every front end: the stored trust for exactly these files, or
//! the caller's word that it trusts them for this run. Untrusted project
//! files still restrict (deny and ask rules); what they would grant, execute
//! or redirect is set aside and listed in one warning.
//!
//! An interactive front end that asks the user at start records the answer
//! with [`Configuration::trust_project`](crate::Configuration::trust_project)
//! and loads the configuration again.

use agenthub_settings::{
    ProjectFingerprint, ProjectTrust, SetAside, TrustCheck, TrustError, TrustStore,
};
use std::fmt::Write;
use std::path::Path;

/// How the workspace's configuration is to be trusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TrustChoice {
    /// As the trust store says for exactly these files (the default).
    #[default]
    Stored,
    /// Trusted for this run only, whatever the store says (`--trust-project`).
    ThisRun,
    /// Untrusted for this run, whatever the store says: a batch task's
    /// workspace, trusted only through the task's own settings or the
    /// runner's `--trust-project` (contract §18).
    NotThisRun,
}

/// Where the workspace's trust came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TrustStatus {
    /// The workspace carries no configuration file and no memory file.
    NothingToTrust,
    /// The user trusted exactly these files.
    Trusted,
    /// Trusted for this run only.
    TrustedForThisRun,
    /// Not trusted: never, or the files changed since (`changed`), or the
    /// store could not be read (`problem`).
    Untrusted {
        /// True when the user trusted an earlier version of the files.
        changed: bool,
        /// Why the store could not answer, if it could not.
        problem: Option<String>,
    },
}

impl TrustStatus {
    /// What the settings loader should do with the project files.
    pub fn project_trust(&self) -> ProjectTrust {
        match self {
            TrustStatus::Untrusted { .. } => ProjectTrust::Untrusted,
            _ => ProjectTrust::Trusted,
        }
    }
}

/// The trust of `fingerprint`'s workspace under `choice`. A workspace whose
/// only own files are memory files (`has_memory`), which are never pinned,
/// is still one to trust: its `CLAUDE.md` is read only once the folder is.
pub(crate) fn decide(
    choice: TrustChoice,
    fingerprint: &ProjectFingerprint,
    has_memory: bool,
) -> TrustStatus {
    if fingerprint.is_empty() && !has_memory {
        return TrustStatus::NothingToTrust;
    }
    match choice {
        TrustChoice::ThisRun => return TrustStatus::TrustedForThisRun,
        TrustChoice::NotThisRun => {
            return TrustStatus::Untrusted {
                changed: false,
                problem: None,
            }
        }
        TrustChoice::Stored => {}
    }
    match TrustStore::standard().and_then(|store| store.check(fingerprint)) {
        Ok(TrustCheck::Trusted) => TrustStatus::Trusted,
        Ok(check) => TrustStatus::Untrusted {
            changed: check == TrustCheck::Changed,
            problem: None,
        },
        Err(error) => TrustStatus::Untrusted {
            changed: false,
            problem: Some(error.to_string()),
        },
    }
}

/// Records the current files of `workspace` as trusted.
pub(crate) fn record(fingerprint: &ProjectFingerprint) -> Result<(), TrustError> {
    TrustStore::standard()?.trust(fingerprint)
}

/// The one warning about an untrusted workspace, if anything was set aside.
pub(crate) fn warning(
    workspace: &Path,
    status: &TrustStatus,
    set_aside: &[SetAside],
) -> Option<String> {
    let TrustStatus::Untrusted { changed, problem } = status else {
        return None;
    };
    if set_aside.is_empty() {
        return None;
    }
    let why = match (changed, problem) {
        (_, Some(problem)) => format!("is not trusted ({problem})"),
        (true, None) => "changed since you trusted it".to_owned(),
        (false, None) => "is not trusted".to_owned(),
    };
    let mut text = format!(
        "the configuration in {} {why}; set aside until you trust it:",
        workspace.display()
    );
    for entry in set_aside {
        let file = entry.file.strip_prefix(workspace).unwrap_or(&entry.file);
        let _ = write!(text, "\n  - {} ({})", entry.item, file.display());
    }
    let _ = write!(
        text,
        "\n  Its deny and ask rules apply already. Review and trust it with `agenthub trust --workspace {}`, or pass --trust-project for this run.",
        workspace.display()
    );
    Some(text)
}

/// Records `fingerprint` (usually a [`crate::ProjectReview`]'s) as trusted;
/// returns where the store is.
pub fn trust_workspace(fingerprint: &ProjectFingerprint) -> Result<std::path::PathBuf, TrustError> {
    let store = TrustStore::standard()?;
    store.trust(fingerprint)?;
    Ok(store.path().to_path_buf())
}

/// Forgets the trust in `workspace`; true when it had been trusted.
pub fn revoke_trust(workspace: &Path) -> Result<bool, TrustError> {
    TrustStore::standard()?.revoke(workspace)
}

/// What the trust store says of `fingerprint`'s workspace, as a run would
/// see it when the workspace has anything to trust.
pub fn stored_trust(fingerprint: &ProjectFingerprint) -> TrustStatus {
    decide(TrustChoice::Stored, fingerprint, true)
}
