//! The registry: tools by exact name, and `prepare`, which turns a model's raw
//! tool call into a [`PreparedCall`] or a rejection the model can learn from.

use crate::definition::SchemaError;
use crate::{DynamicTool, PreparedCall, Rejection, Tool, ToolDefinition};
use agenthub_protocol::{ToolCall, ToolSpec};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, OnceLock};

/// The tools a model may call, by exact name. The registry is the only way a
/// raw tool call becomes a [`PreparedCall`], so every call that runs was found
/// and validated here first.
#[derive(Debug, Default)]
pub struct ToolRegistry {
    by_name: HashMap<String, Arc<ToolDefinition>>,
    order: Vec<Arc<ToolDefinition>>,
    /// Registered, so a call of them is prepared and meets the policy, but
    /// not offered to the model ([`ToolRegistry::withhold`]).
    withheld: HashSet<String>,
}

impl ToolRegistry {
    /// An empty registry, for an embedder who offers only its own tools.
    pub fn new() -> Self {
        ToolRegistry::default()
    }

    /// The built-in tools (contract §5). Their definitions are built once
    /// per process and shared by every registry: the tools hold no state,
    /// and deriving and compiling seven schemas was a fifth of what setting
    /// up a session cost.
    pub fn with_builtins() -> Result<Self, SchemaError> {
        static BUILTINS: OnceLock<Result<Vec<Arc<ToolDefinition>>, SchemaError>> = OnceLock::new();
        let built = BUILTINS.get_or_init(|| {
            let mut registry = ToolRegistry::new();
            crate::builtin::register_all(&mut registry)?;
            Ok(registry.order)
        });
        let mut registry = ToolRegistry::new();
        for definition in built.clone()? {
            registry.insert(definition);
        }
        Ok(registry)
    }

    /// Registers a typed tool; a tool of the same name is replaced.
    pub fn register<T: Tool>(&mut self, tool: T) -> Result<Arc<ToolDefinition>, SchemaError> {
        let definition = Arc::new(ToolDefinition::new(tool)?);
        self.insert(definition.clone());
        Ok(definition)
    }

    /// Registers a tool whose schema is a JSON value (an MCP server's tool);
    /// a tool of the same name is replaced.
    pub fn register_dynamic<T: DynamicTool>(
        &mut self,
        tool: T,
    ) -> Result<Arc<ToolDefinition>, SchemaError> {
        let definition = Arc::new(ToolDefinition::from_dynamic(tool)?);
        self.insert(definition.clone());
        Ok(definition)
    }

    /// Adds an already built definition (one another registry holds), so
    /// that both registries run the very same tool; one of the same name is replaced.
    pub fn insert_definition(&mut self, definition: Arc<ToolDefinition>) {
        self.insert(definition);
    }

    /// The same registry without the tools declared for demos only
    /// ([`Tool::demo_only`]): what a real provider is offered.
    pub fn without_demo_tools(mut self) -> Self {
        self.order.retain(|definition| !definition.is_demo_only());
        self.by_name
            .retain(|_, definition| !definition.is_demo_only());
        self
    }

    /// Keeps the tool `name` registered but leaves it out of
    /// [`ToolRegistry::specs`]: the model is not offered it, and a call of
    /// it anyway is still prepared and meets the permission policy (the deny
    /// rule that made a session withhold it names itself), not "unknown
    /// tool". Returns whether a tool of that name is registered.
    ///
    /// ```
    /// use agenthub_tools::ToolRegistry;
    ///
    /// let mut registry = ToolRegistry::with_builtins()?;
    /// assert!(registry.withhold("Bash"));
    /// let offered: Vec<String> = registry.specs().into_iter().map(|spec| spec.name).collect();
    /// assert_eq!(offered, ["Read", "Write", "Edit", "Glob", "Grep", "TodoWrite", "WebFetch", "Echo"]);
    /// assert!(registry.get("Bash").is_some());
    /// # Ok::<(), agenthub_tools::SchemaError>(())
    /// ```
    pub fn withhold(&mut self, name: &str) -> bool {
        let known = self.by_name.contains_key(name);
        if known {
            self.withheld.insert(name.to_owned());
        }
        known
    }

