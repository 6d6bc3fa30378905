//! One key from the terminal, read in raw mode: how the approval question
//! and the trust question are answered without Enter. Raw mode is left
//! before this returns, whatever happens; Ctrl-C arrives as a key here (raw
//! mode has no signals), so the caller decides what it means.

use crate::approver::StdinUntilStopped;
use crossterm::terminal;
use std::io::Read;
use std::sync::atomic::AtomicBool;
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
