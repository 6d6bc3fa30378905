//! One key from the terminal, read in raw mode: how the approval question
//! and the trust question are answered without Enter. Raw mode is left
//! before this returns, whatever happens; Ctrl-C arrives as a key here (raw
//! mode has no signals), so the caller decides what it means.

use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::terminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

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

/// How often a waiting read looks at its stop flag.
const STOP_POLL: Duration = Duration::from_millis(50);

/// Waits for one key press.
pub fn read_key() -> Key {
    read_key_until(&AtomicBool::new(false))
}

/// Waits for one key press, or until `stop` is set (then [`Key::EndOfInput`]).
/// A question whose turn was cancelled must stop reading at once: a reader
/// left behind would take the next keys typed at the prompt.
pub fn read_key_until(stop: &AtomicBool) -> Key {
    if terminal::enable_raw_mode().is_err() {
        return Key::EndOfInput;
    }
    let key = loop {
        if stop.load(Ordering::SeqCst) {
            break Key::EndOfInput;
        }
        match event::poll(STOP_POLL) {
            Ok(false) => continue,
            Ok(true) => {}
            Err(_) => break Key::EndOfInput,
        }
        match event::read() {
            Ok(Event::Key(key)) if key.kind != KeyEventKind::Release => {
                if let Some(key) = understood(key) {
                    break key;
                }
            }
            Ok(_) => {}
            Err(_) => break Key::EndOfInput,
        }
    };
    let _ = terminal::disable_raw_mode();
    key
}

fn understood(key: KeyEvent) -> Option<Key> {
    let control = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Char('c') if control => Some(Key::Interrupt),
        KeyCode::Char('d') if control => Some(Key::EndOfInput),
        KeyCode::Char(character) if !control => Some(Key::Char(character.to_ascii_lowercase())),
        KeyCode::Enter => Some(Key::Enter),
        KeyCode::Esc => Some(Key::Escape),
        _ => None,
    }
}
