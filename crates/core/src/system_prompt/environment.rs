//! The facts about where the agent runs that the model is told: the workspace,
//! the platform, today's date and the git repository around the workspace.
//!
//! Found without running anything: the repository is a `.git` entry in the
//! workspace or an ancestor (no git process), the date is computed from the
//! system clock (UTC, no time-zone database).

use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

/// A calendar date (proleptic Gregorian, UTC).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Date {
    /// The year, e.g. 2025.
    pub year: i64,
    /// The month, 1 to 12.
    pub month: u32,
    /// The day of the month, 1 to 31.
    pub day: u32,
}

impl Date {
    /// Today, in UTC, from the system clock (1970-01-01 if the clock is
    /// before the epoch).
    pub fn today() -> Date {
        let seconds = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|elapsed| elapsed.as_secs())
            .unwrap_or(0);
        Date::from_days_since_epoch(i64::try_from(seconds / 86_400).unwrap_or(0))
    }

    /// The date `days` days after 1970-01-01 (negative: before it), by
    /// Howard Hinnant's `civil_from_days`.
    pub fn from_days_since_epoch(days: i64) -> Date {
        let shifted = days + 719_468;
        let era = shifted.div_euclid(146_097);
        let day_of_era = shifted.rem_euclid(146_097);
        let year_of_era =
            (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
        let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
        let month_index = (5 * day_of_year + 2) / 153;
        let day = day_of_year - (153 * month_index + 2) / 5 + 1;
        let month = if month_index < 10 {
            month_index + 3
        } else {
            month_index - 9
        };
        let year = year_of_era + era * 400 + i64::from(month <= 2);
        Date {
            year,
            // Both are in range by construction (1..=12 and 1..=31).
            month: u32::try_from(month).unwrap_or(1),
            day: u32::try_from(day).unwrap_or(1),
        }
    }
}

impl std::fmt::Display for Date {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            formatter,
            "{:04}-{:02}-{:02}",
            self.year, self.month, self.day
        )
    }
}

/// Where the agent runs, as the model is told it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Environment {
    /// The workspace root: where Bash runs and relative paths start.
    pub workspace: PathBuf,
    /// The operating system and architecture, e.g. `linux x86_64`.
    pub platform: String,
    /// Today's date.
    pub date: Date,
    /// The root of the git repository holding the workspace (the folder with
    /// `.git`), if there is one.
    pub repository: Option<PathBuf>,
}

impl Environment {
    /// Renders the `# Environment` section.
    pub fn render(&self) -> String {
        let repository = match &self.repository {
            Some(root) => format!("yes (root: {})", root.display()),
            None => "no".to_owned(),
        };
        format!(
            "# Environment\n\
             - Workspace: {}\n\
             - Platform: {}\n\
             - Today's date: {}\n\
             - Git repository: {repository}",
            self.workspace.display(),
            self.platform,
            self.date,
        )
    }
}

/// This machine's platform: `std::env::consts::OS` and `ARCH`.
pub fn current_platform() -> String {
    format!("{} {}", std::env::consts::OS, std::env::consts::ARCH)
}

pub use agenthub_settings::links::repository_root;
