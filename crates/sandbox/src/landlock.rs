//! The fallback where bubblewrap cannot run: every capability dropped
//! ([`crate::capabilities`]), Landlock (file system) and the seccomp filter
//! of [`crate::seccomp`], built in the parent and applied by the child
//! between `fork` and `exec`, so only the command is confined.
//!
//! Landlock only grants, so a masked path is carved out by granting reads on
//! its siblings instead of on its parent, level by level down from `/`.
//! Writes are granted on whole writable roots: protected paths inside them
//! stay guarded by the permission layer only, and a new file created next to
//! a masked one is writable but not readable. Both limits are documented in
//! the README. It must never report success when the kernel enforced nothing:
//! an unenforced ruleset fails the spawn.

use crate::seccomp::{command_filter, Sockets};
use crate::SandboxError;
use landlock::{
    Access, AccessFs, PathBeneath, PathFd, Ruleset, RulesetAttr, RulesetCreated,
    RulesetCreatedAttr, RulesetStatus, ABI,
};
use seccompiler::BpfProgram;
use std::io;
use std::path::{Path, PathBuf};

/// The newest Landlock ABI the rules ask for; older kernels enforce what they know.
const WANTED_ABI: ABI = ABI::V3;

/// Environment switch that makes Landlock count as unavailable (for testing
/// the refusal on a kernel that has it).
pub const DISABLE_LANDLOCK_ENV: &str = "AGENTHUB_SANDBOX_DISABLE_LANDLOCK";

/// Whether this kernel offers Landlock (and the switch above is not set),
/// or why not, as the refusal to run shows it.
pub fn available() -> Result<(), String> {
    if std::env::var_os(DISABLE_LANDLOCK_ENV).is_some_and(|value| value != "0") {
        return Err(format!("turned off by {DISABLE_LANDLOCK_ENV}"));
    }
    // SAFETY: LANDLOCK_CREATE_RULESET_VERSION with a null attribute only
    // returns the ABI version (or -1); nothing is created.
    let version = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            1u32,
        )
    };
    if version >= 1 {
        return Ok(());
    }
    Err(
        "not available in this kernel (it needs Linux 5.13 or later with `landlock` \
         in the `lsm=` boot parameter)"
            .to_owned(),
    )
}

/// What the child applies to itself before `exec`.
pub struct ChildRestriction {
    ruleset: Option<RulesetCreated>,
    filter: BpfProgram,
    last_capability: u32,
}

impl ChildRestriction {
    /// Builds the rules: reads everywhere but `masked`, writes in `writable`
    /// (plus `/dev` for `/dev/null` and terminals), sockets refused unless
    /// `network`.
    pub fn build(
        masked: &[PathBuf],
        writable: &[PathBuf],
        network: bool,
    ) -> Result<ChildRestriction, SandboxError> {
        let read = AccessFs::from_read(WANTED_ABI);
        let all = AccessFs::from_all(WANTED_ABI);
        let mut ruleset = Ruleset::default()
            .handle_access(all)
            .and_then(|ruleset| ruleset.create())
            .map_err(|error| SandboxError::Landlock(error.to_string()))?;
        for path in readable_beneath(Path::new("/"), masked) {
            ruleset = add(ruleset, &path, read)?;
        }
        let dev = PathBuf::from("/dev");
        for path in writable.iter().chain(std::iter::once(&dev)) {
            if path.exists() {
                ruleset = add(ruleset, path, all & !read)?;
            }
        }
        let sockets = if network {
            Sockets::Allowed
        } else {
            Sockets::Refused
        };
        Ok(ChildRestriction {
            ruleset: Some(ruleset),
            filter: command_filter(sockets)?,
            last_capability: crate::capabilities::last_capability(),
        })
    }

    /// Confines the calling process. Meant for the child between `fork` and
    /// `exec` (it allocates nothing); an unenforced ruleset is an error.
    pub fn apply(&mut self) -> io::Result<()> {
        crate::capabilities::drop_all(self.last_capability)?;
        let ruleset = self
            .ruleset
            .take()
            .ok_or_else(|| io::Error::other("the Landlock rules were already applied"))?;
        let status = ruleset.restrict_self().map_err(io::Error::other)?;
        if status.ruleset == RulesetStatus::NotEnforced {
            return Err(io::Error::other("the kernel enforced no Landlock rule"));
        }
        seccompiler::apply_filter(&self.filter).map_err(io::Error::other)?;
        Ok(())
    }
}

fn add(
    ruleset: RulesetCreated,
    path: &Path,
    access: landlock::BitFlags<AccessFs>,
) -> Result<RulesetCreated, SandboxError> {
    let access = if path.is_dir() {
        access
    } else {
        access & AccessFs::from_file(WANTED_ABI)
    };
    // A path that vanished since it was listed is left out: that grants less.
    let Ok(fd) = PathFd::new(path) else {
        return Ok(ruleset);
    };
    ruleset
        .add_rule(PathBeneath::new(fd, access))
        .map_err(|error| SandboxError::Landlock(error.to_string()))
}

/// `root`, or — when a masked path lies beneath it — its children, each
/// split the same way, leaving the masked paths themselves out.
pub fn readable_beneath(root: &Path, masked: &[PathBuf]) -> Vec<PathBuf> {
    if masked.iter().any(|path| path == root) {
        return Vec::new();
    }
    if !masked.iter().any(|path| path.starts_with(root)) {
        return vec![root.to_path_buf()];
    }
    let Ok(entries) = std::fs::read_dir(root) else {
        return Vec::new();
    };
    let mut readable = Vec::new();
    for entry in entries.flatten() {
        readable.extend(readable_beneath(&entry.path(), masked));
    }
    readable.sort();
    readable
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_masked_reads_the_whole_root() {
        assert_eq!(
            readable_beneath(Path::new("/"), &[]),
            vec![PathBuf::from("/")]
        );
    }

    #[test]
    fn a_masked_file_leaves_its_siblings_readable_and_itself_out() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir(root.join("src")).unwrap();
        std::fs::write(root.join(".env"), "SECRET=1").unwrap();
        std::fs::write(root.join("a.txt"), "a").unwrap();
        assert_eq!(
            readable_beneath(&root, &[root.join(".env")]),
            vec![root.join("a.txt"), root.join("src")]
        );
    }
}
