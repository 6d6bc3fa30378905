//! A listening socket made inside a sandbox's network namespace (contract
//! §32): the proxy's address inside the sandbox, while the proxy itself —
//! and every connection it opens — stays in this process's namespace. A
//! socket belongs to the namespace it was made in, whoever holds it later.
//!
//! Joining a network namespace needs `CAP_SYS_ADMIN` in the user namespace
//! owning it, which this process has only by joining that user namespace,
//! and a multi-threaded process may not join one: so a forked child (one
//! thread) joins both, binds `127.0.0.1:0`, hands the descriptor back over
//! a Unix socket pair (`SCM_RIGHTS`) and exits. The child only makes system
//! calls on values prepared before the fork. Nothing here ever joins a
//! namespace in this process itself.

use std::io;
use std::net::TcpListener;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

/// `ioctl(NS_GET_USERNS)`: the user namespace owning a namespace.
const NS_GET_USERNS: u64 = 0xb701;

/// A TCP listener on `127.0.0.1` (an unused port) inside the network
/// namespace `netns` refers to.
pub fn loopback_listener_in(netns: &OwnedFd) -> io::Result<TcpListener> {
    // SAFETY: NS_GET_USERNS takes no argument and returns a new descriptor.
    let owner = unsafe { libc::ioctl(netns.as_raw_fd(), NS_GET_USERNS as _) };
    if owner < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the descriptor was just returned to this process.
    let owner = unsafe { OwnedFd::from_raw_fd(owner) };
    let (ours, theirs) = socket_pair()?;
    let plan = Plan {
        owner: owner.as_raw_fd(),
        netns: netns.as_raw_fd(),
        to_parent: theirs.as_raw_fd(),
    };
    // SAFETY: the child only makes system calls on `plan`, then `_exit`s.
    let child = unsafe { libc::fork() };
    match child {
        -1 => return Err(io::Error::last_os_error()),
        0 => plan.run_and_exit(),
        _ => {}
    }
    drop(theirs);
    let received = receive_fd(&ours);
    let mut status = 0;
    // SAFETY: waitpid on the child just forked.
    unsafe { libc::waitpid(child, &mut status, 0) };
    let listener = match received {
        Ok(fd) => fd,
        Err(error) => {
            let step = if libc::WIFEXITED(status) {
                libc::WEXITSTATUS(status)
            } else {
                0
            };
            return Err(io::Error::other(format!(
                "cannot listen inside the sandbox's network namespace ({}): {error}",
                Plan::STEPS
                    .get(step as usize)
                    .copied()
                    .unwrap_or("unknown step")
            )));
        }
    };
    let listener = TcpListener::from(listener);
    listener.set_nonblocking(true)?;
    Ok(listener)
}

/// What the forked child does, prepared before the fork.
struct Plan {
    owner: RawFd,
    netns: RawFd,
    to_parent: RawFd,
}

impl Plan {
    /// What each exit status of the child says failed.
    const STEPS: [&'static str; 6] = [
        "sent",
        "join the owning user namespace",
        "join the network namespace",
        "make a socket",
        "bind 127.0.0.1",
        "listen or send it back",
    ];

    fn run_and_exit(&self) -> ! {
        // SAFETY: plain system calls on descriptors and values made before
        // the fork; the child ends with `_exit`, running no destructor.
        unsafe {
            if libc::setns(self.owner, libc::CLONE_NEWUSER) != 0 {
                libc::_exit(1);
            }
            if libc::setns(self.netns, libc::CLONE_NEWNET) != 0 {
                libc::_exit(2);
            }
            let socket = libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0);
            if socket < 0 {
                libc::_exit(3);
            }
            let mut address: libc::sockaddr_in = std::mem::zeroed();
            address.sin_family = libc::AF_INET as libc::sa_family_t;
            address.sin_addr.s_addr = u32::from_ne_bytes([127, 0, 0, 1]);
            let length = std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t;
            if libc::bind(socket, (&raw const address).cast(), length) != 0 {
                libc::_exit(4);
            }
            if libc::listen(socket, 128) != 0 || send_fd(self.to_parent, socket) != 0 {
                libc::_exit(5);
            }
            libc::_exit(0);
        }
    }
}

fn socket_pair() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: socketpair writes two descriptors into the array we own.
    let made = unsafe {
        libc::socketpair(
            libc::AF_UNIX,
            libc::SOCK_STREAM | libc::SOCK_CLOEXEC,
            0,
            fds.as_mut_ptr(),
        )
    };
    if made != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both descriptors were just made and are owned by nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// Room for one descriptor's control message.
#[repr(C)]
union Control {
    buffer: [u8; 64],
    _align: libc::cmsghdr,
}

/// Sends `fd` over `socket`; 0 on success. Allocates nothing (runs after fork).
///
/// # Safety
///
/// `socket` and `fd` must be open descriptors of this process.
unsafe fn send_fd(socket: RawFd, fd: RawFd) -> libc::c_int {
    let mut byte = [0u8; 1];
    let mut part = libc::iovec {
        iov_base: byte.as_mut_ptr().cast(),
        iov_len: 1,
    };
    let mut control = Control { buffer: [0; 64] };
    // SAFETY: the message points at locals that outlive the call, and the
    // control buffer is large and aligned enough for one descriptor.
    unsafe {
        let mut message: libc::msghdr = std::mem::zeroed();
        message.msg_iov = &mut part;
        message.msg_iovlen = 1;
        message.msg_control = (&raw mut control.buffer).cast();
        message.msg_controllen = libc::CMSG_SPACE(std::mem::size_of::<RawFd>() as u32) as _;
        let header = libc::CMSG_FIRSTHDR(&message);
        (*header).cmsg_level = libc::SOL_SOCKET;
        (*header).cmsg_type = libc::SCM_RIGHTS;
        (*header).cmsg_len = libc::CMSG_LEN(std::mem::size_of::<RawFd>() as u32) as _;
        std::ptr::write_unaligned(libc::CMSG_DATA(header).cast::<RawFd>(), fd);
        match libc::sendmsg(socket, &message, 0) {
            1 => 0,
            _ => -1,
        }
    }
}

/// Receives one descriptor sent with [`send_fd`].
fn receive_fd(socket: &OwnedFd) -> io::Result<OwnedFd> {
    let mut byte = [0u8; 1];
    let mut part = libc::iovec {
        iov_base: byte.as_mut_ptr().cast(),
        iov_len: 1,
    };
    let mut control = Control { buffer: [0; 64] };
    // SAFETY: the message points at locals that outlive the call; the
    // control message is read only when the kernel filled one in.
    unsafe {
        let mut message: libc::msghdr = std::mem::zeroed();
        message.msg_iov = &mut part;
        message.msg_iovlen = 1;
        message.msg_control = (&raw mut control.buffer).cast();
        message.msg_controllen = std::mem::size_of::<Control>() as _;
        if libc::recvmsg(socket.as_raw_fd(), &mut message, libc::MSG_CMSG_CLOEXEC) != 1 {
            return Err(io::Error::other("the child sent no listener"));
        }
        let header = libc::CMSG_FIRSTHDR(&message);
        if header.is_null()
            || (*header).cmsg_level != libc::SOL_SOCKET
            || (*header).cmsg_type != libc::SCM_RIGHTS
        {
            return Err(io::Error::other("the child's message held no descriptor"));
        }
        let fd = std::ptr::read_unaligned(libc::CMSG_DATA(header).cast::<RawFd>());
        Ok(OwnedFd::from_raw_fd(fd))
    }
}
