//! Tests of `ToolRegistry::prepare`: every rejection names what was wrong, where
//! (the JSON path) and what was expected, so a model can correct its call.

use super::*;
use crate::SchemaProblem;
use serde_json::json;

fn registry() -> ToolRegistry {
    ToolRegistry::with_builtins().unwrap()
}

fn rejection(name: &str, arguments: &str) -> String {
    let call = ToolCall::new("call_1", name, arguments);
    registry().prepare(&call).unwrap_err().result_text()
}

#[test]
fn builtins_are_offered_in_registration_order() {
    let names: Vec<String> = registry()
        .specs()
        .into_iter()
        .map(|spec| spec.name)
        .collect();
    assert_eq!(
        names,
        vec![
            "Read",
            "Write",
            "Edit",
            "Bash",
            "Glob",
            "Grep",
            "TodoWrite",
            "WebFetch",
            "Echo"
        ]
    );
}

#[test]
fn a_withheld_tool_is_not_offered_but_a_call_of_it_is_still_prepared() {
    let mut registry = registry();
    let withheld = (registry.withhold("Bash"), registry.withhold("Nope"));
    let offered: Vec<String> = registry.specs().into_iter().map(|spec| spec.name).collect();
    let call = ToolCall::new("call_1", "Bash", r#"{"command": "ls"}"#);
    assert_eq!(
        (
            withheld,
            offered,
            registry
                .prepare(&call)
                .map(|prepared| prepared.name().to_owned())
                .ok(),
            registry.is_withheld("Bash")
        ),
        (
            (true, false),
            vec![
                "Read".to_owned(),
                "Write".to_owned(),
                "Edit".to_owned(),
                "Glob".to_owned(),
                "Grep".to_owned(),
                "TodoWrite".to_owned(),
                "WebFetch".to_owned(),
                "Echo".to_owned()
            ],
            Some("Bash".to_owned()),
            true
        )
    );
}

#[test]
fn every_registry_of_builtins_shares_one_definition_of_each_tool() {
    let (first, second) = (registry(), registry());
    let shared = first
        .iter()
        .zip(second.iter())
        .all(|(one, other)| Arc::ptr_eq(one, other));
    assert_eq!((first.iter().count(), shared), (9, true));
}

#[test]
fn a_tool_replaced_in_one_registry_of_builtins_stays_in_another() {
    let mut replaced = registry();
    replaced.register(crate::builtin::Echo).unwrap();
    let untouched = registry();
    assert!(!Arc::ptr_eq(
        replaced.get("Echo").unwrap(),
        untouched.get("Echo").unwrap()
    ));
}

#[test]
fn a_valid_call_is_prepared_with_its_id_name_and_parsed_input() {
    let call = ToolCall::new("call_7", "Read", r#"{"file_path": "a.txt", "limit": 5}"#);
    let prepared = registry().prepare(&call).unwrap();
    assert_eq!(
        (prepared.id(), prepared.name(), prepared.input()),
        ("call_7", "Read", &json!({"file_path": "a.txt", "limit": 5}))
    );
}

#[test]
fn unknown_tool_is_rejected_listing_the_available_tools() {
    assert_eq!(
        rejection("Delete", "{}"),
        "Error [unknown_tool]: the tool was not run: no tool is named \"Delete\"; available tools: Read, Write, Edit, Bash, Glob, Grep, TodoWrite, WebFetch, Echo"
    );
}

#[test]
fn tool_names_are_matched_exactly_not_case_insensitively() {
    assert_eq!(
        rejection("read", "{}"),
        "Error [unknown_tool]: the tool was not run: no tool is named \"read\"; available tools: Read, Write, Edit, Bash, Glob, Grep, TodoWrite, WebFetch, Echo"
    );
}

#[test]
fn arguments_that_are_not_json_are_rejected_with_the_parse_error() {
    assert_eq!(
        rejection("Echo", "{\"text\": "),
        "Error [invalid_arguments]: the tool was not run: the arguments are not valid JSON (EOF while parsing a value at line 1 column 9); expected a JSON object"
    );
}

#[test]
fn a_field_of_the_wrong_type_is_rejected_naming_its_path_and_type() {
    assert_eq!(
        rejection("Read", r#"{"file_path": "a.txt", "offset": "ten"}"#),
        "Error [invalid_arguments]: the tool was not run: the arguments of Read do not match its schema: at /offset: \"ten\" is not of types \"null\", \"integer\""
    );
}

#[test]
fn a_missing_required_field_is_rejected_naming_it() {
    assert_eq!(
        rejection("Write", r#"{"file_path": "a.txt"}"#),
        "Error [invalid_arguments]: the tool was not run: the arguments of Write do not match its schema: at /: \"content\" is a required property"
    );
}

#[test]
fn an_unknown_field_is_rejected_naming_it() {
    assert_eq!(
        rejection("Edit", r#"{"file_path": "a", "old_string": "x", "new_string": "y", "all": true}"#),
        "Error [invalid_arguments]: the tool was not run: the arguments of Edit do not match its schema: at /: Additional properties are not allowed ('all' was unexpected)"
    );
}

#[test]
fn a_value_out_of_range_is_rejected_naming_the_limit() {
    assert_eq!(
        rejection("Read", r#"{"file_path": "a.txt", "offset": 0}"#),
        "Error [invalid_arguments]: the tool was not run: the arguments of Read do not match its schema: at /offset: 0 is less than the minimum of 1"
    );
}

#[test]
fn a_value_outside_an_enum_is_rejected_listing_the_choices() {
    assert_eq!(
        rejection("Grep", r#"{"pattern": "x", "output_mode": "lines"}"#),
        "Error [invalid_arguments]: the tool was not run: the arguments of Grep do not match its schema: at /output_mode: \"lines\" is not one of \"content\", \"files_with_matches\" or \"count\""
    );
}

#[test]
fn arguments_that_are_not_an_object_are_rejected_at_the_root() {
    assert_eq!(
        rejection("Echo", "[1]"),
        "Error [invalid_arguments]: the tool was not run: the arguments of Echo do not match its schema: at /: [1] is not of type \"object\""
    );
}

#[test]
fn every_problem_of_a_call_is_listed() {
    assert_eq!(
        rejection("Read", r#"{"file_path": 7, "offset": "ten"}"#),
        "Error [invalid_arguments]: the tool was not run: the arguments of Read do not match its schema: at /file_path: 7 is not of type \"string\"; at /offset: \"ten\" is not of types \"null\", \"integer\""
    );
}

#[test]
fn read_only_tools_are_marked_read_only() {
    let registry = registry();
    let read_only: Vec<&str> = [
        "Read",
        "Write",
        "Edit",
        "Bash",
        "Glob",
        "Grep",
        "TodoWrite",
        "WebFetch",
        "Echo",
    ]
    .into_iter()
    .filter(|name| registry.get(name).unwrap().is_read_only())
    .collect();
    assert_eq!(read_only, vec!["Read", "Glob", "Grep", "TodoWrite", "Echo"]);
}

fn rejected(name: &str, arguments: &str) -> Rejection {
    let call = ToolCall::new("call_1", name, arguments);
    registry().prepare(&call).unwrap_err()
}

fn builtin_names() -> Vec<String> {
    [
        "Read",
        "Write",
        "Edit",
        "Bash",
        "Glob",
        "Grep",
        "TodoWrite",
        "WebFetch",
        "Echo",
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn an_unknown_tool_is_rejected_as_data_naming_the_tool_and_the_available_ones() {
    let rejection = rejected("Delete", "{}");
    assert_eq!(
        (rejection.code(), rejection),
        (
            agenthub_protocol::ErrorCode::UnknownTool,
            Rejection::UnknownTool {
                name: "Delete".to_owned(),
                available: builtin_names(),
            }
        )
    );
}

#[test]
fn arguments_that_are_not_json_are_rejected_as_data_with_what_serde_said() {
    let rejection = rejected("Echo", "{\"text\": ");
    assert_eq!(
        (rejection.code(), rejection),
        (
            agenthub_protocol::ErrorCode::InvalidArguments,
            Rejection::NotJson {
                error: "EOF while parsing a value at line 1 column 9".to_owned(),
            }
        )
    );
}

#[test]
fn a_schema_mismatch_is_rejected_as_data_with_each_path_and_what_was_expected() {
    let rejection = rejected("Read", r#"{"file_path": 7, "offset": "ten"}"#);
    assert_eq!(
        (rejection.code(), rejection),
        (
            agenthub_protocol::ErrorCode::InvalidArguments,
            Rejection::SchemaMismatch {
                tool: "Read".to_owned(),
                problems: vec![
                    SchemaProblem {
                        path: "/file_path".to_owned(),
                        expected: "7 is not of type \"string\"".to_owned(),
                    },
                    SchemaProblem {
                        path: "/offset".to_owned(),
                        expected: "\"ten\" is not of types \"null\", \"integer\"".to_owned(),
                    },
                ],
            }
        )
    );
}

#[test]
fn a_problem_at_the_root_is_at_slash() {
    assert_eq!(
        rejected("Echo", "[1]"),
        Rejection::SchemaMismatch {
            tool: "Echo".to_owned(),
            problems: vec![SchemaProblem {
                path: "/".to_owned(),
                expected: "[1] is not of type \"object\"".to_owned(),
            }],
        }
    );
}

#[test]
fn an_input_type_rejection_reads_as_a_schema_mismatch_without_a_path() {
    let rejection = Rejection::InputType {
        tool: "Probe".to_owned(),
        error: "invalid value: integer `-1`".to_owned(),
    };
    assert_eq!(
        (rejection.code(), rejection.to_string()),
        (
            agenthub_protocol::ErrorCode::InvalidArguments,
            "the tool was not run: the arguments of Probe do not match its schema: invalid value: integer `-1`".to_owned()
        )
    );
}

/// A tool with a schema known only at run time, as an MCP server reports it.
struct Adder {
    schema: Value,
}

impl crate::DynamicTool for Adder {
    fn name(&self) -> &str {
        "mcp__calc__add"
    }
    fn description(&self) -> &str {
        "Adds a and b."
    }
    fn input_schema(&self) -> &Value {
        &self.schema
    }
    fn effect(&self) -> crate::ToolEffect {
        crate::ToolEffect::SideEffects
    }
    fn call(
        &self,
        input: Value,
        _: crate::ToolContext,
    ) -> futures::future::BoxFuture<'_, Result<crate::ToolOutput, crate::ToolError>> {
        Box::pin(async move { Ok(input.to_string().into()) })
    }
}

fn adder_schema() -> Value {
    json!({"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
           "required": ["a", "b"]})
}

#[test]
fn a_dynamic_tool_is_offered_with_its_schema_as_given() {
    let mut registry = ToolRegistry::new();
    registry
        .register_dynamic(Adder {
            schema: adder_schema(),
        })
        .unwrap();
    assert_eq!(
        registry.specs(),
        vec![ToolSpec {
            name: "mcp__calc__add".to_owned(),
            description: "Adds a and b.".to_owned(),
            parameters: adder_schema(),
        }]
    );
}

#[test]
fn a_dynamic_tool_input_that_fails_its_schema_is_rejected_with_the_path() {
    let mut registry = ToolRegistry::new();
    registry
        .register_dynamic(Adder {
            schema: adder_schema(),
        })
        .unwrap();
    let call = ToolCall::new("call_1", "mcp__calc__add", r#"{"a": "one", "b": 2}"#);
    assert_eq!(
        registry.prepare(&call).unwrap_err(),
        Rejection::SchemaMismatch {
            tool: "mcp__calc__add".to_owned(),
            problems: vec![SchemaProblem {
                path: "/a".to_owned(),
                expected: r#""one" is not of type "number""#.to_owned(),
            }],
        }
    );
}

#[test]
fn a_dynamic_tool_whose_schema_does_not_compile_is_refused_at_registration() {
    let mut registry = ToolRegistry::new();
    let error = registry
        .register_dynamic(Adder {
            schema: json!({"type": "no-such-type"}),
        })
        .unwrap_err();
    assert_eq!(error.tool, "mcp__calc__add");
}

#[test]
fn a_registry_without_demo_tools_has_every_built_in_but_echo() {
    let registry = registry().without_demo_tools();
    let names: Vec<&str> = registry.iter().map(|tool| tool.name()).collect();
    assert_eq!(
        (names, registry.get("Echo").is_none()),
        (
            vec![
                "Read",
                "Write",
                "Edit",
                "Bash",
                "Glob",
                "Grep",
                "TodoWrite",
                "WebFetch"
            ],
            true
        )
    );
}
