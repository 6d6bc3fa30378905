//! Reads a ReAct reply (`Thought:` / `Action:` / `Action Input:` /
//! `Final Answer:`) into either one tool call or a final answer.
//!
//! Markers are matched at the start of a line, ignoring case and surrounding
//! whitespace. Anything from a line starting with `Observation:` on is dropped:
//! observations come from AgentHub, a model that writes one is imagining it.
//! Pure; never guesses at a reply it cannot read — that is a [`ParseProblem`]
//! the model is told about.

use serde_json::Value;
use thiserror::Error;

/// What the reply asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Parsed {
    /// Call one tool; `input` is compact JSON text of an object.
    Action {
        /// The reasoning before the action (`Thought:` and any text before
        /// the first marker), kept as the assistant message's text.
        thought: Option<String>,
        /// The tool named after `Action:`, without quotes or backticks.
        name: String,
        /// The `Action Input:` object as compact JSON text.
        input: String,
    },
    /// Answer the person: the text after `Final Answer:`, trimmed.
    Final(String),
}

/// Why a reply could not be read; worded for the model.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseProblem {
    /// Neither an action nor an answer: plain text.
    #[error("it has neither an \"Action:\" line nor a \"Final Answer:\" line")]
    NoMarker,
    /// An action and an answer at once: which one was meant is a guess.
    #[error("it has both an \"Action:\" and a \"Final Answer:\"; give exactly one of them")]
    Both,
    /// `Action:` with nothing after it.
    #[error("the \"Action:\" line names no tool")]
    EmptyAction,
    /// An action without `Action Input:`; holds the tool's name.
    #[error("\"Action: {0}\" is not followed by an \"Action Input:\" line")]
    NoInput(String),
    /// The `Action Input:` is not a JSON object; holds why.
    #[error("the \"Action Input:\" is not a JSON object ({0})")]
    BadInput(String),
    /// `Final Answer:` with nothing after it.
    #[error("the \"Final Answer:\" is empty")]
    EmptyAnswer,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Marker {
    Preamble,
    Thought,
    Action,
    ActionInput,
    FinalAnswer,
}

/// Longest first, so `Action Input:` is not taken for `Action:`.
const MARKERS: [(&str, Marker); 4] = [
    ("action input:", Marker::ActionInput),
    ("final answer:", Marker::FinalAnswer),
    ("thought:", Marker::Thought),
    ("action:", Marker::Action),
];

/// Parses one reply.
pub fn parse_reply(reply: &str) -> Result<Parsed, ParseProblem> {
    let sections = sections(reply);
    let find = |wanted: Marker| {
        sections
            .iter()
            .find(|(marker, _)| *marker == wanted)
            .map(|(_, text)| text.trim())
    };
    match (find(Marker::Action), find(Marker::FinalAnswer)) {
        (Some(_), Some(_)) => Err(ParseProblem::Both),
        (None, None) => Err(ParseProblem::NoMarker),
        (None, Some("")) => Err(ParseProblem::EmptyAnswer),
        (None, Some(answer)) => Ok(Parsed::Final(answer.to_owned())),
        (Some(action), None) => {
            let name = action.trim_matches(|c: char| c == '`' || c == '"' || c == '\'');
            let name = name.trim();
            if name.is_empty() {
                return Err(ParseProblem::EmptyAction);
            }
            let raw =
                find(Marker::ActionInput).ok_or_else(|| ParseProblem::NoInput(name.into()))?;
            Ok(Parsed::Action {
                thought: thought(&sections),
                name: name.to_owned(),
                input: json_object(raw)?,
            })
        }
    }
}

/// The reply cut into (marker, text) sections, up to the first `Observation:`.
fn sections(reply: &str) -> Vec<(Marker, String)> {
    let mut sections = vec![(Marker::Preamble, String::new())];
    for line in reply.lines() {
        let trimmed = line.trim_start();
        if starts_with_ignoring_case(trimmed, "observation:") {
            break;
        }
        let opened = MARKERS
            .iter()
            .find(|(prefix, _)| starts_with_ignoring_case(trimmed, prefix));
        match opened {
            Some((prefix, marker)) => sections.push((*marker, trimmed[prefix.len()..].to_owned())),
            None => {
                if let Some((_, text)) = sections.last_mut() {
                    text.push('\n');
                    text.push_str(line);
                }
            }
        }
    }
    sections
}

fn starts_with_ignoring_case(text: &str, prefix: &str) -> bool {
    text.get(..prefix.len())
        .is_some_and(|start| start.eq_ignore_ascii_case(prefix))
}

fn thought(sections: &[(Marker, String)]) -> Option<String> {
    let parts: Vec<&str> = sections
        .iter()
        .filter(|(marker, _)| matches!(marker, Marker::Thought | Marker::Preamble))
        .map(|(_, text)| text.trim())
        .filter(|text| !text.is_empty())
        .collect();
    (!parts.is_empty()).then(|| parts.join("\n"))
}

/// The first JSON value of the text (code fences allowed), which must be an object.
fn json_object(raw: &str) -> Result<String, ParseProblem> {
    let unfenced = raw
        .trim()
        .trim_start_matches("```json")
        .trim_start_matches("```")
        .trim_end_matches("```")
        .trim();
    let mut values = serde_json::Deserializer::from_str(unfenced).into_iter::<Value>();
    match values.next() {
        Some(Ok(value @ Value::Object(_))) => Ok(value.to_string()),
        Some(Ok(other)) => Err(ParseProblem::BadInput(format!("got {}", kind_of(&other)))),
        Some(Err(error)) => Err(ParseProblem::BadInput(error.to_string())),
        None => Err(ParseProblem::BadInput("it is empty".to_owned())),
    }
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;
