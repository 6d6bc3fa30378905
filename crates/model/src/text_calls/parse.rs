//! Finds the tool calls a model wrote as text instead of in the provider's
//! tool-call fields: a JSON object `{"name": …, "arguments": {…}}`, bare or
//! in a fenced block, or inside `<tool_call>…</tool_call>` tags (Qwen and
//! Hermes templates), several per reply.
//!
//! Only a call of a tool on offer counts: an object naming any other tool,
//! or shaped otherwise, stays text. The ReAct parser (`react::parse`) reads
//! a different format — its `Action:` lines — so nothing of it applies here.
//! Pure and total: any text gives an answer, never a panic.

use serde_json::{Map, Value};
use std::ops::Range;

/// One call found in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextCall {
    /// The tool's name, one of those on offer.
    pub name: String,
    /// The arguments as compact JSON text of an object.
    pub arguments: String,
}

/// What [`find_text_calls`] found: the calls, in the order written, and the
/// text without them (their fences and tags removed too), trimmed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FoundCalls {
    /// The calls of offered tools, in order.
    pub calls: Vec<TextCall>,
    /// The rest of the text; the whole text, trimmed, when no call was found.
    pub rest: String,
}

const OPEN_TAG: &str = "<tool_call>";
const CLOSE_TAG: &str = "</tool_call>";

/// The calls of the tools named in `offered` that `text` holds.
pub fn find_text_calls(text: &str, offered: &[&str]) -> FoundCalls {
    let mut calls = Vec::new();
    let mut cuts: Vec<Range<usize>> = Vec::new();
    let mut position = 0;
    while let Some(found) = next_call(text, position, offered) {
        position = found.span.end;
        calls.push(found.call);
        cuts.push(found.span);
    }
    FoundCalls {
        calls,
        rest: without(text, &cuts),
    }
}

struct Found {
    call: TextCall,
    span: Range<usize>,
}

/// The first call at or after `from`: a JSON object starting at some `{`.
fn next_call(text: &str, from: usize, offered: &[&str]) -> Option<Found> {
    let mut start = from;
    while let Some(offset) = text.get(start..)?.find('{') {
        let at = start + offset;
        match object_at(text, at) {
            Some((object, end)) => {
                if let Some(call) = call_of(&object, offered) {
                    return Some(Found {
                        call,
                        span: wrapped(text, at..end, from),
                    });
                }
                // An object that is no call: none inside it is one either.
                start = end;
            }
            None => start = at + 1,
        }
    }
    None
}

/// The JSON object that starts at byte `at` and the byte where it ends.
fn object_at(text: &str, at: usize) -> Option<(Map<String, Value>, usize)> {
    let mut values = serde_json::Deserializer::from_str(text.get(at..)?).into_iter::<Value>();
    match values.next() {
        Some(Ok(Value::Object(object))) => Some((object, at + values.byte_offset())),
        _ => None,
    }
}

/// `{"name": "Read", "arguments": {…}}` (or `parameters`, or the arguments
/// as JSON text of an object) naming an offered tool.
fn call_of(object: &Map<String, Value>, offered: &[&str]) -> Option<TextCall> {
    let name = object.get("name")?.as_str()?;
    if !offered.contains(&name) {
        return None;
    }
    let arguments = match object.get("arguments").or_else(|| object.get("parameters")) {
        None => Value::Object(Map::new()),
        Some(value @ Value::Object(_)) => value.clone(),
        Some(Value::String(raw)) => match serde_json::from_str::<Value>(raw) {
            Ok(value @ Value::Object(_)) => value,
            _ => return None,
        },
        Some(_) => return None,
    };
    Some(TextCall {
        name: name.to_owned(),
        arguments: arguments.to_string(),
    })
}

/// The span widened over a fence (```` ```json … ``` ````) or
/// `<tool_call>` tags around it, so that the rest holds neither; never
/// back over `floor` (the end of the call before).
fn wrapped(text: &str, span: Range<usize>, floor: usize) -> Range<usize> {
    let before = text.get(floor..span.start).unwrap_or("");
    let after = text.get(span.end..).unwrap_or("");
    let before_trimmed = before.trim_end();
    let after_trimmed = after.trim_start();
    let opened = [OPEN_TAG, "```json", "```JSON", "```"]
        .iter()
        .find(|opening| before_trimmed.ends_with(*opening));
    let Some(opening) = opened else {
        return span;
    };
    let closing = if *opening == OPEN_TAG {
        CLOSE_TAG
    } else {
        "```"
    };
    let start = floor + before_trimmed.len() - opening.len();
    let end = if after_trimmed.starts_with(closing) {
        text.len() - after_trimmed.len() + closing.len()
    } else if after_trimmed.is_empty() || *opening == OPEN_TAG {
        // An unclosed tag or fence at the end of a reply (cut, or the
        // server ate the closing tag) still wraps only the call.
        span.end
    } else {
        return span;
    };
    start..end
}

/// `text` without the byte ranges `cuts` (in order, not overlapping), trimmed.
fn without(text: &str, cuts: &[Range<usize>]) -> String {
    let mut rest = String::new();
    let mut position = 0;
    for cut in cuts {
        rest.push_str(text.get(position..cut.start).unwrap_or(""));
        position = cut.end;
    }
    rest.push_str(text.get(position..).unwrap_or(""));
    rest.trim().to_owned()
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;