    /// Whether the tool `name` is registered but not offered
    /// ([`ToolRegistry::withhold`]).
    pub fn is_withheld(&self, name: &str) -> bool {
        self.withheld.contains(name)
    }

    /// Every tool, in registration order, withheld ones included.
    pub fn iter(&self) -> impl Iterator<Item = &Arc<ToolDefinition>> {
        self.order.iter()
    }

    fn insert(&mut self, definition: Arc<ToolDefinition>) {
        let name = definition.name().to_owned();
        self.order.retain(|existing| existing.name() != name);
        self.order.push(definition.clone());
        self.by_name.insert(name, definition);
    }

    /// The tool registered under exactly `name` (no case folding, no aliases).
    pub fn get(&self, name: &str) -> Option<&Arc<ToolDefinition>> {
        self.by_name.get(name)
    }

    /// What the model is told about every tool it is offered (all but the
    /// withheld ones), in registration order.
    pub fn specs(&self) -> Vec<ToolSpec> {
        self.order
            .iter()
            .filter(|definition| !self.withheld.contains(definition.name()))
            .map(|definition| ToolSpec {
                name: definition.name().to_owned(),
                description: definition.description().to_owned(),
                parameters: definition.input_schema().clone(),
            })
            .collect()
    }

    /// Looks the tool up by exact name, parses the arguments as JSON and
    /// validates them against the tool's schema. Empty arguments mean `{}`.
    /// A [`Rejection`] says what was wrong for the model to correct.
    ///
    /// ```
    /// use agenthub_protocol::ToolCall;
    /// use agenthub_tools::{Rejection, SchemaProblem, ToolRegistry};
    /// use serde_json::json;
    ///
    /// let registry = ToolRegistry::with_builtins()?;
    /// let call = registry
    ///     .prepare(&ToolCall::new("call_1", "Echo", r#"{"text": "hi"}"#))
    ///     .expect("the input matches Echo's schema");
    /// assert_eq!((call.name(), call.input()), ("Echo", &json!({"text": "hi"})));
    ///
    /// let refused = registry.prepare(&ToolCall::new("call_2", "Echo", r#"{"text": 5}"#));
    /// assert_eq!(
    ///     refused.unwrap_err(),
    ///     Rejection::SchemaMismatch {
    ///         tool: "Echo".to_owned(),
    ///         problems: vec![SchemaProblem {
    ///             path: "/text".to_owned(),
    ///             expected: r#"5 is not of type "string""#.to_owned(),
    ///         }],
    ///     }
    /// );
    /// # Ok::<(), agenthub_tools::SchemaError>(())
    /// ```
    pub fn prepare(&self, call: &ToolCall) -> Result<PreparedCall, Rejection> {
        let definition = self
            .get(call.name())
            .ok_or_else(|| Rejection::UnknownTool {
                name: call.name().to_owned(),
                available: self.names(),
            })?;
        let input = parse_arguments(&call.function.arguments)?;
        definition
            .validate(&input)
            .map_err(|mismatch| Rejection::mismatch(definition.name(), mismatch))?;
        Ok(PreparedCall::new(
            call.id.clone(),
            definition.clone(),
            input,
        ))
    }

    fn names(&self) -> Vec<String> {
        self.order
            .iter()
            .map(|definition| definition.name().to_owned())
            .collect()
    }
}

fn parse_arguments(arguments: &str) -> Result<Value, Rejection> {
    let text = if arguments.trim().is_empty() {
        "{}"
    } else {
        arguments
    };
    serde_json::from_str(text).map_err(|error| Rejection::NotJson {
        error: error.to_string(),
    })
}

#[cfg(test)]
#[path = "registry_tests.rs"]
mod tests;
