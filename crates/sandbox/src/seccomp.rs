//! The seccomp filter every sandboxed command runs under, whichever mechanism
//! builds the rest: bubblewrap loads it from a file descriptor (`--seccomp`),
//! the Landlock fallback installs it in the child before `exec`.
//!
//! Always refused (EPERM): setting the setuid or setgid bit (`chmod`,
//! `fchmod`, `fchmodat`, `fchmodat2`, and creating a file with them through
//! `open`, `openat`, `creat`, `mknod`, `mknodat`; `openat2`, whose mode the
//! filter cannot see, entirely), and pushing input into a terminal
//! (`TIOCSTI`, `TIOCLINUX`). With the network off also every `socket` (Unix
//! ones included: a host socket such as Docker's or the ssh agent's is as
//! good as the network), a `socketpair` that is not a stream (a datagram one
//! could address any host socket by name), `connect`, `bind`, `listen`,
//! `accept` and io_uring (which opens sockets past the filter). With domain
//! lists, only sockets of other families than IPv4 and IPv6 (the network
//! namespace then has only loopback, where the proxy listens).
//!
//! It must never default to anything but allow (the command must run) nor
//! refuse with anything but EPERM, which [`crate::denial_note`] reads.

use crate::SandboxError;
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule,
};
use std::collections::BTreeMap;

/// The mode bits a sandboxed command may never set.
const PRIVILEGE_BITS: [u64; 2] = [libc::S_ISUID as u64, libc::S_ISGID as u64];

/// Whether the filter also shuts the command off from every socket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sockets {
    /// The network is on: sockets are left alone.
    Allowed,
    /// `sandbox.network` is off: no socket, Unix ones included.
    Refused,
    /// Domain lists (contract §32): IPv4 and IPv6 sockets only, in a
    /// network namespace whose only interface is loopback (where the proxy
    /// listens); Unix sockets stay refused, as with the network off.
    Internet,
}

/// The compiled filter for this machine's architecture.
pub fn command_filter(sockets: Sockets) -> Result<BpfProgram, SandboxError> {
    let mut rules = privilege_rules()?;
    rules.extend(terminal_rules()?);
    match sockets {
        Sockets::Allowed => {}
        Sockets::Refused => rules.extend(socket_rules()?),
        Sockets::Internet => rules.extend(internet_only_rules()?),
    }
    let arch = std::env::consts::ARCH.try_into().map_err(error)?;
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch,
    )
    .map_err(error)?;
    filter.try_into().map_err(error)
}

/// The filter as bytes, the `struct sock_filter` array bubblewrap reads.
pub fn program_bytes(program: &BpfProgram) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(program.len() * 8);
    for instruction in program {
        bytes.extend_from_slice(&instruction.code.to_ne_bytes());
        bytes.push(instruction.jt);
        bytes.push(instruction.jf);
        bytes.extend_from_slice(&instruction.k.to_ne_bytes());
    }
    bytes
}

type Rules = BTreeMap<i64, Vec<SeccompRule>>;

fn error(cause: impl std::fmt::Display) -> SandboxError {
    SandboxError::Seccomp(cause.to_string())
}

/// One rule per privilege bit: the call matches when argument `mode_arg` has it.
fn mode_has_privilege_bit(mode_arg: u8) -> Result<Vec<SeccompRule>, SandboxError> {
    PRIVILEGE_BITS
        .iter()
        .map(|&bit| {
            let condition = SeccompCondition::new(
                mode_arg,
                SeccompCmpArgLen::Dword,
                SeccompCmpOp::MaskedEq(bit),
                bit,
            )
            .map_err(error)?;
            SeccompRule::new(vec![condition]).map_err(error)
        })
        .collect()
}

fn privilege_rules() -> Result<Rules, SandboxError> {
    let mut rules = Rules::new();
    for (call, mode_arg) in [
        (libc::SYS_chmod, 1),
        (libc::SYS_fchmod, 1),
        (libc::SYS_fchmodat, 2),
        (libc::SYS_fchmodat2, 2),
        (libc::SYS_open, 2),
        (libc::SYS_openat, 3),
        (libc::SYS_creat, 1),
        (libc::SYS_mknod, 1),
        (libc::SYS_mknodat, 2),
    ] {
        rules.insert(call, mode_has_privilege_bit(mode_arg)?);
    }
    rules.insert(libc::SYS_openat2, Vec::new());
    Ok(rules)
}

// `Ioctl` is `c_ulong` with glibc and `c_int` with musl: the cast is needed on one.
#[allow(clippy::unnecessary_cast)]
fn terminal_rules() -> Result<Rules, SandboxError> {
    let requests = [libc::TIOCSTI, libc::TIOCLINUX]
        .into_iter()
        .map(|request| {
            let condition =
                SeccompCondition::new(1, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, request as u64)
                    .map_err(error)?;
            SeccompRule::new(vec![condition]).map_err(error)
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Rules::from([(libc::SYS_ioctl, requests)]))
}

fn socket_rules() -> Result<Rules, SandboxError> {
    let mut rules = Rules::new();
    for call in [
        libc::SYS_socket,
        libc::SYS_connect,
        libc::SYS_bind,
        libc::SYS_listen,
        libc::SYS_accept,
        libc::SYS_accept4,
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
    ] {
        rules.insert(call, Vec::new());
    }
    let not_a_stream = [libc::SOCK_DGRAM, libc::SOCK_SEQPACKET, libc::SOCK_RAW]
        .into_iter()
        .map(|kind| {
            let condition = SeccompCondition::new(
                1,
                SeccompCmpArgLen::Dword,
                SeccompCmpOp::MaskedEq(0xf),
                kind as u64,
            )
            .map_err(error)?;
            SeccompRule::new(vec![condition]).map_err(error)
        })
        .collect::<Result<Vec<_>, _>>()?;
    rules.insert(libc::SYS_socketpair, not_a_stream);
    Ok(rules)
}

/// A `socket` of any family but IPv4 and IPv6, a `socketpair` that is not a
/// stream, and io_uring.
fn internet_only_rules() -> Result<Rules, SandboxError> {
    let mut rules = socket_rules()?;
    for call in [
        libc::SYS_connect,
        libc::SYS_bind,
        libc::SYS_listen,
        libc::SYS_accept,
        libc::SYS_accept4,
    ] {
        rules.remove(&call);
    }
    let other_family = [libc::AF_INET, libc::AF_INET6]
        .into_iter()
        .map(|family| {
            SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Ne, family as u64)
                .map_err(error)
        })
        .collect::<Result<Vec<_>, _>>()?;
    rules.insert(
        libc::SYS_socket,
        vec![SeccompRule::new(other_family).map_err(error)?],
    );
    Ok(rules)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_program_is_eight_bytes_per_instruction() {
        let program = command_filter(Sockets::Refused).unwrap();
        assert_eq!(program_bytes(&program).len(), program.len() * 8);
    }
}
