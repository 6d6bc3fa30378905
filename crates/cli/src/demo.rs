//! `agenthub demo`: the source articles' hook demo, offline.
pub async fn run(_args: crate::args::DemoArgs) -> Result<u8, crate::error::CliError> {
    Ok(0)
}
