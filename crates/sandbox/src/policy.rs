//! What a sandboxed command may touch (contract §15), as a plain value: the mode,
//! the network switch, and the paths the mode opens, masks or keeps
//! read-only. It says nothing about how the confinement is made (see
//! [`crate::runner`]) and never reads settings: its user fills it in.

use crate::names::ProtectedNames;
use crate::proxy::NetworkProxy;
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use thiserror::Error;

/// How much of the file system a command may write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SandboxMode {
    /// Writable: the workspace, additional directories and a private temp dir.
    #[default]
    WorkspaceWrite,
    /// Nothing writable but the call's private temp dir.
    ReadOnly,
    /// No sandbox at all.
    Off,
}

impl SandboxMode {
    /// Every mode, strictest first.
    pub const ALL: [SandboxMode; 3] = [
        SandboxMode::ReadOnly,
        SandboxMode::WorkspaceWrite,
        SandboxMode::Off,
    ];

    /// The name settings and `--sandbox` use.
    pub fn as_str(self) -> &'static str {
        match self {
            SandboxMode::WorkspaceWrite => "workspace-write",
            SandboxMode::ReadOnly => "read-only",
            SandboxMode::Off => "off",
        }
    }

    /// 0 for the strictest mode; a higher number lets a command do more.
    pub fn looseness(self) -> u8 {
        match self {
            SandboxMode::ReadOnly => 0,
            SandboxMode::WorkspaceWrite => 1,
            SandboxMode::Off => 2,
        }
    }

    /// Whether `self` lets a command do less than `other`.
    pub fn is_stricter_than(self, other: SandboxMode) -> bool {
        self.looseness() < other.looseness()
    }
}

impl fmt::Display for SandboxMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A mode name that is none of the three.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown sandbox mode {0:?}; the modes are workspace-write, read-only and off")]
pub struct UnknownMode(pub String);

impl FromStr for SandboxMode {
    type Err = UnknownMode;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        SandboxMode::ALL
            .into_iter()
            .find(|mode| mode.as_str() == text)
            .ok_or_else(|| UnknownMode(text.to_owned()))
    }
}

/// Everything the sandbox of one command is made from. Paths should be
/// absolute; ones that do not exist are skipped when the sandbox is built.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SandboxPolicy {
    /// How much may be written.
    pub mode: SandboxMode,
    /// Whether the command may open network sockets (`sandbox.network`).
    pub network: bool,
    /// With `network` off, the proxy that is the command's only way out
    /// (`sandbox.network` an object, contract §32): the command keeps its
    /// own network namespace, and finds the proxy on its loopback through
    /// `HTTP_PROXY`, `HTTPS_PROXY` and `ALL_PROXY`. Ignored with `network` on.
    pub proxy: Option<NetworkProxy>,
    /// Writable in `workspace-write` mode: the workspace root first, then the
    /// additional directories.
    pub writable_roots: Vec<PathBuf>,
    /// Readable nowhere in the sandbox: what Read deny rules name.
    pub masked: Vec<PathBuf>,
    /// Read-only even inside a writable root: the protected paths (contract §11).
    pub protected: Vec<PathBuf>,
    /// Names (`.git`, `.envrc`…) protected at any depth below the writable
    /// roots, matched case-insensitively: read-only, and one the command
    /// creates is removed when it ends.
    pub protected_names: ProtectedNames,
    /// Secret-shaped variables the command still inherits (`sandbox.passEnv`).
    pub pass_env: Vec<String>,
}

impl SandboxPolicy {
    /// The default policy for `root`: `workspace-write`, network off, nothing
    /// masked or protected beyond what the caller adds.
    pub fn workspace_write(roots: impl IntoIterator<Item = PathBuf>) -> Self {
        SandboxPolicy {
            writable_roots: roots.into_iter().collect(),
            ..SandboxPolicy::default()
        }
    }

    /// The proxy commands reach the network through, when the network is
    /// off and a proxy is given.
    pub fn proxied(&self) -> Option<&NetworkProxy> {
        self.proxy.as_ref().filter(|_| !self.network)
    }

    /// The roots a command may write in this policy's mode (none when read-only).
    pub fn writable(&self) -> &[PathBuf] {
        match self.mode {
            SandboxMode::WorkspaceWrite => &self.writable_roots,
            SandboxMode::ReadOnly | SandboxMode::Off => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mode_reads_back_from_its_name() {
        for mode in SandboxMode::ALL {
            assert_eq!(mode.as_str().parse::<SandboxMode>(), Ok(mode));
        }
    }

    #[test]
    fn an_unknown_mode_name_is_an_error_listing_the_modes() {
        assert_eq!(
            "danger".parse::<SandboxMode>().unwrap_err().to_string(),
            "unknown sandbox mode \"danger\"; the modes are workspace-write, read-only and off"
        );
    }

    #[test]
    fn read_only_is_stricter_than_workspace_write_which_is_stricter_than_off() {
        assert!(SandboxMode::ReadOnly.is_stricter_than(SandboxMode::WorkspaceWrite));
        assert!(SandboxMode::WorkspaceWrite.is_stricter_than(SandboxMode::Off));
        assert!(!SandboxMode::Off.is_stricter_than(SandboxMode::WorkspaceWrite));
    }

    #[test]
    fn a_read_only_policy_has_no_writable_root() {
        let policy = SandboxPolicy {
            mode: SandboxMode::ReadOnly,
            ..SandboxPolicy::workspace_write([PathBuf::from("/w")])
        };
        assert_eq!(policy.writable(), &[] as &[PathBuf]);
    }
}
