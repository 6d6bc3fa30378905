//! What a tool declares about its input: which fields are paths it reads,
//! which are paths it writes, which one is a shell command. Permission rules,
//! hook payloads, hook conditions and the approval prompt ask this declaration
//! instead of matching on tool names, so a tool registered by an embedder is
//! governed exactly like a built-in one that declares the same thing.
//!
//! A declaration only names fields; it never reads a file, resolves a path or
//! parses a command — that is for whoever asks.

use serde_json::Value;
use thiserror::Error;

/// Whether a tool reads or writes a declared path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PathAccess {
    /// The tool reads the path: `Read(…)` permission rules cover it.
    Read,
    /// The tool writes the path: `Edit(…)` and `Write(…)` rules cover it,
    /// and acceptEdits mode lets it run without asking.
    Write,
}

/// One input field that holds a path, and the path meant when it is absent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathField {
    /// The name of the input field (`file_path`, `path`).
    pub field: &'static str,
    /// The path the tool uses when the field is absent or null (Glob's `"."`);
    /// `None`: the field is required.
    pub default: Option<&'static str>,
}

impl PathField {
    /// A required path field.
    pub const fn required(field: &'static str) -> Self {
        PathField {
            field,
            default: None,
        }
    }

    /// A path field that means `default` when absent.
    pub const fn with_default(field: &'static str, default: &'static str) -> Self {
        PathField {
            field,
            default: Some(default),
        }
    }

    /// The path this field names in `input`: its string, else its default.
    pub fn value<'a>(&self, input: &'a Value) -> Result<&'a str, FieldError> {
        match input.get(self.field) {
            Some(Value::String(path)) => Ok(path),
            None | Some(Value::Null) => self
                .default
                .ok_or(FieldError::Missing { field: self.field }),
            Some(other) => Err(FieldError::NotAString {
                field: self.field,
                value: other.clone(),
            }),
        }
    }
}

/// Why a declared field of an input could not be read as a string.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FieldError {
    /// Absent (or null) and without a default.
    #[error("has no {field} to check")]
    Missing {
        /// The declared field.
        field: &'static str,
    },
    /// Present, but not a string.
    #[error("field {field} is not a string: {value}")]
    NotAString {
        /// The declared field.
        field: &'static str,
        /// What the input holds there instead.
        value: Value,
    },
}

impl FieldError {
    /// The field that could not be read.
    pub fn field(&self) -> &'static str {
        match self {
            FieldError::Missing { field } | FieldError::NotAString { field, .. } => field,
        }
    }
}

/// One declared path of a call's input: which field, read or written, and the
/// path as the input names it (not resolved).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeclaredPath<'a> {
    /// The input field that holds it.
    pub field: &'static str,
    /// Whether the tool reads or writes it.
    pub access: PathAccess,
    /// The path as written in the input (or the field's default).
    pub path: &'a str,
}

/// What a tool declares about its input fields. The default declares nothing:
/// the tool is governed by rules naming it, and nothing else.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolCapabilities {
    /// Fields holding paths the tool reads.
    pub reads: Vec<PathField>,
    /// Fields holding paths the tool writes.
    pub writes: Vec<PathField>,
    /// The field holding a shell command the tool runs.
    pub shell_command: Option<&'static str>,
    /// The boolean field that, when `true`, runs the tool outside its OS
    /// sandbox (Bash's `dangerouslyDisableSandbox`): such a call always asks.
    pub unsandboxed_flag: Option<&'static str>,
    /// The field naming the subagent type the tool starts (Task's
    /// `subagent_type`): what `Task(name)` permission rules match.
    pub subagent_field: Option<&'static str>,
    /// The field naming the skill the tool loads (Skill's `skill`): what
    /// `Skill(name)` permission rules match.
    pub skill_field: Option<&'static str>,
    /// The field holding a URL the tool fetches (WebFetch's `url`): what
    /// `WebFetch(domain:…)` rules and `sandbox.network`'s domain lists judge.
    pub url_field: Option<&'static str>,
    /// Calls of this tool may run at the same time as adjacent calls of
    /// tools that declare the same (contract §17: the Task calls of one message);
    /// every other call runs alone, in order.
    pub concurrent: bool,
    /// The most characters of this tool's result the model reads, when not
    /// the pipeline's [`crate::OUTPUT_CAP_CHARS`] (an MCP tool's
    /// `MAX_MCP_OUTPUT_TOKENS`); the rest is saved to a file, never dropped.
    pub output_cap: Option<usize>,
    /// The integer field holding the 1-based line a read path is looked at
    /// from (Read's `offset`): where an editor following the call opens it.
    pub line_field: Option<&'static str>,
}

