//! Text from a model, a tool or a hook is shown in the terminal with its
//! control characters escaped (`\x1b`, `\r`, …), so it cannot move the
//! cursor, erase lines, set the title or write the clipboard. Newlines and
//! tabs stay. The transcript and the model always get the text unaltered:
//! this is only for the screen.

/// `text` with every control character except `\n` and `\t` shown escaped.
pub fn shown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for character in text.chars() {
        match character {
            '\n' | '\t' => out.push(character),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_are_shown_escaped_and_newlines_kept() {
        assert_eq!(
            shown("ok\x1b]52;c;SGVsbG8=\x07\r\x1b[2K\nnext\ttab"),
            "ok\\x1b]52;c;SGVsbG8=\\x07\\r\\x1b[2K\nnext\ttab"
        );
    }

    #[test]
    fn c1_controls_are_escaped() {
        assert_eq!(shown("a\u{9b}31mb"), "a\\x9b31mb");
    }
}
