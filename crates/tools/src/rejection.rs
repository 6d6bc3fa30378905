//! Why a tool call was refused before anything ran, as data: which tool was
//! missing, what the JSON parser said, which JSON paths failed the schema and
//! what was expected there.
//!
//! Text is rendered only at the edge ([`Rejection::result_text`] for the model,
//! `Display` for a person); callers match on the variants, never on the words.

use agenthub_protocol::{not_run, ErrorCode};
use std::fmt;

/// One place where an input does not match a tool's JSON Schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaProblem {
    /// The JSON pointer of the failing value; `/` for the root.
    pub path: String,
    /// What the validator says was expected there (e.g. `5 is not of type "string"`).
    pub expected: String,
}

impl fmt::Display for SchemaProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at {}: {}", self.path, self.expected)
    }
}

/// Why an input is not acceptable to a tool: the schema's problems, or (rarely,
/// after the schema passed) what the handler's own input type refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputMismatch {
    /// Every place the schema rejects, in the validator's order.
    Schema(Vec<SchemaProblem>),
    /// The schema passed but the handler's input type could not be built from
    /// the value; what serde said.
    Deserialize(String),
}

impl fmt::Display for InputMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputMismatch::Schema(problems) => f.write_str(&joined(problems)),
            InputMismatch::Deserialize(error) => f.write_str(error),
        }
    }
}

/// Why a call could not be prepared; the handler never ran. Its [`code`](Self::code)
/// is `unknown_tool` or `invalid_arguments`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rejection {
    /// No tool has this exact name.
    UnknownTool {
        /// The name the model asked for.
        name: String,
        /// Every registered tool, in registration order.
        available: Vec<String>,
    },
    /// The arguments are not JSON.
    NotJson {
        /// What serde said, with line and column.
        error: String,
    },
    /// The arguments do not match the tool's JSON Schema.
    SchemaMismatch {
        /// The tool whose schema refused them.
        tool: String,
        /// Every failing place.
        problems: Vec<SchemaProblem>,
    },
    /// The schema passed but the handler's input type refused the arguments.
    InputType {
        /// The tool whose input type refused them.
        tool: String,
        /// What serde said.
        error: String,
    },
}

impl Rejection {
    /// The rejection of `input` for `tool`, by kind of mismatch.
    pub fn mismatch(tool: &str, mismatch: InputMismatch) -> Rejection {
        let tool = tool.to_owned();
        match mismatch {
            InputMismatch::Schema(problems) => Rejection::SchemaMismatch { tool, problems },
            InputMismatch::Deserialize(error) => Rejection::InputType { tool, error },
        }
    }

    /// The contract §7 code of this rejection.
    pub fn code(&self) -> ErrorCode {
        match self {
            Rejection::UnknownTool { .. } => ErrorCode::UnknownTool,
            Rejection::NotJson { .. }
            | Rejection::SchemaMismatch { .. }
            | Rejection::InputType { .. } => ErrorCode::InvalidArguments,
        }
    }

    /// The tool result the model reads: `Error [code]: the tool was not run: …`.
    pub fn result_text(&self) -> String {
        self.code().result_text(&self.to_string())
    }

    fn detail(&self) -> String {
        match self {
            Rejection::UnknownTool { name, available } => format!(
                "no tool is named {name:?}; available tools: {}",
                available.join(", ")
            ),
            Rejection::NotJson { error } => {
                format!("the arguments are not valid JSON ({error}); expected a JSON object")
            }
            Rejection::SchemaMismatch { tool, problems } => schema_text(tool, &joined(problems)),
            Rejection::InputType { tool, error } => schema_text(tool, error),
        }
    }
}

/// Every problem, `at <path>: <expected>`, separated by `; `.
fn joined(problems: &[SchemaProblem]) -> String {
    let texts: Vec<String> = problems.iter().map(ToString::to_string).collect();
    texts.join("; ")
}

fn schema_text(tool: &str, problems: &str) -> String {
    format!("the arguments of {tool} do not match its schema: {problems}")
}

/// The message (without the code): "the tool was not run: …", saying what was
/// wrong, where, and what was expected.
impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&not_run(&self.detail()))
    }
}

impl std::error::Error for Rejection {}