impl ToolCapabilities {
    /// Sets the tool's own output cap, in characters.
    pub fn with_output_cap(mut self, chars: usize) -> Self {
        self.output_cap = Some(chars);
        self
    }

    /// Declares nothing.
    pub fn none() -> Self {
        ToolCapabilities::default()
    }

    /// Adds a field holding a path the tool reads.
    pub fn reading(mut self, field: PathField) -> Self {
        self.reads.push(field);
        self
    }

    /// Adds a field holding a path the tool writes.
    pub fn writing(mut self, field: PathField) -> Self {
        self.writes.push(field);
        self
    }

    /// Declares the field holding the shell command the tool runs.
    pub fn running(mut self, field: &'static str) -> Self {
        self.shell_command = Some(field);
        self
    }

    /// Declares the boolean field that takes the tool out of its sandbox.
    pub fn unsandboxed_when(mut self, field: &'static str) -> Self {
        self.unsandboxed_flag = Some(field);
        self
    }

    /// Declares the field naming the subagent type the tool starts.
    pub fn starting_subagent(mut self, field: &'static str) -> Self {
        self.subagent_field = Some(field);
        self
    }

    /// Declares the field naming the skill the tool loads.
    pub fn loading_skill(mut self, field: &'static str) -> Self {
        self.skill_field = Some(field);
        self
    }

    /// Declares the field holding the line the read path is looked at from.
    pub fn from_line(mut self, field: &'static str) -> Self {
        self.line_field = Some(field);
        self
    }

    /// Declares the field holding the URL the tool fetches.
    pub fn fetching(mut self, field: &'static str) -> Self {
        self.url_field = Some(field);
        self
    }

    /// The URL `input` fetches: `None` if the tool declares no URL field,
    /// an error if the declared field is missing or not a string.
    pub fn url<'a>(&self, input: &'a Value) -> Option<Result<&'a str, FieldError>> {
        let field = self.url_field?;
        Some(PathField::required(field).value(input))
    }

    /// Declares that adjacent calls of such tools may run concurrently.
    pub fn concurrently(mut self) -> Self {
        self.concurrent = true;
        self
    }

    /// The subagent type `input` starts, when the tool declares that field
    /// and `input` holds a string there.
    pub fn subagent<'a>(&self, input: &'a Value) -> Option<&'a str> {
        self.subagent_field
            .and_then(|field| input.get(field))
            .and_then(Value::as_str)
    }

    /// The skill `input` loads, when the tool declares that field and
    /// `input` holds a string there.
    pub fn skill<'a>(&self, input: &'a Value) -> Option<&'a str> {
        self.skill_field
            .and_then(|field| input.get(field))
            .and_then(Value::as_str)
    }

    /// The line `input` looks at its path from, when the tool declares that
    /// field and `input` holds a whole number there that fits a line number.
    pub fn line(&self, input: &Value) -> Option<u32> {
        self.line_field
            .and_then(|field| input.get(field))
            .and_then(Value::as_u64)
            .and_then(|line| u32::try_from(line).ok())
    }

    /// Whether `input` asks to run outside the sandbox (its declared flag is `true`).
    pub fn runs_unsandboxed(&self, input: &Value) -> bool {
        self.unsandboxed_flag
            .is_some_and(|field| input.get(field) == Some(&Value::Bool(true)))
    }

    /// Whether the tool reads any declared path.
    pub fn reads_paths(&self) -> bool {
        !self.reads.is_empty()
    }

    /// Whether the tool writes any declared path.
    pub fn writes_paths(&self) -> bool {
        !self.writes.is_empty()
    }

    /// Every declared path field with its access: reads first, then writes.
    pub fn path_fields(&self) -> impl Iterator<Item = (PathField, PathAccess)> + '_ {
        let reads = self.reads.iter().map(|field| (*field, PathAccess::Read));
        let writes = self.writes.iter().map(|field| (*field, PathAccess::Write));
        reads.chain(writes)
    }

    /// Every declared path of `input` (defaults applied); the first field that
    /// is missing without a default or not a string is an error.
    pub fn paths<'a>(&self, input: &'a Value) -> Result<Vec<DeclaredPath<'a>>, FieldError> {
        self.path_fields()
            .map(|(field, access)| {
                Ok(DeclaredPath {
                    field: field.field,
                    access,
                    path: field.value(input)?,
                })
            })
            .collect()
    }

    /// The paths `input` names in read fields (defaults applied; fields that
    /// are missing or not strings are left out).
    pub fn read_paths<'a>(&self, input: &'a Value) -> Vec<&'a str> {
        found(&self.reads, input)
    }

    /// The paths `input` names in written fields (as [`Self::read_paths`]).
    pub fn written_paths<'a>(&self, input: &'a Value) -> Vec<&'a str> {
        found(&self.writes, input)
    }

    /// The shell command of `input`: `None` if the tool declares none, an
    /// error if the declared field is missing or not a string.
    pub fn command<'a>(&self, input: &'a Value) -> Option<Result<&'a str, FieldError>> {
        let field = self.shell_command?;
        Some(PathField::required(field).value(input))
    }
}

