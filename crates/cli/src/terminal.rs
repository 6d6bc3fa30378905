//! Terminal safety (contract §15): text from a model, a tool or a hook must not
//! drive the terminal it is shown on. [`neutralise`] shows every control
//! character but newline and tab escaped (`\x1b`, `\x0d`, `\x9b`) and
//! Unicode direction overrides as `\u{202e}`, so an escape sequence, a
//! carriage return or an OSC 52 clipboard write is printed, not obeyed.
//!
//! Everything AgentHub writes to stderr goes through it ([`stderr`],
//! [`eprintln_neutral!`]); stdout does when it is a terminal
//! ([`Neutral::when_terminal`]). A piped stdout, the transcript and the model
//! get the text unaltered: this module must never be used on those.
//! The interactive session (`chat/`) shows model text through the same type.

use std::borrow::Cow;
use std::io::{IsTerminal, Write};

/// `text` with control characters shown escaped; `\n` and `\t` kept.
pub fn neutralise(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut shown = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            c if !needs_escape(c) => shown.push(c),
            c if u32::from(c) < 0x100 => shown.push_str(&format!("\\x{:02x}", u32::from(c))),
            c => shown.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
        }
    }
    Cow::Owned(shown)
}

/// C0 controls but newline and tab, DEL, C1 controls, and the Unicode
/// characters that reorder or hide text (bidi overrides and isolates).
fn needs_escape(c: char) -> bool {
    match c {
        '\n' | '\t' => false,
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' => true,
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => true,
        _ => false,
    }
}

/// A writer that neutralises what passes through it (when enabled). A UTF-8
/// character split across two writes is held back until it is whole.
pub struct Neutral<W: Write> {
    inner: W,
    enabled: bool,
    pending: Vec<u8>,
}

impl<W: Write> Neutral<W> {
    /// Always neutralises (for stderr).
    pub fn new(inner: W) -> Self {
        Neutral {
            inner,
            enabled: true,
            pending: Vec::new(),
        }
    }

    /// Neutralises only when `inner` is a terminal (for stdout).
    pub fn when_terminal(inner: W) -> Self
    where
        W: IsTerminal,
    {
        let enabled = inner.is_terminal();
        Neutral {
            enabled,
            ..Neutral::new(inner)
        }
    }
}

impl<W: Write> Write for Neutral<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if !self.enabled {
            return self.inner.write(bytes);
        }
        self.pending.extend_from_slice(bytes);
        let whole = match std::str::from_utf8(&self.pending) {
            Ok(text) => text.len(),
            Err(error) if error.error_len().is_none() => error.valid_up_to(),
            Err(_) => self.pending.len(),
        };
        let ready: Vec<u8> = self.pending.drain(..whole).collect();
        let text = String::from_utf8_lossy(&ready);
        self.inner.write_all(neutralise(&text).as_bytes())?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Standard error, neutralised.
pub fn stderr() -> Neutral<std::io::Stderr> {
    Neutral::new(std::io::stderr())
}

/// Writes `text` to stderr, neutralised; a closed stderr is not an error.
pub fn write_stderr(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(neutralise(text).as_bytes());
}

/// `eprintln!`, neutralised: every line AgentHub writes to stderr.
macro_rules! eprintln_neutral {
    ($($arg:tt)*) => {
        $crate::terminal::write_stderr(&format!("{}\n", format_args!($($arg)*)))
    };
}
pub(crate) use eprintln_neutral;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_carriage_returns_and_osc_52_are_shown_escaped() {
        assert_eq!(
            neutralise("git status\r\x1b[1A\x1b[2K\x1b]52;c;cHduZWQ=\x07ok"),
            "git status\\x0d\\x1b[1A\\x1b[2K\\x1b]52;c;cHduZWQ=\\x07ok"
        );
    }

    #[test]
    fn newlines_tabs_and_ordinary_unicode_pass_unchanged() {
        assert_eq!(neutralise("a\tb\nçà — ✓"), Cow::Borrowed("a\tb\nçà — ✓"));
    }

    #[test]
    fn c1_controls_and_direction_overrides_are_escaped() {
        assert_eq!(neutralise("\u{9b}2J\u{202e}txt"), "\\x9b2J\\u{202e}txt");
    }

    #[test]
    fn a_character_split_across_writes_is_neutralised_whole() {
        let mut writer = Neutral::new(Vec::new());
        let bytes = "é\u{9b}".as_bytes();
        writer.write_all(&bytes[..1]).unwrap();
        writer.write_all(&bytes[1..3]).unwrap();
        writer.write_all(&bytes[3..]).unwrap();
        assert_eq!(String::from_utf8(writer.inner).unwrap(), "é\\x9b");
    }
}
