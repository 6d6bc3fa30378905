//! What both topics share: one isolated HOME for the whole test binary.

use std::path::Path;
use std::sync::OnceLock;

/// HOME and the XDG folders point into one temp dir for the whole binary, so
/// no user configuration is read and transcripts stay there.
pub fn isolated_home() -> &'static Path {
    static HOME: OnceLock<tempfile::TempDir> = OnceLock::new();
    HOME.get_or_init(|| {
        let home = tempfile::tempdir().unwrap();
        std::env::set_var("HOME", home.path());
        std::env::set_var("XDG_CONFIG_HOME", home.path().join("config"));
        std::env::set_var("XDG_STATE_HOME", home.path().join("state"));
        home
    })
    .path()
}
