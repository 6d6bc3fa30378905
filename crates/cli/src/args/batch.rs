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
    /// MCP servers for every task: a `{"mcpServers": {...}}` file, or that
    /// JSON inline (repeatable; takes every following argument up to the next flag).
    #[arg(long = "mcp-config", value_name = "FILE|JSON", num_args = 1.., conflicts_with = "restate")]
    pub mcp_config: Vec<String>,
    /// Start only the servers of --mcp-config: no user, project or plugin server.
    #[arg(long, conflicts_with = "restate")]
    pub strict_mcp_config: bool,
    /// Submit the tasks to a Restate fleet at this ingress URL instead of running them here
    /// (the workers' own flags then decide parallelism, clones and trust).
    #[arg(long, value_name = "INGRESS_URL", conflicts_with_all = ["parallel", "keep", "trust_project"])]
    pub restate: Option<String>,
}
