//! Many sessions (contract §18): a task list in JSONL, each task run as an
//! independent AgentHub session in its own workspace (a folder, or a git
//! repository cloned fresh), and its result as one JSON line — the
//! `--output-format json` object of `agenthub run` plus the task's `id`.
//!
//! Each task's session is assembled exactly as `agenthub run` assembles one
//! (the [`agenthub::Assembly`]); this crate never changes the loop, never
//! asks a person (an ask is denied, as in `run` without a terminal) and never
//! prints: the CLI shows progress and writes the lines.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod client;
mod denial;
mod fleet_secret;
mod local;
mod remote;
mod result_line;
mod run_task;
mod task;
pub mod task_settings;
#[cfg(test)]
mod test_git;
pub mod worker;
mod workspace;
mod workspace_root;

pub use client::{ClientError, Ingress};
pub use denial::denial_reason;
pub use fleet_secret::{fleet_secret, sign, verify, FLEET_SECRET_VARIABLE, SIGNATURE_HEADER};
pub use local::{run_batch, BatchError, BatchOptions, BatchProgress, BatchSummary, NoProgress};
pub use remote::{run_remote_batch, RemoteBatchError};
pub use result_line::{NotStarted, TaskOutcome};
pub use run_task::{run_task, run_task_with, SessionParts, TaskRunOptions};
pub use task::{parse_task_list, read_task_list, TaskListError, TaskSpec, TaskWorkspace};
pub use task_settings::{
    check_settings, check_workspace, checked_workspace, TaskRefusal, WorkerSettings,
};
pub use workspace::{prepare_workspace, PreparedWorkspace, WorkspaceError};
pub use workspace_root::{
    default_dir as default_workspace_root, WorkspaceRoot, WorkspaceRootError,
};
