//! `agenthub batch`'s flags; the runs are `batch_command.rs`.

use clap::Args;
use std::path::PathBuf;

/// `agenthub batch`'s flags (contract §18, §19).
#[derive(Debug, Args)]
pub struct BatchArgs {
    /// The task list: JSONL, one task a line.
    #[arg(value_name = "TASKS.jsonl")]
    pub tasks: PathBuf,
    /// Tasks running at once (default: the number of cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub parallel: Option<u16>,
    /// Where to write the result lines (JSONL; default: stdout).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Keep each git workspace's clone after its result is written.
    #[arg(long)]
    pub keep: bool,
    #[command(flatten)]
    pub trust: super::flags::TrustFlag,
    /// Submit the tasks to a Restate fleet at this ingress URL instead of running them here
    /// (the workers' own flags then decide parallelism, clones and trust).
    #[arg(long, value_name = "INGRESS_URL", conflicts_with_all = ["parallel", "keep", "trust_project"])]
    pub restate: Option<String>,
}
