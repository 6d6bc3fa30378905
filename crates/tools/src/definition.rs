//! A tool's definition: name, description, input schema (derived with
//! `schemars` from a typed input struct and compiled once), effect,
//! capabilities, handler and preview.

use crate::{
    FileChange, InputMismatch, SchemaProblem, ToolCapabilities, ToolContext, ToolKind, ToolOutput,
    Workspace,
};
use futures::future::BoxFuture;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::fmt;
use std::future::Future;
use std::sync::Arc;
use thiserror::Error;

/// Whether a tool can change anything outside the conversation. The
/// permission policy reads it: a read-only tool runs by default and in plan
/// mode, a tool with side effects asks by default and is refused in plan
/// mode, a tool that delegates runs by default and in plan mode but is never
/// called read-only. The loop guard reads it too: only a read-only call
/// repeated is said to give the same result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolEffect {
    /// The tool only looks (Read, Glob, Grep): running it changes nothing.
    ReadOnly,
    /// The tool may change files, run programs or reach the network (Write,
    /// Edit, Bash); declare this whenever in doubt.
    SideEffects,
    /// The tool changes nothing itself but hands work to a subagent (Task),
    /// whose every call passes the pipeline and is decided on its own. Not
    /// read-only: what it starts may write, and two calls of it may differ.
    Delegates,
}

/// A tool's own failure, reported to the model as `Error [tool_error]: …`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{message}")]
pub struct ToolError {
    /// What went wrong, written for the model: it reads this text after the
    /// `Error [tool_error]:` prefix and may try again differently.
    pub message: String,
    /// The file holding the whole text when `message` is only its start
    /// (output too long to hold, saved whole by the tool, contract §21).
    pub whole: Option<std::path::PathBuf>,
}

impl ToolError {
    /// A failure with the text the model will read.
    pub fn new(message: impl Into<String>) -> Self {
        ToolError {
            message: message.into(),
            whole: None,
        }
    }

    /// The failure whose text is the start of the whole text in `file`.
    pub fn with_whole(mut self, file: std::path::PathBuf) -> Self {
        self.whole = Some(file);
        self
    }
}

/// A typed tool. Its input type is both the JSON Schema offered to the model and
/// the value the handler receives, so the two cannot drift apart. A handler
/// returns its text (`Ok(text.into())`), or a [`ToolOutput`] that also carries
/// a structured value for hooks.
///
/// ```
/// use agenthub_tools::{Tool, ToolContext, ToolEffect, ToolError, ToolOutput, ToolRegistry};
/// use schemars::JsonSchema;
/// use serde::Deserialize;
///
/// /// Shouts its input back.
/// struct Shout;
///
/// #[derive(Deserialize, JsonSchema)]
/// struct ShoutInput {
///     /// The text to shout.
///     text: String,
/// }
///
/// impl Tool for Shout {
///     type Input = ShoutInput;
///     fn name(&self) -> &str {
///         "Shout"
///     }
///     fn description(&self) -> &str {
///         "Returns the text in capitals."
///     }
///     fn effect(&self) -> ToolEffect {
///         ToolEffect::ReadOnly
///     }
///     async fn call(&self, input: ShoutInput, _: ToolContext) -> Result<ToolOutput, ToolError> {
///         Ok(input.text.to_uppercase().into())
///     }
/// }
///
/// let mut registry = ToolRegistry::new();
/// let definition = registry.register(Shout)?;
/// assert_eq!(definition.input_schema()["required"], serde_json::json!(["text"]));
/// # Ok::<(), agenthub_tools::SchemaError>(())
/// ```
pub trait Tool: Send + Sync + 'static {
    /// The input the handler receives; its `JsonSchema` is what the model is
    /// shown, and only input that passed it reaches [`Tool::call`]. Field doc
    /// comments become the schema's descriptions.
    type Input: DeserializeOwned + JsonSchema + Send + 'static;

    /// The exact name the model calls the tool by, and that permission rules
    /// (`Bash(git:*)`) and hook matchers name.
    fn name(&self) -> &str;
    /// What the model is told the tool does and when to use it.
    fn description(&self) -> &str;
    /// Whether the tool only looks or may change something; the permission
    /// policy's defaults and plan mode depend on it.
    fn effect(&self) -> ToolEffect;

    /// Which input fields are paths read or written and which is a shell
    /// command; policy, hooks and previews ask this, never the tool's name.
    /// Default: nothing declared.
    fn capabilities(&self) -> ToolCapabilities {
        ToolCapabilities::none()
    }

    /// What kind of action a call is, as a person watching is shown it (an
    /// editor's icon); it decides nothing. Default: the kind the
    /// capabilities imply ([`ToolKind::implied_by`]).
    fn kind(&self) -> ToolKind {
        ToolKind::implied_by(&self.capabilities())
    }

    /// Whether the tool exists for demos and offline tests only (`Echo`): it
    /// is offered to the scripted model and the demo, never to a real
    /// provider, whose every request would pay for its schema (contract §22).
    /// Default: `false`.
    fn demo_only(&self) -> bool {
        false
    }

    /// The change the call would make to a file, computed with the tool's own
    /// logic (`Some(Err(…))`: the refusal the call would get), or `None` for a
    /// tool that changes no file. Blocking: it may read the file. Default: `None`.
    fn preview(
        &self,
        _input: &Self::Input,
        _workspace: &Workspace,
    ) -> Option<Result<FileChange, ToolError>> {
        None
    }

    /// Runs the tool. It is called only after hooks and permission let the
    /// call through; it must stay inside `context.workspace` (open files
    /// through it) and should stop early when `context.cancel` fires.
    fn call(
        &self,
        input: Self::Input,
        context: ToolContext,
    ) -> impl Future<Output = Result<ToolOutput, ToolError>> + Send;
}

