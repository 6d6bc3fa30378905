//! The bubblewrap command line for a policy: the whole file system bound
//! read-only, the writable roots and the private temp dir bound writable,
//! each judged folder found (`.git`, `.claude`…) bound onto itself so it
//! cannot be renamed or removed, protected paths — and every protected
//! entry found at any depth — bound read-only again, masked paths hidden (an empty read-only tmpfs for a
//! folder, `/dev/null` for a file), and, with the network off, a network
//! namespace of its own (only loopback, nothing listening). The command gets
//! its own user namespace with every capability dropped (so root inside can
//! neither remount, mount, unmount nor reach the host's `/proc`), its own PID
//! namespace and session, the seccomp filter of [`crate::seccomp`], and dies
//! with bwrap, so killing bwrap's process group kills everything it started.
//!
//! It must never bind a path writable that the policy does not name, nor
//! leave the command a capability.

use crate::protected::Found;
use crate::SandboxPolicy;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Where the sandbox of one command stands, besides its policy.
pub struct Layout<'a> {
    /// The command's working directory.
    pub cwd: &'a Path,
    /// The private temp dir (the command's `TMPDIR`).
    pub tmp: &'a Path,
    /// Protected entries found below the writable roots.
    pub protected_found: &'a Found,
    /// The descriptor bubblewrap reads the seccomp filter from.
    pub seccomp_fd: i32,
}

/// The flags that isolate the command from the host's processes and
/// privileges: a user namespace without capabilities, a PID namespace.
pub const ISOLATION: [&str; 6] = [
    "--new-session",
    "--die-with-parent",
    "--unshare-user",
    "--unshare-pid",
    "--cap-drop",
    "ALL",
];

/// The arguments for `bwrap`, up to and including the `--` before the program.
pub fn arguments(policy: &SandboxPolicy, layout: &Layout<'_>) -> Vec<OsString> {
    let mut args = Args::default();
    args.flags(&ISOLATION);
    if !policy.network {
        args.flags(&["--unshare-net"]);
    }
    args.pair("--ro-bind", Path::new("/"));
    args.flags(&["--dev", "/dev", "--proc", "/proc"]);
    for root in existing(policy.writable()) {
        args.pair("--bind", &root);
    }
    args.pair("--bind", layout.tmp);
    for pinned in existing(&layout.protected_found.pinned) {
        args.pair("--bind", &pinned);
    }
    let protected: Vec<PathBuf> = policy
        .protected
        .iter()
        .chain(&layout.protected_found.read_only)
        .cloned()
        .collect();
    for protected in existing(&protected) {
        args.pair("--ro-bind", &protected);
    }
    for masked in existing(&policy.masked) {
        if masked.is_dir() {
            args.path("--tmpfs", &masked);
            args.path("--remount-ro", &masked);
        } else {
            args.flags(&["--ro-bind", "/dev/null"]);
            args.path_only(&masked);
        }
    }
    args.path("--chdir", layout.cwd);
    args.flags(&["--setenv", "TMPDIR"]);
    args.path_only(layout.tmp);
    args.flags(&["--seccomp", &layout.seccomp_fd.to_string()]);
    args.flags(&["--"]);
    args.0
}

/// The given paths that exist, each also under its real name when that
/// differs (a symlink's target is what a bind must cover).
fn existing(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for path in paths {
        let Ok(real) = path.canonicalize() else {
            continue;
        };
        if path.symlink_metadata().is_ok_and(|meta| !meta.is_symlink()) && !found.contains(path) {
            found.push(path.clone());
        }
        if !found.contains(&real) {
            found.push(real);
        }
    }
    found
}

#[derive(Default)]
struct Args(Vec<OsString>);

impl Args {
    fn flags(&mut self, flags: &[&str]) {
        self.0.extend(flags.iter().map(OsString::from));
    }

