//! A TOML file as JSON, for Codex's `config.toml`, whose `[hooks]` tables
//! have `hooks.json`'s structure (contract §21). Only reading: values keep their
//! types (strings, integers, floats, booleans, arrays, tables); a date is its
//! text. Nothing here knows what the keys mean.

use crate::SettingsError;
use serde_json::{Map, Value};
use std::path::Path;
use toml_edit::{DocumentMut, Item, Table};

/// `text`, the content of `path`, as a JSON object.
pub(crate) fn parse(path: &Path, text: &str) -> Result<Value, SettingsError> {
    let document: DocumentMut =
        text.parse()
            .map_err(|error: toml_edit::TomlError| SettingsError::Invalid {
                file: path.to_path_buf(),
                path: "$".to_owned(),
                message: format!("not TOML: {}", error.message()),
            })?;
    Ok(table(document.as_table()))
}

fn table(table: &Table) -> Value {
    Value::Object(
        table
            .iter()
            .map(|(key, item)| (key.to_owned(), self::item(item)))
            .collect(),
    )
}

fn item(item: &Item) -> Value {
    match item {
        Item::None => Value::Null,
        Item::Value(value) => self::value(value),
        Item::Table(inner) => table(inner),
        Item::ArrayOfTables(tables) => Value::Array(tables.iter().map(table).collect()),
    }
}

fn value(value: &toml_edit::Value) -> Value {
    use toml_edit::Value as Toml;
    match value {
        Toml::String(text) => Value::String(text.value().clone()),
        Toml::Integer(number) => Value::from(*number.value()),
        Toml::Float(number) => Value::from(*number.value()),
        Toml::Boolean(flag) => Value::Bool(*flag.value()),
        Toml::Datetime(date) => Value::String(date.value().to_string()),
        Toml::Array(items) => Value::Array(items.iter().map(self::value).collect()),
        Toml::InlineTable(inner) => Value::Object(
            inner
                .iter()
                .map(|(key, value)| (key.to_owned(), self::value(value)))
                .collect::<Map<String, Value>>(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn codexs_documented_inline_hooks_read_as_hooks_json() {
        let text = r#"
[features]
hooks = true

[[hooks.PreToolUse]]
matcher = "^Bash$"

[[hooks.PreToolUse.hooks]]
type = "command"
command = '/usr/bin/python3 "$(git rev-parse --show-toplevel)/.codex/hooks/pre_tool_use_policy.py"'
timeout = 30
"#;
        assert_eq!(
            parse(Path::new("config.toml"), text).unwrap()["hooks"],
            json!({"PreToolUse": [{"matcher": "^Bash$", "hooks": [{"type": "command",
                "command": "/usr/bin/python3 \"$(git rev-parse --show-toplevel)/.codex/hooks/pre_tool_use_policy.py\"",
                "timeout": 30}]}]})
        );
    }

    #[test]
    fn text_that_is_not_toml_is_an_error_naming_the_file() {
        assert!(matches!(
            parse(Path::new("/w/.codex/config.toml"), "[hooks"),
            Err(SettingsError::Invalid { file, .. }) if file == Path::new("/w/.codex/config.toml")
        ));
    }
}
