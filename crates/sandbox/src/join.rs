//! Puts a command into a running sandbox ([`crate::keeper`]) between `fork`
//! and `exec`: it joins the sandbox's user, mount, network and PID
//! namespaces and forks (a PID namespace takes only children); that child
//! makes a PID namespace of the command's own and forks its init, which forks
//! the command: it drops every capability, sets no_new_privs and installs
//! the seccomp filter before `exec`. When the command ends its init exits,
//! and the kernel kills whatever the command left behind — even a process
//! that left the process group — as it does when a bubblewrap of one's own
//! ends. Each of the others only waits and exits with the command's status
//! (128 + N for signal N, as bubblewrap does).
//!
//! Everything here runs in a forked child of a multi-threaded process: only
//! system calls on values prepared before the fork, no allocation. It must
//! never let the command run with a capability or without the filter.

use seccompiler::BpfProgram;
use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// The namespaces of a running sandbox, opened from `/proc/PID/ns`, and its
/// root folder (`/proc/PID/root`: the mount namespace's own root is
/// bubblewrap's scaffolding, the sandbox is chrooted below it).
pub struct Namespaces {
    user: OwnedFd,
    /// The user namespace owning the mount namespace, when it is neither
    /// this process's nor `user`: an unprivileged bubblewrap makes the mount
    /// namespace in one user namespace and runs the sandbox in a second one
    /// nested in it, and only the first grants the capability to join the
    /// mount namespace.
    mount_owner: Option<OwnedFd>,
    /// Whether the mount namespace's owner is this process's own user
    /// namespace (a privileged bubblewrap's): it is then joined first, with
    /// this process's capabilities, and the sandbox's user namespace last.
    mount_owner_is_own: bool,
    mount: OwnedFd,
    network: Option<OwnedFd>,
    pid: OwnedFd,
    root: OwnedFd,
}

impl Namespaces {
    /// Opens the namespaces of `pid`; the network one only when the sandbox
    /// has its own (`network` off).
    pub fn open(pid: u32, network: bool) -> io::Result<Namespaces> {
        let open = |name: &str| -> io::Result<OwnedFd> {
            Ok(OwnedFd::from(std::fs::File::open(format!(
                "/proc/{pid}/ns/{name}"
            ))?))
        };
        let user = open("user")?;
        let mount = open("mnt")?;
        let owner = owning_user_namespace(&mount)?;
        let own = OwnedFd::from(std::fs::File::open("/proc/self/ns/user")?);
        let mount_owner_is_own = same_namespace(&owner, &own)?;
        let mount_owner = match mount_owner_is_own || same_namespace(&owner, &user)? {
            true => None,
            false => Some(owner),
        };
        Ok(Namespaces {
            user,
            mount_owner,
            mount_owner_is_own,
            mount,
            network: if network { None } else { Some(open("net")?) },
            pid: open("pid")?,
            root: sandbox_root(pid)?,
        })
    }
}

impl Namespaces {
    /// The sandbox's own network namespace, when it has one.
    pub fn network(&self) -> Option<&OwnedFd> {
        self.network.as_ref()
    }
}

/// `/proc/PID/root`, refused when it is the host's own root mount (the
/// sandbox was not built yet, or is not one): joining it would confine
/// nothing. Mount ids tell them apart; the sandbox's root is a bind of the
/// same folder, with the same inode.
fn sandbox_root(pid: u32) -> io::Result<OwnedFd> {
    let root = OwnedFd::from(std::fs::File::open(format!("/proc/{pid}/root"))?);
    let host = OwnedFd::from(std::fs::File::open("/")?);
    if mount_id(&root)? == mount_id(&host)? {
        return Err(io::Error::other(
            "the sandbox's root is the host's root mount: it is not built",
        ));
    }
    Ok(root)
}

/// `ioctl(NS_GET_USERNS)`: the user namespace owning a namespace.
const NS_GET_USERNS: u64 = 0xb701;

/// The user namespace that owns the namespace `fd` refers to.
fn owning_user_namespace(fd: &OwnedFd) -> io::Result<OwnedFd> {
    // SAFETY: NS_GET_USERNS takes no argument and returns a new descriptor.
    let owner = unsafe { libc::ioctl(fd.as_raw_fd(), NS_GET_USERNS as _) };
    if owner < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the descriptor was just returned to this process, owned by no one else.
    Ok(unsafe { <OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(owner) })
}

/// Whether two namespace descriptors name the same namespace.
fn same_namespace(one: &OwnedFd, other: &OwnedFd) -> io::Result<bool> {
    use std::os::unix::fs::MetadataExt;
    let stat = |fd: &OwnedFd| -> io::Result<(u64, u64)> {
        let file = std::fs::File::from(fd.try_clone()?);
        let meta = file.metadata()?;
        Ok((meta.dev(), meta.ino()))
    };
    Ok(stat(one)? == stat(other)?)
}