trait ErasedHandler: Send + Sync {
    fn call(
        &self,
        input: Value,
        context: ToolContext,
    ) -> BoxFuture<'_, Result<ToolOutput, ToolError>>;
    fn check(&self, input: &Value) -> Result<(), String>;
    fn preview(
        &self,
        input: &Value,
        workspace: &Workspace,
    ) -> Option<Result<FileChange, ToolError>>;
}

struct Typed<T>(T);

impl<T: Tool> ErasedHandler for Typed<T> {
    fn call(
        &self,
        input: Value,
        context: ToolContext,
    ) -> BoxFuture<'_, Result<ToolOutput, ToolError>> {
        Box::pin(async move {
            let typed = deserialize::<T::Input>(&input).map_err(ToolError::new)?;
            self.0.call(typed, context).await
        })
    }

    fn check(&self, input: &Value) -> Result<(), String> {
        deserialize::<T::Input>(input).map(|_| ())
    }

    fn preview(
        &self,
        input: &Value,
        workspace: &Workspace,
    ) -> Option<Result<FileChange, ToolError>> {
        match deserialize::<T::Input>(input) {
            Ok(typed) => self.0.preview(&typed, workspace),
            Err(message) => Some(Err(ToolError::new(message))),
        }
    }
}

fn deserialize<I: DeserializeOwned>(input: &Value) -> Result<I, String> {
    I::deserialize(input).map_err(|error| error.to_string())
}

/// A tool whose input schema is known only at run time (an MCP server's
/// tool): the schema is a JSON value, compiled once at registration, and the
/// handler receives the validated input as JSON. Everything else — the
/// pipeline, hooks, permission — treats it like a typed [`Tool`].
pub trait DynamicTool: Send + Sync + 'static {
    /// The exact name the model calls the tool by.
    fn name(&self) -> &str;
    /// What the model is told the tool does.
    fn description(&self) -> &str;
    /// The JSON Schema of the input, as offered to the model and enforced
    /// before any hook or permission sees a call.
    fn input_schema(&self) -> &Value;
    /// Whether the tool only looks or may change something.
    fn effect(&self) -> ToolEffect;
    /// What the tool declares (default: nothing).
    fn capabilities(&self) -> ToolCapabilities {
        ToolCapabilities::none()
    }
    /// What kind of action a call is (default: what the capabilities imply).
    fn kind(&self) -> ToolKind {
        ToolKind::implied_by(&self.capabilities())
    }
    /// Runs the tool with input that passed the schema.
    fn call(
        &self,
        input: Value,
        context: ToolContext,
    ) -> BoxFuture<'_, Result<ToolOutput, ToolError>>;
}

struct Dynamic<T>(T);

impl<T: DynamicTool> ErasedHandler for Dynamic<T> {
    fn call(
        &self,
        input: Value,
        context: ToolContext,
    ) -> BoxFuture<'_, Result<ToolOutput, ToolError>> {
        self.0.call(input, context)
    }

    fn check(&self, _input: &Value) -> Result<(), String> {
        Ok(())
    }

    fn preview(&self, _: &Value, _: &Workspace) -> Option<Result<FileChange, ToolError>> {
        None
    }
}

/// A registered tool. Shared as `Arc<ToolDefinition>`; its identity (the `Arc`
/// pointer) is what a hook rewrite must keep.
pub struct ToolDefinition {
    name: String,
    description: String,
    schema: Value,
    validator: Arc<jsonschema::Validator>,
    effect: ToolEffect,
    capabilities: ToolCapabilities,
    kind: ToolKind,
    demo_only: bool,
    handler: Box<dyn ErasedHandler>,
}

