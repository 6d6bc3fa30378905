//! `agenthub doctor`'s flags; the checks are `doctor_command.rs`.

use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// Default: the current directory.
    #[arg(long, value_name = "DIR")]
    pub workspace: Option<PathBuf>,
    #[command(flatten)]
    pub settings: super::flags::SettingsFlags,
}