fn mount_id(fd: &OwnedFd) -> io::Result<u64> {
    // SAFETY: `statx` is plain data; all zeroes is a valid value of it.
    let mut stat: libc::statx = unsafe { std::mem::zeroed() };
    // SAFETY: statx writes into a struct we own; the path is empty and
    // AT_EMPTY_PATH makes it describe `fd` itself.
    let result = unsafe {
        libc::statx(
            fd.as_raw_fd(),
            c"".as_ptr(),
            libc::AT_EMPTY_PATH,
            libc::STATX_MNT_ID,
            &mut stat,
        )
    };
    if result != 0 {
        return Err(io::Error::last_os_error());
    }
    if stat.stx_mask & libc::STATX_MNT_ID == 0 {
        return Err(io::Error::other("this kernel reports no mount ids (statx)"));
    }
    Ok(stat.stx_mnt_id)
}

/// What the child needs to enter the sandbox, prepared before the fork.
pub struct Entry {
    /// Joined in order; a descriptor of -1 is skipped.
    namespaces: [(RawFd, libc::c_int); 5],
    root: RawFd,
    cwd: CString,
    filter: BpfProgram,
    last_capability: u32,
}

impl Entry {
    /// The entry into `namespaces` (which must outlive the spawn), running in `cwd`.
    pub fn new(namespaces: &Namespaces, cwd: &Path, filter: BpfProgram) -> io::Result<Entry> {
        let network = namespaces
            .network
            .as_ref()
            .map_or(-1, |network| network.as_raw_fd());
        let user = namespaces.user.as_raw_fd();
        // The mount namespace's owner first (its capabilities let the
        // mount namespace be joined), the sandbox's own user namespace last
        // when that is another one.
        let (first_user, last_user) = match (&namespaces.mount_owner, namespaces.mount_owner_is_own)
        {
            (Some(owner), _) => (owner.as_raw_fd(), user),
            (None, true) => (-1, user),
            (None, false) => (user, -1),
        };
        Ok(Entry {
            namespaces: [
                (first_user, libc::CLONE_NEWUSER),
                (namespaces.mount.as_raw_fd(), libc::CLONE_NEWNS),
                (network, libc::CLONE_NEWNET),
                (namespaces.pid.as_raw_fd(), libc::CLONE_NEWPID),
                (last_user, libc::CLONE_NEWUSER),
            ],
            root: namespaces.root.as_raw_fd(),
            cwd: CString::new(cwd.as_os_str().as_bytes()).map_err(io::Error::other)?,
            filter,
            last_capability: crate::capabilities::last_capability(),
        })
    }

    /// Joins, forks, confines; returns only in the inner child.
    pub fn enter(&self) -> io::Result<()> {
        for (fd, kind) in self.namespaces {
            // SAFETY: setns on a namespace descriptor opened before the fork.
            if fd >= 0 && unsafe { libc::setns(fd, kind) } != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        // SAFETY: fchdir, chroot and chdir on a descriptor and NUL-terminated
        // paths prepared before the fork.
        let entered = unsafe {
            libc::fchdir(self.root) == 0
                && libc::chroot(c".".as_ptr()) == 0
                && libc::chdir(self.cwd.as_ptr()) == 0
        };
        if !entered {
            return Err(io::Error::last_os_error());
        }
        fork_then(|| {
            // SAFETY: unshare with a flag only; active and child PID
            // namespaces are both the sandbox's here, as it requires.
            if unsafe { libc::unshare(libc::CLONE_NEWPID) } != 0 {
                return Err(io::Error::last_os_error());
            }
            fork_then(|| fork_then(|| self.confine()))
        })
    }
    fn confine(&self) -> io::Result<()> {
        crate::capabilities::drop_all(self.last_capability)?;
        // SAFETY: prctl with integer arguments only.
        if unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) } != 0 {
            return Err(io::Error::last_os_error());
        }
        seccompiler::apply_filter(&self.filter).map_err(io::Error::other)
    }
}

/// Forks: the child goes on with `child` (and returns what it returns), the
/// parent relays the child's status and never returns.
fn fork_then(child: impl FnOnce() -> io::Result<()>) -> io::Result<()> {
    // SAFETY: fork in a single-threaded child; both sides only make system calls.
    match unsafe { libc::fork() } {
        -1 => Err(io::Error::last_os_error()),
        0 => child(),
        inner => relay(inner),
    }
}

/// A waiting parent: closes every descriptor (so the caller's pipes end with
/// the command), reaps children (as a namespace's init must) until `inner`
/// ended, and exits with its status.
fn relay(inner: libc::pid_t) -> ! {
    // SAFETY: close_range, waitpid and _exit are plain system calls.
    unsafe {
        libc::syscall(libc::SYS_close_range, 0u32, u32::MAX, 0u32);
        let status = loop {
            let mut reaped = 0;
            let waited = libc::waitpid(-1, &mut reaped, 0);
            if waited == inner {
                break reaped;
            }
            if waited == -1 && *libc::__errno_location() != libc::EINTR {
                libc::_exit(127);
            }
        };
        if libc::WIFEXITED(status) {
            libc::_exit(libc::WEXITSTATUS(status));
        }
        libc::_exit(128 + libc::WTERMSIG(status));
    }
}

/// Clears close-on-exec on `fds`, in a child before `exec`.
pub fn inherit_fds(fds: &[RawFd]) -> io::Result<()> {
    for &fd in fds {
        // SAFETY: fcntl on descriptors the caller keeps open across the spawn.
        if unsafe { libc::fcntl(fd, libc::F_SETFD, 0) } != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}
