//! Streaming assistant text onto the screen a piece at a time, with Markdown
//! code blocks set apart (a gutter, and a tint when colours are on).
//!
//! It sees text only as it streams, so it decides per line: a line opening
//! or closing a ``` fence toggles the block after it ends. It never holds
//! text back: every piece is written as soon as it arrives. It escapes
//! control characters itself ([`crate::terminal::neutralise`]).

use super::style::Palette;
use crate::terminal::neutralise;

/// The state of one answer being written.
#[derive(Debug, Default)]
pub struct MarkdownStream {
    in_code: bool,
    /// Text of the current line so far (to recognise a fence).
    line: String,
    /// Whether anything of the current line was written yet.
    line_open: bool,
}

/// The gutter before each line of a code block.
const GUTTER: &str = "  │ ";

impl MarkdownStream {
    /// What to write for `piece`, given what came before it.
    pub fn push(&mut self, piece: &str, palette: Palette) -> String {
        let mut out = String::new();
        for (index, part) in piece.split('\n').enumerate() {
            if index > 0 {
                out.push_str(&self.end_line(palette));
            }
            if !part.is_empty() {
                out.push_str(&self.write(part, palette));
            }
        }
        out
    }

    /// Closes the answer: a newline if a line is open, and the code tint reset.
    pub fn finish(&mut self, palette: Palette) -> String {
        let out = if self.line_open || !self.line.is_empty() {
            self.end_line(palette)
        } else {
            String::new()
        };
        *self = MarkdownStream::default();
        out
    }

    fn write(&mut self, part: &str, palette: Palette) -> String {
        let mut out = String::new();
        if !self.line_open {
            self.line_open = true;
            if self.in_code {
                out.push_str(GUTTER);
            }
        }
        self.line.push_str(part);
        let text = neutralise(part);
        if self.in_code && !is_fence(&self.line) {
            out.push_str(&palette.code(&text));
        } else {
            out.push_str(&text);
        }
        out
    }

    fn end_line(&mut self, _palette: Palette) -> String {
        if is_fence(&self.line) {
            self.in_code = !self.in_code;
        }
        self.line.clear();
        self.line_open = false;
        "\n".to_owned()
    }
}

fn is_fence(line: &str) -> bool {
    line.trim_start().starts_with("```")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(pieces: &[&str]) -> String {
        let mut stream = MarkdownStream::default();
        let mut out: String = pieces
            .iter()
            .map(|piece| stream.push(piece, Palette::new(false)))
            .collect();
        out.push_str(&stream.finish(Palette::new(false)));
        out
    }

    #[test]
    fn lines_inside_a_code_block_get_a_gutter_however_the_text_was_split() {
        assert_eq!(
            render(&["Run:\n``", "`sh\ncargo", " test\n```\nDone."]),
            "Run:\n```sh\n  │ cargo test\n  │ ```\nDone.\n"
        );
    }

    #[test]
    fn escape_sequences_in_an_answer_are_shown_escaped() {
        assert_eq!(render(&["hi\x1b[2J"]), "hi\\x1b[2J\n");
    }
}