/// A tool whose input type yields a JSON Schema the validator cannot
/// compile; registering it fails, so a broken schema never reaches a model.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("the input schema of tool {tool} does not compile: {message}")]
pub struct SchemaError {
    /// The tool being registered.
    pub tool: String,
    /// What the schema compiler said.
    pub message: String,
}

impl ToolDefinition {
    /// Builds a definition from a typed tool, compiling its schema once.
    pub fn new<T: Tool>(tool: T) -> Result<ToolDefinition, SchemaError> {
        let mut schema = schemars::schema_for!(T::Input).to_value();
        if let Some(object) = schema.as_object_mut() {
            object.remove("$schema");
            object.remove("title");
        }
        let validator = compile(tool.name(), &schema)?;
        Ok(ToolDefinition {
            name: tool.name().to_owned(),
            description: tool.description().to_owned(),
            schema: crate::model_schema::for_model(schema),
            validator,
            effect: tool.effect(),
            capabilities: tool.capabilities(),
            kind: tool.kind(),
            demo_only: tool.demo_only(),
            handler: Box::new(Typed(tool)),
        })
    }

    /// Builds a definition from a tool whose schema is a JSON value, compiling
    /// it once; a schema that does not compile is refused here.
    pub fn from_dynamic<T: DynamicTool>(tool: T) -> Result<ToolDefinition, SchemaError> {
        let schema = tool.input_schema().clone();
        let validator = compile(tool.name(), &schema)?;
        Ok(ToolDefinition {
            name: tool.name().to_owned(),
            description: tool.description().to_owned(),
            schema,
            validator,
            effect: tool.effect(),
            capabilities: tool.capabilities(),
            kind: tool.kind(),
            demo_only: false,
            handler: Box::new(Dynamic(tool)),
        })
    }

    /// The name the model calls the tool by (see [`Tool::name`]).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What the model is told about the tool (see [`Tool::description`]).
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The JSON Schema of the tool's input, as offered to the model (without
    /// the generator's `$schema` and `title`, and for a typed tool slimmed
    /// of what tells a model nothing: `format`, `null` types of optional
    /// fields, the root description). Calls are validated against the full one.
    pub fn input_schema(&self) -> &Value {
        &self.schema
    }

    /// Whether the tool is for demos only (see [`Tool::demo_only`]).
    pub fn is_demo_only(&self) -> bool {
        self.demo_only
    }

    /// What the tool declared about its effects (see [`Tool::effect`]).
    pub fn effect(&self) -> ToolEffect {
        self.effect
    }

    /// Whether the tool declared itself [`ToolEffect::ReadOnly`]; the
    /// permission policy allows such tools by default.
    pub fn is_read_only(&self) -> bool {
        self.effect == ToolEffect::ReadOnly
    }

    /// What the tool declared about its input fields (see [`Tool::capabilities`]).
    pub fn capabilities(&self) -> &ToolCapabilities {
        &self.capabilities
    }

    /// What kind of action a call is (see [`Tool::kind`]).
    pub fn kind(&self) -> ToolKind {
        self.kind
    }

    /// The change a call with `input` would make (see [`Tool::preview`]); an
    /// input the tool cannot read is the refusal it would get. Blocking.
    pub fn preview(
        &self,
        input: &Value,
        workspace: &Workspace,
    ) -> Option<Result<FileChange, ToolError>> {
        self.handler.preview(input, workspace)
    }

    /// Validates an input against the schema, then against the handler's input
    /// type; the error lists every failing JSON path and what was expected there.
    pub fn validate(&self, input: &Value) -> Result<(), InputMismatch> {
        let problems: Vec<SchemaProblem> = self
            .validator
            .iter_errors(input)
            .map(|error| SchemaProblem {
                path: pointer_or_root(error.instance_path().to_string()),
                expected: error.to_string(),
            })
            .collect();
        if !problems.is_empty() {
            return Err(InputMismatch::Schema(problems));
        }
        self.handler
            .check(input)
            .map_err(InputMismatch::Deserialize)
    }

    /// Runs the handler. Callers must pass input that passed [`Self::validate`].
    pub async fn invoke(
        &self,
        input: Value,
        context: ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        self.handler.call(input, context).await
    }
}

fn compile(tool: &str, schema: &Value) -> Result<Arc<jsonschema::Validator>, SchemaError> {
    crate::compiled_schemas::compiled(schema).map_err(|error| SchemaError {
        tool: tool.to_owned(),
        message: error.to_string(),
    })
}

/// A JSON pointer as a person reads it: `/` for the root.
fn pointer_or_root(path: String) -> String {
    if path.is_empty() {
        "/".to_owned()
    } else {
        path
    }
}

impl fmt::Debug for ToolDefinition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolDefinition")
            .field("name", &self.name)
            .field("effect", &self.effect)
            .finish_non_exhaustive()
    }
}
