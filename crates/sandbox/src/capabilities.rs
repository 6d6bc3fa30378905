//! Leaves the calling process, and whatever it executes, with no capability:
//! the Landlock fallback's answer to running as root (bubblewrap's is
//! `--unshare-user --cap-drop ALL`). Root keeps uid 0 but, with the bounding
//! set emptied and `SECBIT_NOROOT` locked, `execve` grants it nothing, so
//! `mount`, `umount`, `chown` to another user, raw sockets and `ptrace` of
//! other users' processes all fail.
//!
//! Meant for the child between `fork` and `exec`: it only makes system calls
//! and allocates nothing. It must never leave a capability in the effective,
//! permitted, inheritable or ambient set; it fails when it cannot empty them.

use std::io;

/// The highest capability number this kernel knows, read before any fork
/// (`/proc/sys/kernel/cap_last_cap`); 63 when it cannot be read, since
/// dropping an unknown capability is harmless (`EINVAL`, ignored).
pub fn last_capability() -> u32 {
    std::fs::read_to_string("/proc/sys/kernel/cap_last_cap")
        .ok()
        .and_then(|text| text.trim().parse().ok())
        .unwrap_or(63)
}

/// Drops every capability of the calling process for good.
pub fn drop_all(last_capability: u32) -> io::Result<()> {
    lock_out_root();
    for capability in 0..=last_capability {
        // SAFETY: prctl with integer arguments only. Without CAP_SETPCAP
        // (not root) it fails with EPERM: such a process holds no capability
        // to lose, and no_new_privs keeps it from gaining one through exec.
        if unsafe { libc::prctl(libc::PR_CAPBSET_DROP, capability, 0, 0, 0) } != 0
            && io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
        {
            break;
        }
    }
    // SAFETY: prctl with integer arguments only; clearing always succeeds
    // on kernels with ambient capabilities and is harmless (EINVAL) before.
    unsafe {
        libc::prctl(
            libc::PR_CAP_AMBIENT,
            libc::PR_CAP_AMBIENT_CLEAR_ALL,
            0,
            0,
            0,
        )
    };
    set_capabilities(&[CapData::default(); 2])?;
    if has_any_capability()? {
        return Err(io::Error::other(
            "capabilities are left after dropping them",
        ));
    }
    Ok(())
}

/// Root gets no capability from `execve`, and that cannot be undone; a
/// process without CAP_SETPCAP cannot set it and has none to lose anyway.
fn lock_out_root() {
    let bits = libc::SECBIT_NOROOT
        | libc::SECBIT_NOROOT_LOCKED
        | libc::SECBIT_NO_SETUID_FIXUP
        | libc::SECBIT_NO_SETUID_FIXUP_LOCKED
        | libc::SECBIT_NO_CAP_AMBIENT_RAISE
        | libc::SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED;
    // SAFETY: prctl with integer arguments only.
    unsafe { libc::prctl(libc::PR_SET_SECUREBITS, bits as libc::c_ulong, 0, 0, 0) };
}

/// `struct __user_cap_header_struct`.
#[repr(C)]
struct CapHeader {
    version: u32,
    pid: libc::c_int,
}

/// `struct __user_cap_data_struct`; version 3 takes two of them.
#[repr(C)]
#[derive(Clone, Copy, Default)]
struct CapData {
    effective: u32,
    permitted: u32,
    inheritable: u32,
}

const CAPABILITY_VERSION_3: u32 = 0x2008_0522;

fn set_capabilities(data: &[CapData; 2]) -> io::Result<()> {
    let mut header = CapHeader {
        version: CAPABILITY_VERSION_3,
        pid: 0,
    };
    // SAFETY: capset reads one header and two data structs we own.
    let result = unsafe {
        libc::syscall(
            libc::SYS_capset,
            &mut header as *mut CapHeader,
            data.as_ptr(),
        )
    };
    if result != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

fn has_any_capability() -> io::Result<bool> {
    let mut header = CapHeader {
        version: CAPABILITY_VERSION_3,
        pid: 0,
    };
    let mut data = [CapData::default(); 2];
    // SAFETY: capget writes two data structs we own.
    let result = unsafe {
        libc::syscall(
            libc::SYS_capget,
            &mut header as *mut CapHeader,
            data.as_mut_ptr(),
        )
    };
    if result != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(data
        .iter()
        .any(|set| set.effective != 0 || set.permitted != 0 || set.inheritable != 0))
}
