//! docs/hook-parity.md is the matrix the loader's tables give.

use agenthub_settings::parity_matrix;
use std::path::Path;

#[test]
fn the_published_parity_matrix_is_the_one_the_loader_reads_by() {
    let page = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/hook-parity.md");
    if std::env::var_os("AGENTHUB_WRITE_PARITY").is_some() {
        std::fs::write(&page, parity_matrix()).unwrap();
    }
    assert_eq!(
        std::fs::read_to_string(&page).unwrap_or_default(),
        parity_matrix(),
        "docs/hook-parity.md is out of date: run AGENTHUB_WRITE_PARITY=1 cargo test -p agenthub-settings --test it parity"
    );
}