    /// `flag path path`: a bind of a path onto itself.
    fn pair(&mut self, flag: &str, path: &Path) {
        self.flags(&[flag]);
        self.path_only(path);
        self.path_only(path);
    }

    fn path(&mut self, flag: &str, path: &Path) {
        self.flags(&[flag]);
        self.path_only(path);
    }

    fn path_only(&mut self, path: &Path) {
        self.0.push(path.as_os_str().to_owned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SandboxMode;

    const NOTHING_FOUND: &Found = &Found {
        pinned: Vec::new(),
        read_only: Vec::new(),
        identities: Vec::new(),
    };

    fn layout<'a>(cwd: &'a Path, tmp: &'a Path) -> Layout<'a> {
        Layout {
            cwd,
            tmp,
            protected_found: NOTHING_FOUND,
            seccomp_fd: 3,
        }
    }

    fn text(args: &[OsString]) -> String {
        args.iter()
            .map(|arg| arg.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn workspace_write_binds_the_root_writable_pins_judged_folders_and_protects_and_masks_beneath_it(
    ) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir(root.join(".git")).unwrap();
        std::fs::write(root.join(".env"), "SECRET=1").unwrap();
        let policy = SandboxPolicy {
            writable_roots: vec![root.clone()],
            protected: vec![root.join(".git"), root.join(".agenthub")],
            masked: vec![root.join(".env")],
            ..SandboxPolicy::default()
        };
        std::fs::create_dir_all(root.join("sub/.git/hooks")).unwrap();
        let found = Found {
            pinned: vec![root.join("sub/.git")],
            read_only: vec![root.join("sub/.git/hooks")],
            identities: Vec::new(),
        };
        let r = root.display();
        assert_eq!(
            text(&arguments(
                &policy,
                &Layout {
                    cwd: &root,
                    tmp: Path::new("/tmp/t1"),
                    protected_found: &found,
                    seccomp_fd: 7,
                }
            )),
            format!(
                "--new-session --die-with-parent --unshare-user --unshare-pid --cap-drop ALL \
                 --unshare-net --ro-bind / / \
                 --dev /dev --proc /proc --bind {r} {r} --bind /tmp/t1 /tmp/t1 \
                 --bind {r}/sub/.git {r}/sub/.git \
                 --ro-bind {r}/.git {r}/.git --ro-bind {r}/sub/.git/hooks {r}/sub/.git/hooks \
                 --ro-bind /dev/null {r}/.env --chdir {r} \
                 --setenv TMPDIR /tmp/t1 --seccomp 7 --"
            )
        );
    }

    #[test]
    fn read_only_with_the_network_on_binds_only_the_temp_dir_and_shares_the_network() {
        let policy = SandboxPolicy {
            mode: SandboxMode::ReadOnly,
            network: true,
            writable_roots: vec![PathBuf::from("/")],
            ..SandboxPolicy::default()
        };
        assert_eq!(
            text(&arguments(
                &policy,
                &layout(Path::new("/"), Path::new("/tmp/t2"))
            )),
            "--new-session --die-with-parent --unshare-user --unshare-pid --cap-drop ALL \
             --ro-bind / / --dev /dev --proc /proc --bind /tmp/t2 /tmp/t2 --chdir / \
             --setenv TMPDIR /tmp/t2 --seccomp 3 --"
        );
    }

    #[test]
    fn a_masked_folder_becomes_an_empty_read_only_tmpfs() {
        let dir = tempfile::tempdir().unwrap();
        let secrets = dir.path().canonicalize().unwrap().join("secrets");
        std::fs::create_dir(&secrets).unwrap();
        let policy = SandboxPolicy {
            masked: vec![secrets.clone()],
            ..SandboxPolicy::default()
        };
        let s = secrets.display();
        assert!(text(&arguments(
            &policy,
            &layout(Path::new("/"), Path::new("/t"))
        ))
        .contains(&format!("--tmpfs {s} --remount-ro {s}")));
    }
}
