//! Lines of a file read through a bounded buffer, shared by `Read` (and the
//! line cut by `Grep`): a line is never held past [`MAX_LINE_CHARS`]
//! characters, however long it is, so reading a slice of a huge file, or a
//! file that is one huge line, takes a few kilobytes of memory.
//!
//! It never guesses an encoding: a NUL byte or bytes that are not UTF-8 in
//! the first 8 KiB, or a shown line that is not UTF-8, make the file binary.
//! It never scans without end: a line is looked at up to
//! [`MAX_LINE_SCAN_BYTES`], the rest of a file counted up to
//! [`MAX_COUNT_BYTES`], and the count stops when the caller says stop.

use std::io::{self, BufRead};

/// Longer lines are cut, so one minified line cannot fill the output.
pub const MAX_LINE_CHARS: usize = 2000;
/// At most this many bytes of a line are kept (4 per character, UTF-8's most).
const MAX_KEPT_BYTES: usize = MAX_LINE_CHARS * 4;
/// A line is scanned for its end at most this far (1 MiB): past it the line
/// is left unfinished, and a reader stops there instead of scanning on.
pub const MAX_LINE_SCAN_BYTES: usize = 1024 * 1024;
/// The rest of a file is counted at most this far (256 MiB); past it the
/// total is unknown rather than slow.
pub const MAX_COUNT_BYTES: u64 = 256 * 1024 * 1024;
/// Whether a file is text is decided from its first bytes (8 KiB), as
/// `grep` and `git` decide it.
pub const BINARY_CHECK_BYTES: usize = 8 * 1024;

/// One line: the start kept (at most [`MAX_LINE_CHARS`] characters once
/// decoded), its full length in characters, and whether it held a NUL byte.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct RawLine {
    kept: Vec<u8>,
    bytes: usize,
    chars: usize,
    nul: bool,
    unfinished: bool,
}

/// Why a file's lines cannot be shown as text.
#[derive(Debug)]
pub enum LinesError {
    /// A NUL byte, or a shown line that is not UTF-8.
    Binary,
    /// The operating system failed the read.
    Io(io::Error),
    /// The caller asked to stop (the run was cancelled).
    Stopped,
}

impl From<io::Error> for LinesError {
    fn from(error: io::Error) -> Self {
        LinesError::Io(error)
    }
}

impl RawLine {
    /// True when the line's end was not found within [`MAX_LINE_SCAN_BYTES`].
    pub fn unfinished(&self) -> bool {
        self.unfinished
    }

    /// The line as text, cut with a count when over [`MAX_LINE_CHARS`].
    pub fn text(&self) -> Result<String, LinesError> {
        let kept = self.kept_text()?;
        if self.unfinished {
            return Ok(format!(
                "{kept} [line cut: it is longer than {MAX_LINE_SCAN_BYTES} bytes; the file is not read past this point]"
            ));
        }
        if self.chars <= MAX_LINE_CHARS {
            return Ok(kept.to_owned());
        }
        Ok(format!(
            "{kept} [line cut: {} of {} characters not shown]",
            self.chars - MAX_LINE_CHARS,
            self.chars
        ))
    }

    /// The kept start of the line, at most [`MAX_LINE_CHARS`] characters.
    pub fn kept_text(&self) -> Result<&str, LinesError> {
        if self.nul {
            return Err(LinesError::Binary);
        }
        let text = match std::str::from_utf8(&self.kept) {
            Ok(text) => text,
            // A cut can split the last character; anything else is not text.
            Err(error)
                if (self.chars > MAX_LINE_CHARS || self.unfinished)
                    && error.error_len().is_none() =>
            {
                std::str::from_utf8(&self.kept[..error.valid_up_to()])
                    .map_err(|_| LinesError::Binary)?
            }
            Err(_) => return Err(LinesError::Binary),
        };
        Ok(match text.char_indices().nth(MAX_LINE_CHARS) {
            Some((end, _)) => &text[..end],
            None => text,
        })
    }
}

