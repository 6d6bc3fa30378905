//! The front matter of Claude Code's Markdown files (subagent definitions,
//! skills, slash commands; contract §20): an optional YAML block between a
//! first line `---` and the next `---` line, then the body.
//!
//! Read as Claude Code reads it: a file without the block is all body; the
//! block is YAML (lists, nested maps such as an agent's `hooks:`). Many
//! public files write `description: Use when: …`, which strict YAML
//! refuses; when YAML fails, top-level `key: value` lines are taken as they
//! are, and only a block that is neither is an error naming the line. This
//! module reads text; it never decides what a key means.

use serde_json::{Map, Value};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// A Markdown file split into its front matter and its body.
#[derive(Debug, Clone, PartialEq)]
pub struct FrontMatter {
    /// The front matter's keys; empty when the file has none.
    pub fields: Map<String, Value>,
    /// Everything after the front matter, trimmed.
    pub body: String,
}

impl FrontMatter {
    /// The text of `key` when it is a non-empty string (a number or boolean is
    /// written as text).
    pub fn text(&self, key: &str) -> Option<String> {
        match self.fields.get(key)? {
            Value::String(text) => Some(text.trim().to_owned()).filter(|text| !text.is_empty()),
            Value::Number(number) => Some(number.to_string()),
            Value::Bool(flag) => Some(flag.to_string()),
            _ => None,
        }
    }

    /// The names listed under `key`, written as a comma list (`Read, Grep`),
    /// a flow list (`[Read, Grep]`) or a YAML list; `None` when absent.
    pub fn list(&self, key: &str) -> Option<Vec<String>> {
        let names = match self.fields.get(key)? {
            Value::Array(items) => items
                .iter()
                .filter_map(|item| item.as_str().map(str::to_owned))
                .collect(),
            Value::String(text) => comma_list(text),
            Value::Null => Vec::new(),
            other => vec![other.to_string()],
        };
        Some(names)
    }

    /// The first non-empty line of the body: a description for a file whose
    /// front matter gives none.
    pub fn first_body_line(&self) -> Option<String> {
        self.body
            .lines()
            .map(|line| line.trim().trim_start_matches('#').trim())
            .find(|line| !line.is_empty())
            .map(str::to_owned)
    }
}

/// A front matter that cannot be read: the file, the line (from 1) and why.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{file}:{line}: {message}")]
pub struct FrontMatterError {
    /// The file.
    pub file: PathBuf,
    /// The line, counting from 1.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Splits `text` (the file `file`, named in errors) into front matter and body.
///
/// ```
/// use agenthub_settings::front_matter;
/// use std::path::Path;
///
/// let text = "---\nname: lister\ntools:\n  - Read\n  - Grep\n---\nList things.\n";
/// let split = front_matter::split(Path::new("lister.md"), text)?;
/// assert_eq!(split.list("tools"), Some(vec!["Read".to_owned(), "Grep".to_owned()]));
/// assert_eq!(split.body, "List things.");
/// # Ok::<(), agenthub_settings::front_matter::FrontMatterError>(())
/// ```
pub fn split(file: &Path, text: &str) -> Result<FrontMatter, FrontMatterError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.split_inclusive('\n');
    let opening = lines.next().unwrap_or_default();
    if opening.trim_end() != "---" {
        return Ok(FrontMatter {
            fields: Map::new(),
            body: text.trim().to_owned(),
        });
    }
    let mut block = String::new();
    let mut closed = false;
    for line in lines.by_ref() {
        if line.trim_end() == "---" {
            closed = true;
            break;
        }
        block.push_str(line);
    }
    if !closed {
        return Err(FrontMatterError {
            file: file.to_path_buf(),
            line: 1,
            message: "the front matter opened by '---' is never closed by a '---' line".to_owned(),
        });
    }
    let body: String = lines.collect();
    Ok(FrontMatter {
        fields: fields(file, &block)?,
        body: body.trim().to_owned(),
    })
}

/// The block's keys: YAML, else plain `key: value` lines.
fn fields(file: &Path, block: &str) -> Result<Map<String, Value>, FrontMatterError> {
    let yaml_error = match serde_norway::from_str::<Value>(block) {
        Ok(Value::Object(fields)) => return Ok(fields),
        Ok(Value::Null) => return Ok(Map::new()),
        Ok(other) => {
            return Err(FrontMatterError {
                file: file.to_path_buf(),
                line: 2,
                message: format!("the front matter must be 'key: value' lines, not {other}"),
            })
        }
        Err(error) => error,
    };
    plain_lines(block).ok_or_else(|| FrontMatterError {
        file: file.to_path_buf(),
        // The block starts on the file's second line.
        line: yaml_error.location().map_or(2, |at| at.line() + 1),
        message: format!("the front matter is not YAML: {yaml_error}"),
    })
}

/// Top-level `key: value` lines, each value taken whole (colons and all).
/// A value may go on over the lines after it that are not `key: value`
/// lines — blank ones, and `<example>` … `</example>` blocks, whose own
/// `user: …` lines stay part of it — as Claude Code's agent descriptions
/// are written. `None` when an indented line or a line before any key is there.
fn plain_lines(block: &str) -> Option<Map<String, Value>> {
    let mut fields: Vec<(String, String)> = Vec::new();
    let mut open_tag: Option<String> = None;
    for line in block.lines() {
        if line.starts_with(char::is_whitespace) && !line.trim().is_empty() {
            return None;
        }
        let outside = open_tag.is_none();
        let blank = line.trim().is_empty();
        if outside && (line.starts_with('#') || blank && fields.is_empty()) {
            continue;
        }
        let continued = !outside || opening_tag(line).is_some() || key_value(line).is_none();
        if continued {
            let (_, value) = fields.last_mut()?;
            value.push('\n');
            value.push_str(line);
            open_tag = match open_tag {
                Some(tag) if line.trim() == format!("</{tag}>") => None,
                Some(tag) => Some(tag),
                None => opening_tag(line),
            };
            continue;
        }
        if let Some((key, value)) = key_value(line) {
            fields.push((key.to_owned(), value.to_owned()));
        }
    }
    if open_tag.is_some() {
        // An unclosed block would swallow every key after it (`tools`, `model`).
        return None;
    }
    Some(
        fields
            .into_iter()
            .map(|(key, value)| (key, Value::String(unquote(value.trim()).to_owned())))
            .collect(),
    )
}

