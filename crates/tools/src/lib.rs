//! Tools: the typed [`Tool`] trait, the [`ToolRegistry`] that turns a model's raw
//! tool call into a [`PreparedCall`] (exact-name lookup, JSON parse, JSON Schema
//! validation), and the built-in tools with Claude Code's names and input shapes.
//!
//! This crate never decides whether a call may run: hooks and permission do that
//! in `agenthub-core`'s pipeline. A tool handler only ever sees input that passed
//! its schema.

#![warn(missing_docs)]

pub mod builtin;
mod capabilities;
mod compiled_schemas;
mod context;
mod definition;
mod env_file;
mod fetch_guard;
mod kind;
mod model_schema;
mod output;
mod prepared;
mod preview;
mod process_env;
mod registry;
mod rejection;

pub use capabilities::{DeclaredPath, FieldError, PathAccess, PathField, ToolCapabilities};
pub use context::{
    clean as clean_path, BoundaryError, Parents, ReadGuard, ResolvedPath, ToolContext, Workspace,
};
pub use definition::{DynamicTool, SchemaError, Tool, ToolDefinition, ToolEffect, ToolError};
pub use env_file::EnvFileError;
pub use fetch_guard::{fetch_destination, BadUrl, FetchGuard, FetchJudgement, FetchTarget};
pub use kind::ToolKind;
pub use output::{
    cap_saved_whole, save_whole_and_cap, truncate_output, CappedText, ToolOutput, OUTPUT_CAP_CHARS,
};
pub use prepared::{PreparedCall, RewriteRejection};
pub use preview::FileChange;
pub use process_env::ProcessEnv;
pub use registry::ToolRegistry;
pub use rejection::{InputMismatch, Rejection, SchemaProblem};
