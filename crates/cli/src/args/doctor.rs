//! `agenthub doctor`'s flags; the checks are `doctor_command.rs`, the
//! probe `doctor_probe.rs`.

use super::{ProviderArg, ToolProtocolArg};
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// Default: the current directory.
    #[arg(long, value_name = "DIR")]
    pub workspace: Option<PathBuf>,
    #[command(flatten)]
    pub settings: super::flags::SettingsFlags,
    /// Also send one small request with one tool to the provider and report
    /// how it returns tool calls, max_tokens, usage and speed (exit 1 when
    /// tool calls cannot work with the tool protocol).
    #[arg(long)]
    pub probe: bool,
    /// Model for the real provider, as `run` takes it.
    #[arg(long, value_name = "NAME")]
    pub model: Option<String>,
    /// Provider endpoint, as `run` takes it.
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// Which API the provider speaks, as `run` takes it.
    #[arg(long, value_enum)]
    pub provider: Option<ProviderArg>,
    /// The tool protocol the probe judges (default: settings toolProtocol, else native).
    #[arg(long, value_enum)]
    pub tool_protocol: Option<ToolProtocolArg>,
    /// The max_tokens the probe sends, as `run` takes it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_output_tokens: Option<u32>,
}
