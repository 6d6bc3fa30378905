//! The value of a shell word, as bash would pass it: quotes removed, escapes
//! resolved — but only for words without expansions. A word with `$x`, `$(…)`,
//! `$'…'` or the like keeps its source text and is marked not literal.

use super::Word;
use tree_sitter::Node;

/// The words of a node that holds one (`command_name`).
pub fn word_list(node: Node, source: &[u8]) -> Vec<Word> {
    let mut cursor = node.walk();
    let words: Vec<Word> = node
        .named_children(&mut cursor)
        .map(|child| word(child, source))
        .collect();
    words
}

pub fn word(node: Node, source: &[u8]) -> Word {
    let text = node.utf8_text(source).unwrap_or_default();
    match node.kind() {
        "word" => literal(unescape_unquoted(text)),
        "number" => literal(text.to_owned()),
        "raw_string" => literal(strip_quotes(text, '\'').to_owned()),
        "string" => double_quoted(node, text),
        "concatenation" => concatenation(node, source),
        _ => Word {
            text: text.to_owned(),
            literal: false,
        },
    }
}

fn literal(text: String) -> Word {
    Word {
        text,
        literal: true,
    }
}

fn double_quoted(node: Node, text: &str) -> Word {
    let mut cursor = node.walk();
    let plain = node
        .named_children(&mut cursor)
        .all(|child| child.kind() == "string_content");
    if plain {
        literal(unescape_double_quoted(strip_quotes(text, '"')))
    } else {
        Word {
            text: text.to_owned(),
            literal: false,
        }
    }
}

fn concatenation(node: Node, source: &[u8]) -> Word {
    let mut cursor = node.walk();
    let parts: Vec<Word> = node
        .named_children(&mut cursor)
        .map(|child| word(child, source))
        .collect();
    if parts.iter().all(|part| part.literal) {
        literal(parts.into_iter().map(|part| part.text).collect())
    } else {
        Word {
            text: node.utf8_text(source).unwrap_or_default().to_owned(),
            literal: false,
        }
    }
}

fn strip_quotes(text: &str, quote: char) -> &str {
    text.strip_prefix(quote)
        .and_then(|inner| inner.strip_suffix(quote))
        .unwrap_or(text)
}

/// Outside quotes a backslash quotes the next character; backslash-newline vanishes.
fn unescape_unquoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(character) = chars.next() {
        match (character, character == '\\') {
            (_, true) => match chars.next() {
                Some('\n') | None => {}
                Some(next) => out.push(next),
            },
            (other, false) => out.push(other),
        }
    }
    out
}

/// Inside double quotes a backslash quotes only `$`, `` ` ``, `"`, `\` and newline.
fn unescape_double_quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(character) = chars.next() {
        if character != '\\' {
            out.push(character);
            continue;
        }
        match chars.peek() {
            Some('$' | '`' | '"' | '\\') => out.extend(chars.next()),
            Some('\n') => {
                chars.next();
            }
            _ => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unquoted_backslashes_quote_the_next_character() {
        assert_eq!(unescape_unquoted(r"\rm"), "rm");
        assert_eq!(unescape_unquoted(r"a\ b"), "a b");
        assert_eq!(unescape_unquoted("a\\\nb"), "ab");
    }

    #[test]
    fn double_quoted_backslashes_quote_only_special_characters() {
        assert_eq!(unescape_double_quoted(r#"a\"b\$c\n"#), r#"a"b$c\n"#);
    }
}
