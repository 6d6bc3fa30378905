//! One key from the terminal, read in raw mode: how the approval question
//! and the trust question are answered without Enter. Raw mode is left
//! before this returns, whatever happens; Ctrl-C arrives as a key here (raw
//! mode has no signals), so the caller decides what it means.

use crossterm::terminal;
use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A key the questions understand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// A printable character, lower-cased.
    Char(char),
    /// Enter.
    Enter,
    /// Escape.
    Escape,
    /// Ctrl-C.
    Interrupt,
    /// Ctrl-D, or the terminal went away.
    EndOfInput,
}

/// Waits for one key press.
pub fn read_key() -> Key {
    read_key_until(Arc::new(AtomicBool::new(false)))
}

/// Waits for one key press, or until `stop` is set (then [`Key::EndOfInput`]).
///
/// Keys are read from the terminal one byte at a time, never more: what the
/// person typed after the answer (a Ctrl-C, `/exit`) stays in the terminal's
/// queue for the prompt line instead of vanishing into a reader's buffer. A
/// question whose turn was cancelled stops reading at once, for the same reason.
pub fn read_key_until(stop: Arc<AtomicBool>) -> Key {
    if terminal::enable_raw_mode().is_err() {
        return Key::EndOfInput;
    }
    let mut stdin = StdinUntilStopped(stop);
    let key = loop {
        let mut byte = [0u8; 1];
        match stdin.read(&mut byte) {
            Ok(1) => {
                if let Some(key) = understood(byte[0]) {
                    break key;
                }
            }
            _ => break Key::EndOfInput,
        }
    };
    let _ = terminal::disable_raw_mode();
    key
}

/// The key one byte stands for; bytes of other keys (the rest of an escape
/// sequence, a multi-byte character) are passed over.
fn understood(byte: u8) -> Option<Key> {
    match byte {
        0x03 => Some(Key::Interrupt),
        0x04 => Some(Key::EndOfInput),
        b'\r' | b'\n' => Some(Key::Enter),
        0x1b => Some(Key::Escape),
        printable @ 0x20..=0x7e => Some(Key::Char(char::from(printable).to_ascii_lowercase())),
        _ => None,
    }
}

/// Set when the approval future is dropped (the run was cancelled, e.g. by
/// Ctrl-C at the prompt): the reading thread then stops at once.
#[derive(Default)]
pub(crate) struct StopOnDrop(pub(crate) Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// Standard input, read only when it has bytes, until the flag is set.
pub(crate) struct StdinUntilStopped(pub(crate) Arc<AtomicBool>);

/// How often the reading thread looks at the stop flag.
const STOP_POLL_MS: libc::c_int = 50;

impl Read for StdinUntilStopped {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        loop {
            if self.0.load(Ordering::SeqCst) {
                return Err(std::io::Error::other("the run was cancelled"));
            }
            let mut poll = libc::pollfd {
                fd: libc::STDIN_FILENO,
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one valid pollfd, for the duration of the call.
            if unsafe { libc::poll(&mut poll, 1, STOP_POLL_MS) } > 0 {
                // SAFETY: `buffer` is valid for `buffer.len()` bytes.
                let read = unsafe {
                    libc::read(libc::STDIN_FILENO, buffer.as_mut_ptr().cast(), buffer.len())
                };
                return usize::try_from(read).map_err(|_| std::io::Error::last_os_error());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_byte_a_question_understands_is_its_key() {
        let keys: Vec<Option<Key>> = [b'y', b'A', b'\r', b'\n', 0x1b, 0x03, 0x04, 0x7f, 0xc3]
            .into_iter()
            .map(understood)
            .collect();
        assert_eq!(
            keys,
            [
                Some(Key::Char('y')),
                Some(Key::Char('a')),
                Some(Key::Enter),
                Some(Key::Enter),
                Some(Key::Escape),
                Some(Key::Interrupt),
                Some(Key::EndOfInput),
                None,
                None
            ]
        );
    }
}
