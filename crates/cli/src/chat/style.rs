//! Colours of the interactive session: dim for hook and permission lines,
//! bold for tool names, green/red for outcomes, a tint for code blocks.
//!
//! Colours are off under `NO_COLOR` (any value), `TERM=dumb`, or when stdout
//! is not a terminal; then every painter returns its text unchanged. A
//! painter never neutralises text: callers escape untrusted text first.

use std::io::IsTerminal;

/// Whether to colour, decided once at start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Palette {
    enabled: bool,
}

impl Palette {
    /// Colours unless `NO_COLOR` is set, `TERM` is `dumb` or stdout is not a terminal.
    pub fn from_environment() -> Palette {
        let no_color = std::env::var_os("NO_COLOR").is_some();
        let dumb = std::env::var("TERM").is_ok_and(|term| term == "dumb");
        Palette {
            enabled: !no_color && !dumb && std::io::stdout().is_terminal(),
        }
    }

    /// A palette that colours (or not) as told.
    #[cfg(test)]
    pub fn new(enabled: bool) -> Palette {
        Palette { enabled }
    }

    fn paint(self, code: &str, text: &str) -> String {
        if self.enabled {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }

    /// Hook, permission and other side lines.
    pub fn dim(self, text: &str) -> String {
        self.paint("2", text)
    }

    /// Tool names and headings.
    pub fn bold(self, text: &str) -> String {
        self.paint("1", text)
    }

    /// A call that succeeded, an allow.
    pub fn ok(self, text: &str) -> String {
        self.paint("32", text)
    }

    /// A call that failed, was blocked or denied.
    pub fn bad(self, text: &str) -> String {
        self.paint("31", text)
    }

    /// Questions to the user.
    pub fn ask(self, text: &str) -> String {
        self.paint("33", text)
    }

    /// Lines inside a Markdown code block.
    pub fn code(self, text: &str) -> String {
        self.paint("36", text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_palette_without_colour_returns_the_text_as_it_is() {
        let palette = Palette::new(false);
        assert_eq!(
            [palette.dim("a"), palette.bold("b"), palette.bad("c")],
            ["a", "b", "c"]
        );
    }

    #[test]
    fn a_palette_with_colour_wraps_the_text_in_one_sgr_pair() {
        assert_eq!(Palette::new(true).dim("hook"), "\x1b[2mhook\x1b[0m");
    }
}