/// Reads the next line (without `\n` or `\r\n`); `None` at the end.
pub fn next_line(reader: &mut impl BufRead) -> io::Result<Option<RawLine>> {
    let mut line = RawLine::default();
    let mut seen = false;
    let mut last = None;
    loop {
        let buffer = reader.fill_buf()?;
        if buffer.is_empty() {
            break;
        }
        seen = true;
        let room = MAX_LINE_SCAN_BYTES - line.bytes;
        let (segment, ended) = match memchr::memchr(b'\n', buffer) {
            Some(end) if end <= room => (&buffer[..end], true),
            _ => (&buffer[..buffer.len().min(room)], false),
        };
        line.add(segment);
        last = segment.last().copied().or(last);
        let used = segment.len() + usize::from(ended);
        reader.consume(used);
        if ended {
            break;
        }
        if line.bytes >= MAX_LINE_SCAN_BYTES {
            line.unfinished = true;
            return Ok(Some(line));
        }
    }
    if !seen {
        return Ok(None);
    }
    if last == Some(b'\r') {
        line.drop_carriage_return();
    }
    Ok(Some(line))
}

impl RawLine {
    fn add(&mut self, segment: &[u8]) {
        let room = MAX_KEPT_BYTES.saturating_sub(self.kept.len());
        self.kept
            .extend_from_slice(&segment[..room.min(segment.len())]);
        self.bytes += segment.len();
        self.chars += segment
            .iter()
            .filter(|byte| (**byte & 0xC0) != 0x80)
            .count();
        self.nul |= memchr::memchr(0, segment).is_some();
    }

    fn drop_carriage_return(&mut self) {
        self.chars -= 1;
        if self.kept.len() == self.bytes {
            self.kept.pop();
        }
        self.bytes -= 1;
    }
}

/// Whether the file's first [`BINARY_CHECK_BYTES`] look binary: a NUL byte,
/// or bytes that are not UTF-8 (a character cut by the 8 KiB boundary aside).
/// Only the start is looked at, so a huge file is judged at once.
pub fn looks_binary(reader: &mut impl BufRead) -> io::Result<bool> {
    let start = reader.fill_buf()?;
    let start = &start[..start.len().min(BINARY_CHECK_BYTES)];
    if memchr::memchr(0, start).is_some() {
        return Ok(true);
    }
    Ok(match std::str::from_utf8(start) {
        Ok(_) => false,
        Err(error) => error.error_len().is_some(),
    })
}

/// Skips what is left of the file, counting its lines: `None` when more than
/// [`MAX_COUNT_BYTES`] are left (the count would be slow), or
/// [`LinesError::Stopped`] as soon as `stopped` says so.
pub fn count_rest(
    reader: &mut impl BufRead,
    stopped: &dyn Fn() -> bool,
) -> Result<Option<usize>, LinesError> {
    let mut lines = 0;
    let mut last = b'\n';
    let mut counted: u64 = 0;
    loop {
        if stopped() {
            return Err(LinesError::Stopped);
        }
        let buffer = reader.fill_buf()?;
        let Some(&end) = buffer.last() else {
            break;
        };
        counted += buffer.len() as u64;
        if counted > MAX_COUNT_BYTES {
            return Ok(None);
        }
        lines += memchr::memchr_iter(b'\n', buffer).count();
        last = end;
        let used = buffer.len();
        reader.consume(used);
    }
    Ok(Some(lines + usize::from(last != b'\n')))
}

/// A line for display, cut with a count when over [`MAX_LINE_CHARS`] characters.
pub fn cut_line(line: &str) -> String {
    match line.char_indices().nth(MAX_LINE_CHARS) {
        None => line.to_owned(),
        Some((end, _)) => format!(
            "{} [line cut: {} of {} characters not shown]",
            &line[..end],
            line.chars().count() - MAX_LINE_CHARS,
            line.chars().count()
        ),
    }
}

#[cfg(test)]
#[path = "lines_tests.rs"]
mod tests;
