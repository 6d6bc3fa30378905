//! Structured output (contract §22): with an answer schema, a final answer must be
//! JSON valid against it. An invalid answer is sent back to the model with
//! the validation errors, at most [`MAX_SCHEMA_RETRIES`] times; then the run
//! fails with an error naming the mismatch.
//!
//! It is the first check of a candidate answer (before the Stop hooks), a
//! piece of the answer's path rather than a branch of the loop. It never
//! rewrites an answer: the accepted JSON is reported beside it.

use crate::run::{Ending, Run};
use agenthub_protocol::{Message, RunStatus};
use serde_json::Value;
use thiserror::Error;

/// How many times an invalid final answer is sent back before the run fails.
pub const MAX_SCHEMA_RETRIES: u32 = 2;

/// A JSON Schema every final answer must satisfy, compiled once.
pub struct AnswerSchema {
    schema: Value,
    validator: jsonschema::Validator,
}

impl std::fmt::Debug for AnswerSchema {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("AnswerSchema")
            .field("schema", &self.schema)
            .finish_non_exhaustive()
    }
}

/// A schema that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("the JSON schema is not valid: {0}")]
pub struct AnswerSchemaError(String);

/// Why an answer does not satisfy the schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnswerMismatch {
    /// The answer is not JSON at all.
    NotJson(String),
    /// JSON, but these paths break the schema: `(path, what is wrong)`.
    Invalid(Vec<(String, String)>),
}

impl std::fmt::Display for AnswerMismatch {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnswerMismatch::NotJson(error) => write!(formatter, "the answer is not JSON ({error})"),
            AnswerMismatch::Invalid(problems) => {
                let listed: Vec<String> = problems
                    .iter()
                    .map(|(path, problem)| format!("at {path}: {problem}"))
                    .collect();
                write!(formatter, "{}", listed.join("; "))
            }
        }
    }
}

impl AnswerSchema {
    /// Compiles `schema`.
    pub fn new(schema: Value) -> Result<AnswerSchema, AnswerSchemaError> {
        let validator = jsonschema::validator_for(&schema)
            .map_err(|error| AnswerSchemaError(error.to_string()))?;
        Ok(AnswerSchema { schema, validator })
    }

    /// What the model is told up front: answer with JSON matching the schema.
    pub fn instruction(&self) -> String {
        format!(
            "Your final answer (the reply in which you call no tool) must be a single JSON \
             value, with no other text around it, valid against this JSON Schema:\n{}",
            self.schema
        )
    }

    /// The answer as JSON when it satisfies the schema. A Markdown code fence
    /// around the JSON is allowed.
    pub fn check(&self, answer: &str) -> Result<Value, AnswerMismatch> {
        let value: Value = serde_json::from_str(unfenced(answer))
            .map_err(|error| AnswerMismatch::NotJson(error.to_string()))?;
        let problems: Vec<(String, String)> = self
            .validator
            .iter_errors(&value)
            .map(|error| {
                let path = error.instance_path().to_string();
                let path = if path.is_empty() {
                    "/".to_owned()
                } else {
                    path
                };
                (path, error.to_string())
            })
            .collect();
        match problems.is_empty() {
            true => Ok(value),
            false => Err(AnswerMismatch::Invalid(problems)),
        }
    }
}

/// The text inside a ```` ``` ```` / ```` ```json ```` fence, else the text trimmed.
fn unfenced(answer: &str) -> &str {
    let trimmed = answer.trim();
    let Some(body) = trimmed
        .strip_prefix("```")
        .and_then(|rest| rest.strip_suffix("```"))
    else {
        return trimmed;
    };
    body.strip_prefix("json").unwrap_or(body).trim()
}

/// What becomes of a candidate answer under the schema.
pub(crate) enum AnswerCheck {
    /// No schema, or the answer satisfies it: on to the Stop hooks.
    Accepted,
    /// Sent back with the errors: one more model request.
    Retry,
    /// Still invalid after the retries: the run ends here.
    Failed(Ending),
}

impl Run<'_> {
    /// Checks `candidate` against the agent's answer schema, if it has one.
    pub(crate) fn check_answer(&mut self, candidate: &str) -> AnswerCheck {
        let Some(schema) = self.agent.answer_schema.clone() else {
            return AnswerCheck::Accepted;
        };
        let mismatch = match schema.check(candidate) {
            Ok(value) => {
                self.structured_output = Some(value);
                return AnswerCheck::Accepted;
            }
            Err(mismatch) => mismatch,
        };
        if self.schema_retries >= MAX_SCHEMA_RETRIES {
            let error = format!(
                "structured output: the final answer does not match the JSON schema after {} retries: {mismatch}",
                self.schema_retries
            );
            let ending = Ending::new(RunStatus::Failed, Some(candidate.to_owned()), Some(error));
            return AnswerCheck::Failed(ending);
        }
        self.schema_retries += 1;
        self.push(Message::user(format!(
            "Your final answer does not match the required JSON schema: {mismatch}. Answer \
             again with only a JSON value valid against the schema."
        )));
        AnswerCheck::Retry
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> AnswerSchema {
        AnswerSchema::new(json!({
            "type": "object",
            "properties": {"count": {"type": "integer"}},
            "required": ["count"]
        }))
        .unwrap()
    }

    #[test]
    fn a_valid_answer_is_its_json_value_even_inside_a_code_fence() {
        assert_eq!(
            (
                schema().check(r#"{"count": 3}"#),
                schema().check("```json\n{\"count\": 4}\n```")
            ),
            (Ok(json!({"count": 3})), Ok(json!({"count": 4})))
        );
    }

    #[test]
    fn an_invalid_answer_names_the_path_and_the_problem() {
        assert_eq!(
            schema()
                .check(r#"{"count": "three"}"#)
                .unwrap_err()
                .to_string(),
            "at /count: \"three\" is not of type \"integer\""
        );
    }

    #[test]
    fn prose_is_not_json() {
        assert!(matches!(
            schema().check("There are three."),
            Err(AnswerMismatch::NotJson(_))
        ));
    }

    #[test]
    fn a_schema_that_is_not_a_schema_is_refused() {
        assert!(AnswerSchema::new(json!({"type": 12})).is_err());
    }
}