/// A `key: value` line whose key is one word; comment lines count as blank.
fn key_value(line: &str) -> Option<(&str, &str)> {
    if line.trim().is_empty() || line.starts_with('#') {
        return None;
    }
    let (key, value) = line.split_once(':')?;
    let key = key.trim();
    let simple = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    simple.then_some((key, value))
}

/// The tag a line like `<example>` opens.
fn opening_tag(line: &str) -> Option<String> {
    let tag = line.trim().strip_prefix('<')?.strip_suffix('>')?;
    let word = !tag.is_empty() && tag.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    word.then(|| tag.to_owned())
}

fn unquote(value: &str) -> &str {
    for quote in ['"', '\''] {
        if let Some(inner) = value
            .strip_prefix(quote)
            .and_then(|rest| rest.strip_suffix(quote))
        {
            return inner;
        }
    }
    value
}

/// `Read, Grep` or `[Read, Grep]` → the names; empty entries dropped.
fn comma_list(value: &str) -> Vec<String> {
    let inner = value
        .trim()
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
        .unwrap_or(value);
    inner
        .split(',')
        .map(|name| unquote(name.trim()).to_owned())
        .filter(|name| !name.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(text: &str) -> Result<FrontMatter, FrontMatterError> {
        split(Path::new("a.md"), text)
    }

    #[test]
    fn a_file_without_front_matter_is_all_body() {
        assert_eq!(
            read("You review code.\n").unwrap(),
            FrontMatter {
                fields: Map::new(),
                body: "You review code.".to_owned()
            }
        );
    }

    #[test]
    fn yaml_lists_and_nested_maps_are_read() {
        let split =
            read("---\ntools:\n  - Read\nhooks:\n  Stop:\n    - hooks: []\n---\nBody\n").unwrap();
        assert_eq!(
            Value::Object(split.fields),
            json!({"tools": ["Read"], "hooks": {"Stop": [{"hooks": []}]}})
        );
    }

    #[test]
    fn a_value_with_a_colon_that_yaml_refuses_is_taken_whole() {
        let split = read("---\nname: x\ndescription: Use when: the tests fail\n---\n").unwrap();
        assert_eq!(
            (split.text("name"), split.text("description")),
            (
                Some("x".to_owned()),
                Some("Use when: the tests fail".to_owned())
            )
        );
    }

    #[test]
    fn tools_read_the_same_as_a_comma_list_a_flow_list_or_a_yaml_list() {
        let lists: Vec<_> = [
            "---\ntools: Read, Grep\n---\n",
            "---\ntools: [Read, Grep]\n---\n",
            "---\ntools:\n  - Read\n  - Grep\n---\n",
        ]
        .iter()
        .map(|text| read(text).unwrap().list("tools"))
        .collect();
        let expected = Some(vec!["Read".to_owned(), "Grep".to_owned()]);
        assert_eq!(lists, vec![expected.clone(), expected.clone(), expected]);
    }

    #[test]
    fn an_unclosed_front_matter_is_an_error_on_line_one() {
        assert_eq!(
            read("---\nname: x\n").unwrap_err(),
            FrontMatterError {
                file: PathBuf::from("a.md"),
                line: 1,
                message: "the front matter opened by '---' is never closed by a '---' line"
                    .to_owned()
            }
        );
    }

    #[test]
    fn a_description_that_goes_on_over_example_blocks_keeps_them_and_the_keys_after_it_count() {
        let text = "---\nname: agent-creator\ndescription: Use this agent to create agents. Examples:\n\n<example>\nContext: User wants a reviewer\nuser: \"Create an agent\"\n</example>\nmodel: sonnet\ntools: [\"Write\", \"Read\"]\n---\nBody.\n";
        let split = read(text).unwrap();
        assert_eq!(
            (
                split.text("name"),
                split.text("description"),
                split.text("model"),
                split.list("tools"),
                split.fields.len()
            ),
            (
                Some("agent-creator".to_owned()),
                Some("Use this agent to create agents. Examples:\n\n<example>\nContext: User wants a reviewer\nuser: \"Create an agent\"\n</example>".to_owned()),
                Some("sonnet".to_owned()),
                Some(vec!["Write".to_owned(), "Read".to_owned()]),
                4
            )
        );
    }

    #[test]
    fn an_example_block_never_closed_is_an_error_not_a_description_that_swallows_the_keys_after_it()
    {
        let text = "---\nname: x\ndescription: Use it. Examples:\n<example>\nuser: hi\ntools: Read\n---\nBody.\n";
        assert!(read(text).is_err());
    }

    #[test]
    fn a_block_that_is_neither_yaml_nor_key_value_lines_names_its_line() {
        let error = read("---\nname: x\n  - stray: [\n---\n").unwrap_err();
        assert_eq!((error.file, error.line >= 2), (PathBuf::from("a.md"), true));
    }

    #[test]
    fn the_first_body_line_stands_in_for_a_missing_description() {
        let split = read("# Reviewer\n\nReviews diffs.\n").unwrap();
        assert_eq!(split.first_body_line(), Some("Reviewer".to_owned()));
    }
}
