//! What one checkpoint costs (contract §24: < 50 ms for a 10,000-file tree
//! with one changed file): builds a workspace of 100 folders × 100 files,
//! takes the first checkpoint, then ROUNDS checkpoints with no file changed
//! and ROUNDS with one file changed before each, and prints the median and
//! the spread of each, and the git processes' CPU time per checkpoint, as one
//! JSON line. `scripts/bench-checkpoints.py` runs it.
//!
//! Usage: cargo run --release -p agenthub --example checkpoint_cost [ROUNDS]

use agenthub::checkpoints::ShadowStore;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rounds: usize = std::env::args()
        .nth(1)
        .map(|text| text.parse())
        .transpose()?
        .unwrap_or(21);
    let root = tempfile::tempdir()?;
    let workspace = root.path().canonicalize()?.join("ws");
    for folder in 0..100 {
        let dir = workspace.join(format!("src{folder}"));
        std::fs::create_dir_all(&dir)?;
        for file in 0..100 {
            let text = format!("folder {folder} file {file}\n").repeat(20);
            std::fs::write(dir.join(format!("f{file}.rs")), text)?;
        }
    }
    let store = ShadowStore::open(&root.path().join("checkpoints"), &workspace)?;
    let started = Instant::now();
    store.snapshot("first")?;
    let first_ms = started.elapsed().as_secs_f64() * 1000.0;
    let mut unchanged = Vec::new();
    let cpu = children_cpu_ms();
    for _ in 0..rounds {
        let started = Instant::now();
        let snapshot = store.snapshot("unchanged")?;
        unchanged.push(started.elapsed().as_secs_f64() * 1000.0);
        assert!(!snapshot.created, "nothing changed, yet a commit was made");
    }
    let unchanged_cpu = (children_cpu_ms() - cpu) / rounds as f64;
    let mut one_changed = Vec::new();
    let cpu = children_cpu_ms();
    for round in 0..rounds {
        std::fs::write(workspace.join("src7/f7.rs"), format!("edit {round}\n"))?;
        let started = Instant::now();
        let snapshot = store.snapshot("one changed")?;
        one_changed.push(started.elapsed().as_secs_f64() * 1000.0);
        assert!(snapshot.created, "a file changed, yet no commit was made");
    }
    let one_changed_cpu = (children_cpu_ms() - cpu) / rounds as f64;
    println!(
        "{{\"files\": 10000, \"rounds\": {rounds}, \"first_ms\": {first_ms:.1}, \
         \"unchanged_ms\": {}, \"one_changed_ms\": {}, \
         \"unchanged_cpu_ms\": {unchanged_cpu:.1}, \"one_changed_cpu_ms\": {one_changed_cpu:.1}}}",
        summary(&mut unchanged),
        summary(&mut one_changed)
    );
    Ok(())
}

/// The CPU time the git processes used so far (user + system of waited-for
/// children, from `/proc/self/stat`): a figure the machine's load does not
/// inflate, unlike the wall time.
fn children_cpu_ms() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which may hold spaces): cutime and
    // cstime are the 14th and 15th after it.
    let after = stat.rsplit_once(')').map(|(_, rest)| rest).unwrap_or("");
    let fields: Vec<f64> = after
        .split_whitespace()
        .map(|field| field.parse().unwrap_or(0.0))
        .collect();
    let ticks = fields.get(13).copied().unwrap_or(0.0) + fields.get(14).copied().unwrap_or(0.0);
    ticks * 10.0
}

/// `{"median": …, "min": …, "max": …}` of `times`.
fn summary(times: &mut [f64]) -> String {
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    format!(
        "{{\"median\": {median:.1}, \"min\": {:.1}, \"max\": {:.1}}}",
        times[0],
        times[times.len() - 1]
    )
}
