//! `agenthub worker`, `status` and `approve`'s flags; the actions are `fleet_command.rs`.

use clap::{Args, ValueEnum};
use std::net::SocketAddr;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct WorkerArgs {
    /// Where the Restate server reaches this worker; loopback unless you
    /// say otherwise (e.g. 0.0.0.0:9080, with --identity-key).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:9080")]
    pub listen: SocketAddr,
    /// A Restate server's request-identity public key (`publickeyv1_…`):
    /// requests not signed by one of these keys are refused. Repeatable.
    #[arg(long = "identity-key", value_name = "KEY")]
    pub identity_keys: Vec<String>,
    /// Let each task's own `settings` widen this worker's (allow rules, hooks,
    /// a less strict mode, sandbox network or passEnv, env, …); by default they
    /// may only restrict: deny and ask rules, a stricter mode or sandbox, a lower maxTurns.
    #[arg(long)]
    pub allow_task_settings: bool,
    /// The folder every task's `workspace.path` must lie inside, whatever
    /// --allow-task-settings says (created if missing)
    /// [default: $XDG_STATE_HOME/agenthub/fleet/workspaces]
    #[arg(long, value_name = "DIR")]
    pub workspace_root: Option<PathBuf>,
    /// Register this worker's deployment with the Restate admin API once listening.
    #[arg(long, value_name = "ADMIN_URL")]
    pub register: Option<String>,
    /// The URL to register instead of http://ADDR (a load balancer in front of several workers).
    #[arg(long, value_name = "URL", requires = "register")]
    pub advertise: Option<String>,
    /// Trust each task workspace's own configuration (else only the task's `settings` act).
    #[arg(long)]
    pub trust_project: bool,
}

#[derive(Debug, Args)]
pub struct StatusArgs {
    /// The Restate ingress, e.g. http://127.0.0.1:8080.
    #[arg(long, value_name = "INGRESS_URL")]
    pub restate: String,
    /// The task's id.
    pub id: String,
}

#[derive(Debug, Args)]
pub struct ApproveArgs {
    /// The Restate ingress, e.g. http://127.0.0.1:8080.
    #[arg(long, value_name = "INGRESS_URL")]
    pub restate: String,
    /// The task's id.
    pub id: String,
    /// The waiting tool call's id (as `agenthub status` shows it).
    pub call_id: String,
    /// The answer.
    #[arg(value_enum)]
    pub decision: DecisionArg,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DecisionArg {
    Allow,
    Deny,
}
