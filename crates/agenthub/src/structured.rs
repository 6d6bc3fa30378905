//! `--json-schema SCHEMA` (contract §22): the schema a final answer must satisfy,
//! given inline as JSON or as the name of a file holding it. It only reads
//! and compiles the schema; checking answers is the loop's
//! (`agenthub_core::AnswerSchema`).

use crate::SetupError;
use agenthub_core::AnswerSchema;
use serde_json::Value;
use std::sync::Arc;

/// The most characters of an inline schema quoted in an error.
const MAX_QUOTED: usize = 80;

/// `given` as a compiled schema: inline JSON when it starts with `{` (after
/// blanks), else a file of JSON.
///
/// ```
/// let schema = agenthub::read_answer_schema(r#"{"type": "object", "required": ["count"]}"#)?;
/// assert!(schema.check(r#"{"count": 3}"#).is_ok());
/// assert!(schema.check("three").is_err());
/// # Ok::<(), agenthub::SetupError>(())
/// ```
pub fn read_answer_schema(given: &str) -> Result<Arc<AnswerSchema>, SetupError> {
    let (text, named) = match given.trim_start().starts_with('{') {
        true => (given.to_owned(), quoted(given)),
        false => {
            let text = std::fs::read_to_string(given).map_err(|error| SetupError::JsonSchema {
                given: given.to_owned(),
                problem: format!("is neither inline JSON nor a readable file: {error}"),
            })?;
            (text, given.to_owned())
        }
    };
    let value: Value = serde_json::from_str(&text).map_err(|error| SetupError::JsonSchema {
        given: named.clone(),
        problem: format!("is not JSON: {error}"),
    })?;
    AnswerSchema::new(value)
        .map(Arc::new)
        .map_err(|error| SetupError::JsonSchema {
            given: named,
            problem: error.to_string(),
        })
}

fn quoted(inline: &str) -> String {
    let shown: String = inline.chars().take(MAX_QUOTED).collect();
    match inline.chars().count() > MAX_QUOTED {
        true => format!("'{shown}…'"),
        false => format!("'{shown}'"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_of_json_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("schema.json");
        std::fs::write(&file, r#"{"type": "integer"}"#).unwrap();
        let schema = read_answer_schema(file.to_str().unwrap()).unwrap();
        assert_eq!(schema.check("3"), Ok(serde_json::json!(3)));
    }

    #[test]
    fn a_missing_file_says_it_is_neither_json_nor_a_file() {
        let error = read_answer_schema("/nonexistent/schema.json").unwrap_err();
        assert_eq!(
            error.to_string(),
            "--json-schema /nonexistent/schema.json: is neither inline JSON nor a readable file: No such file or directory (os error 2)"
        );
    }

    #[test]
    fn inline_json_that_is_no_schema_is_refused_with_the_schema_quoted() {
        let error = read_answer_schema(r#"{"type": 12}"#).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with(r#"--json-schema '{"type": 12}': the JSON schema is not valid: "#),
            "{error}"
        );
    }
}
