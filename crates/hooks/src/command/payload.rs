//! `tool_input` as a command hook's stdin carries it (each event's stdin type
//! is in its module, the common fields in `events::input`). Every path field a tool declares (read or
//! written: Read/Write/Edit `file_path`, Glob/Grep `path`) is absolute in
//! `tool_input`, as Claude Code sends file paths.

use crate::HookCommon;
use agenthub_tools::{PreparedCall, Workspace};
use serde_json::Value;

/// `tool_input` as hooks see it: every declared path field that is present
/// made absolute (an absent one stays absent).
pub fn tool_input(common: &HookCommon, call: &PreparedCall) -> Value {
    let mut input = call.input().clone();
    let mut workspace = Workspace::new(common.workspace.clone());
    if let Some(home) = std::env::var_os("HOME") {
        // `~` means what it means to the tool that will run (see Workspace::with_home).
        workspace = workspace.with_home(std::path::PathBuf::from(home));
    }
    for (field, _) in call.definition().capabilities().path_fields() {
        if let Some(Value::String(path)) = input.get_mut(field.field) {
            *path = workspace.resolve(path).display().to_string();
        }
    }
    input
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenthub_tools::builtin::Glob;
    use agenthub_tools::{
        PathField, Tool, ToolCapabilities, ToolContext, ToolDefinition, ToolEffect, ToolError,
        ToolOutput,
    };
    use serde_json::json;
    use std::sync::Arc;

    /// A tool that reads `from` and writes `to`, declared as such.
    struct Copy;

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    struct CopyInput {
        #[allow(dead_code)]
        from: String,
        #[allow(dead_code)]
        to: String,
    }

    impl Tool for Copy {
        type Input = CopyInput;

        fn name(&self) -> &str {
            "Copy"
        }

        fn description(&self) -> &str {
            "Copies a file."
        }

        fn effect(&self) -> ToolEffect {
            ToolEffect::SideEffects
        }

        fn capabilities(&self) -> ToolCapabilities {
            ToolCapabilities::none()
                .reading(PathField::required("from"))
                .writing(PathField::required("to"))
        }

        async fn call(&self, _: CopyInput, _: ToolContext) -> Result<ToolOutput, ToolError> {
            Ok(ToolOutput::from("copied".to_owned()))
        }
    }

    #[test]
    fn every_declared_path_field_is_absolute_in_tool_input() {
        let definition = Arc::new(ToolDefinition::new(Copy).unwrap());
        let input = json!({"from": "src/a.rs", "to": "/ws/b.rs", "mode": "fast"});
        let call = PreparedCall::from_parts("c1", "Copy", definition, input);
        assert_eq!(
            tool_input(&HookCommon::sample("/ws"), &call),
            json!({"from": "/ws/src/a.rs", "to": "/ws/b.rs", "mode": "fast"})
        );
    }

    #[test]
    fn an_absent_path_field_stays_absent_in_tool_input() {
        let definition = Arc::new(ToolDefinition::new(Glob).unwrap());
        let call = PreparedCall::from_parts("c1", "Glob", definition, json!({"pattern": "*"}));
        assert_eq!(
            tool_input(&HookCommon::sample("/ws"), &call),
            json!({"pattern": "*"})
        );
    }
}
