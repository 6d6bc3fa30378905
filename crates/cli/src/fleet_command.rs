//! The fleet's commands (contract §18, §19): `agenthub worker` serves the
//! `Session` object to a Restate server; `agenthub status` and `agenthub
//! approve` talk to its ingress. Everything they do is `agenthub_fleet`'s;
//! this file only turns flags into calls and answers into text.

use crate::args::fleet::{ApproveArgs, DecisionArg, StatusArgs, WorkerArgs};
use crate::error::CliError;
use agenthub_fleet::worker::{self, Decision, WorkerOptions};
use agenthub_fleet::{Ingress, TaskRunOptions, WorkspaceRoot};
use std::net::SocketAddr;

/// Serves until SIGINT, SIGTERM or SIGHUP.
pub async fn worker(args: WorkerArgs) -> Result<u8, CliError> {
    let workspace_root = WorkspaceRoot::open(args.workspace_root.as_deref())
        .map_err(|error| CliError::Usage(error.to_string()))?;
    let options = WorkerOptions {
        listen: args.listen,
        register: args.register.clone(),
        advertise: args.advertise.clone(),
        identity_keys: args.identity_keys.clone(),
        fleet_secret: agenthub_fleet::fleet_secret(),
        run: TaskRunOptions {
            trust_project: args.trust_project,
            keep: false,
            allow_task_settings: args.allow_task_settings,
            workspace_root,
            ..TaskRunOptions::default()
        },
    };
    let listening = |address: SocketAddr| {
        crate::terminal::eprintln_neutral!("agenthub worker: listening on {address}");
    };
    let shutdown = async {
        crate::signals::first_signal().await;
    };
    worker::serve(options, listening, shutdown)
        .await
        .map_err(|error| match error {
            worker::WorkerError::IdentityKey { .. } => CliError::Usage(error.to_string()),
            other => CliError::Unavailable(other.to_string()),
        })?;
    Ok(0)
}

/// Prints the task's session state as one JSON line.
pub async fn status(args: StatusArgs) -> Result<u8, CliError> {
    let status = Ingress::new(&args.restate)?.status(&args.id).await?;
    let line =
        serde_json::to_string(&status).map_err(|error| CliError::Internal(error.to_string()))?;
    crate::output::print_stdout(&format!("{line}\n"));
    Ok(0)
}

/// Answers one waiting ask.
pub async fn approve(args: ApproveArgs) -> Result<u8, CliError> {
    let decision = match args.decision {
        DecisionArg::Allow => Decision::Allow,
        DecisionArg::Deny => Decision::Deny,
    };
    Ingress::new(&args.restate)?
        .approve(&args.id, &args.call_id, decision)
        .await?;
    Ok(0)
}
