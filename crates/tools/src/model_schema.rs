//! The input schema as a model is offered it: the schema `schemars` derives,
//! without what costs prompt tokens on every request and tells a model
//! nothing (contract §22). Dropped: `format` (`uint`, `uint64`: Rust's integer
//! kinds), `null` as a second type of an optional field (leaving the field
//! out says the same), `"default": false` (a flag left out is off), the input
//! struct's own doc comment at the root, and
//! `additionalProperties: false` (a model writes the fields it is shown; a
//! field it makes up is still rejected, by name, against the full schema).
//!
//! A field marked `#[schemars(extend("x-model-hidden" = true))]` is not shown
//! at all: an optional refinement a model trained on Claude Code's tools still
//! writes (Grep's `-A`), which others do without (`-C` says the same).
//!
//! Only what the model reads is slimmed: calls are still validated against
//! the full schema, compiled before this runs, so a hidden field is still
//! accepted. It must never drop a constraint the model needs to write a valid
//! call (types, `required`, `enum`, bounds), nor hide a required field.

use serde_json::{Map, Value};

/// The extension key that keeps an optional field out of the model's schema.
const HIDDEN: &str = "x-model-hidden";

/// `schema` (an object schema) as the model is offered it.
pub(crate) fn for_model(mut schema: Value) -> Value {
    if let Some(root) = schema.as_object_mut() {
        root.remove("description");
        root.remove("additionalProperties");
        let required: Vec<String> = root
            .get("required")
            .and_then(Value::as_array)
            .map(|names| {
                names
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        if let Some(Value::Object(properties)) = root.get_mut("properties") {
            properties.retain(|name, property| {
                required.contains(name) || property.get(HIDDEN) != Some(&Value::Bool(true))
            });
            for (name, property) in properties.iter_mut() {
                if let Value::Object(property) = property {
                    slim_property(property, required.contains(name));
                }
            }
        }
    }
    schema
}

fn slim_property(property: &mut Map<String, Value>, required: bool) {
    property.remove("format");
    property.remove(HIDDEN);
    if property.get("default") == Some(&Value::Bool(false)) {
        property.remove("default");
    }
    if required {
        return;
    }
    let single = match property.get("type") {
        Some(Value::Array(types)) if types.len() == 2 && types.contains(&Value::from("null")) => {
            types.iter().find(|kind| *kind != "null").cloned()
        }
        _ => None,
    };
    if let Some(kind) = single {
        property.insert("type".to_owned(), kind);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn formats_nullable_optionals_closed_objects_hidden_fields_and_the_root_description_go_and_constraints_stay(
    ) {
        let derived = json!({
            "description": "The Task call's input.",
            "type": "object",
            "additionalProperties": false,
            "required": ["file_path", "mode"],
            "properties": {
                "file_path": {"type": "string", "description": "The file."},
                "mode": {"type": ["string", "null"], "enum": ["a", "b", null]},
                "limit": {"type": ["integer", "null"], "format": "uint", "minimum": 1},
                "-A": {"type": ["integer", "null"], "x-model-hidden": true},
                "all": {"type": "boolean", "default": false}
            }
        });
        assert_eq!(
            for_model(derived),
            json!({
                "type": "object",
                "required": ["file_path", "mode"],
                "properties": {
                    "file_path": {"type": "string", "description": "The file."},
                    "mode": {"type": ["string", "null"], "enum": ["a", "b", null]},
                    "limit": {"type": "integer", "minimum": 1},
                    "all": {"type": "boolean"}
                }
            })
        );
    }
}

#[cfg(test)]
mod hidden_tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_required_field_is_shown_even_when_marked_hidden() {
        let derived = json!({
            "type": "object",
            "required": ["pattern"],
            "properties": {"pattern": {"type": "string", "x-model-hidden": true}}
        });
        assert_eq!(
            for_model(derived),
            json!({
                "type": "object",
                "required": ["pattern"],
                "properties": {"pattern": {"type": "string"}}
            })
        );
    }
}
