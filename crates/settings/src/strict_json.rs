//! JSON for settings files, read strictly: a key that appears twice in one
//! object is an error, not "the last one wins". A later `"deny": []` would
//! otherwise drop every deny rule above it, and a second `"PreToolUse": []`
//! a gate hook, without a word. A leading UTF-8 byte order mark is skipped.
//!
//! This module only parses; it never interprets a key.

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::fmt;

/// Why a text is not acceptable settings JSON.
#[derive(Debug)]
pub(crate) enum StrictError {
    /// Not JSON at all (serde_json's error, with line and column).
    Syntax(serde_json::Error),
    /// A key given twice in one object: its JSON path and where the second one ends.
    DuplicateKey {
        path: String,
        line: usize,
        column: usize,
    },
}

/// Parses `text`, refusing duplicate keys at any depth.
pub(crate) fn parse(text: &str) -> Result<Value, StrictError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let duplicate = RefCell::new(None);
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let seed = Node {
        path: String::new(),
        duplicate: &duplicate,
    };
    let parsed = seed
        .deserialize(&mut deserializer)
        .and_then(|value| deserializer.end().map(|()| value));
    parsed.map_err(|error| match duplicate.into_inner() {
        Some(path) => StrictError::DuplicateKey {
            path,
            line: error.line(),
            column: error.column(),
        },
        None => StrictError::Syntax(error),
    })
}

/// One value at `path`; records the path of a duplicate key in `duplicate`.
struct Node<'a> {
    path: String,
    duplicate: &'a RefCell<Option<String>>,
}

impl Node<'_> {
    fn child(&self, step: &str) -> String {
        if self.path.is_empty() {
            step.to_owned()
        } else if step.starts_with('[') {
            format!("{}{step}", self.path)
        } else {
            format!("{}.{step}", self.path)
        }
    }
}

impl<'de> DeserializeSeed<'de> for Node<'_> {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Node<'_> {
    type Value = Value;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(Node {
            path: self.child(&format!("[{}]", items.len())),
            duplicate: self.duplicate,
        })? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let path = self.child(&key);
            if object.contains_key(&key) {
                *self.duplicate.borrow_mut() = Some(path.clone());
                return Err(de::Error::custom(format!("duplicate key {path}")));
            }
            let value = map.next_value_seed(Node {
                path,
                duplicate: self.duplicate,
            })?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn duplicate_path(text: &str) -> Option<String> {
        match parse(text) {
            Err(StrictError::DuplicateKey { path, .. }) => Some(path),
            _ => None,
        }
    }

    #[test]
    fn a_document_without_duplicates_parses_to_the_same_value_as_serde_json() {
        let text = r#"{"a": [1, -2, 2.5, "x", null, true, {"b": {}}], "c": {"d": []}}"#;
        assert_eq!(
            parse(text).unwrap(),
            serde_json::from_str::<Value>(text).unwrap()
        );
    }

    #[test]
    fn a_duplicate_key_at_the_top_is_named() {
        assert_eq!(
            duplicate_path(r#"{"model": "a", "model": "b"}"#).as_deref(),
            Some("model")
        );
    }

    #[test]
    fn a_duplicate_key_deep_inside_is_named_with_its_json_path() {
        let text = r#"{"permissions": {"deny": ["Bash(rm *)"], "deny": []}}"#;
        assert_eq!(duplicate_path(text).as_deref(), Some("permissions.deny"));
        let text = r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "type": "x"}]}]}}"#;
        assert_eq!(
            duplicate_path(text).as_deref(),
            Some("hooks.PreToolUse[0].hooks[0].type")
        );
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        assert_eq!(parse("\u{feff}{\"a\": 1}").unwrap(), json!({"a": 1}));
    }

    #[test]
    fn trailing_content_is_a_syntax_error() {
        assert!(matches!(parse("{} x"), Err(StrictError::Syntax(_))));
    }
}
