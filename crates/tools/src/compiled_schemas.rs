//! Compiled input schemas, shared by every tool definition with the same
//! schema in this process. Compiling a JSON Schema (checking it against its
//! meta-schema, then building the validator) cost more than anything else in
//! setting up a session, and each session's tools have the schemas the last
//! one's had: `Task`, `Skill`, an MCP server's tools in every ACP session.
//!
//! It must never hand out a validator for another schema: the key is the
//! schema's whole JSON text. It keeps at most [`MAX_KEPT`] schemas; past
//! that a schema is compiled each time and not kept, so a process that
//! meets ever new schemas does not grow without bound.

use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// How many compiled schemas a process keeps.
pub const MAX_KEPT: usize = 256;

type Kept = HashMap<String, Arc<jsonschema::Validator>>;

/// The validator for `schema`, compiled now or earlier in this process.
pub fn compiled(
    schema: &Value,
) -> Result<Arc<jsonschema::Validator>, jsonschema::ValidationError<'static>> {
    static KEPT: OnceLock<Mutex<Kept>> = OnceLock::new();
    let key = schema.to_string();
    let kept = KEPT.get_or_init(Mutex::default);
    if let Some(validator) = kept
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(&key)
    {
        return Ok(validator.clone());
    }
    let validator = Arc::new(jsonschema::validator_for(schema)?);
    let mut kept = kept.lock().unwrap_or_else(PoisonError::into_inner);
    if kept.len() < MAX_KEPT {
        kept.insert(key, validator.clone());
    }
    Ok(validator)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_same_schema_gets_the_validator_compiled_the_first_time() {
        let schema = json!({"type": "object", "properties": {"kept_once": {"type": "string"}}});
        let first = compiled(&schema).unwrap();
        let second = compiled(&schema.clone()).unwrap();
        assert!(Arc::ptr_eq(&first, &second));
    }

    #[test]
    fn another_schema_gets_its_own_validator() {
        let strings = compiled(&json!({"type": "string", "title": "own-a"})).unwrap();
        let numbers = compiled(&json!({"type": "number", "title": "own-b"})).unwrap();
        assert_eq!(
            (strings.is_valid(&json!("x")), numbers.is_valid(&json!("x"))),
            (true, false)
        );
    }

    #[test]
    fn a_schema_that_does_not_compile_is_an_error_and_not_kept() {
        let broken = json!({"type": "no such type"});
        assert!(compiled(&broken).is_err());
        assert!(compiled(&broken).is_err());
    }
}