fn found<'a>(fields: &[PathField], input: &'a Value) -> Vec<&'a str> {
    fields
        .iter()
        .filter_map(|field| field.value(input).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn copy() -> ToolCapabilities {
        ToolCapabilities::none()
            .reading(PathField::required("from"))
            .writing(PathField::required("to"))
    }

    #[test]
    fn paths_lists_reads_then_writes_as_the_input_names_them() {
        let input = json!({"to": "b.txt", "from": "a.txt"});
        assert_eq!(
            copy().paths(&input),
            Ok(vec![
                DeclaredPath {
                    field: "from",
                    access: PathAccess::Read,
                    path: "a.txt"
                },
                DeclaredPath {
                    field: "to",
                    access: PathAccess::Write,
                    path: "b.txt"
                },
            ])
        );
    }

    #[test]
    fn an_absent_field_with_a_default_means_the_default() {
        let search = ToolCapabilities::none().reading(PathField::with_default("path", "."));
        assert_eq!(search.read_paths(&json!({"pattern": "*"})), vec!["."]);
    }

    #[test]
    fn the_line_is_read_from_the_declared_field_when_it_is_a_line_number() {
        let read = ToolCapabilities::none()
            .reading(PathField::required("file_path"))
            .from_line("offset");
        assert_eq!(
            (
                read.line(&json!({"file_path": "a", "offset": 40})),
                read.line(&json!({"file_path": "a"})),
                read.line(&json!({"file_path": "a", "offset": -1})),
                read.line(&json!({"file_path": "a", "offset": 5_000_000_000_u64})),
                copy().line(&json!({"offset": 40})),
            ),
            (Some(40), None, None, None, None)
        );
    }

    #[test]
    fn a_path_field_that_is_not_a_string_is_an_error() {
        assert_eq!(
            copy().paths(&json!({"from": 3, "to": "b"})),
            Err(FieldError::NotAString {
                field: "from",
                value: json!(3)
            })
        );
    }

    #[test]
    fn a_required_path_field_that_is_absent_is_an_error() {
        assert_eq!(
            copy().paths(&json!({"from": "a"})),
            Err(FieldError::Missing { field: "to" })
        );
    }

    #[test]
    fn the_shell_command_is_read_from_the_declared_field() {
        let shell = ToolCapabilities::none().running("script");
        assert_eq!(
            (
                shell.command(&json!({"script": "ls"})),
                shell.command(&json!({})),
                copy().command(&json!({"script": "ls"}))
            ),
            (
                Some(Ok("ls")),
                Some(Err(FieldError::Missing { field: "script" })),
                None
            )
        );
    }
}
