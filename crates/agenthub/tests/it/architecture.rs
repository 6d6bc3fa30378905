//! The workspace's shape, checked as rust-analyzer's tidy tests check theirs:
//! the architecture invariants of ARCHITECTURE.md that the compiler cannot
//! hold (which crate may depend on which, who prints, where unsafe code may
//! live, one test binary per crate) read from the manifests and sources.
//! They live with the facade because the facade is where the crates meet.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use toml_edit::DocumentMut;

/// The crates that may build on the facade: the front doors.
const FRONT_DOORS: [&str; 3] = ["agenthub-cli", "agenthub-fleet", "agenthub-serve"];

/// All that `agenthub-protocol` may depend on: plain data with serde.
const PROTOCOL_DEPENDENCIES: [&str; 3] = ["serde", "serde_json", "thiserror"];

/// One workspace crate: its folder and manifest.
struct Crate {
    folder: PathBuf,
    manifest: DocumentMut,
}

impl Crate {
    fn name(&self) -> String {
        self.manifest["package"]["name"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    /// The names under `[dependencies]` (not dev- or build-dependencies).
    fn dependencies(&self) -> Vec<String> {
        self.manifest
            .get("dependencies")
            .and_then(|table| table.as_table())
            .map(|table| table.iter().map(|(name, _)| name.to_owned()).collect())
            .unwrap_or_default()
    }

    /// Every `.rs` file under `src/`, with its text.
    fn sources(&self) -> Vec<(PathBuf, String)> {
        let mut files = Vec::new();
        collect_rust_files(&self.folder.join("src"), &mut files);
        files
            .into_iter()
            .map(|path| {
                let text = fs::read_to_string(&path).unwrap();
                (path, text)
            })
            .collect()
    }

    fn is_library(&self) -> bool {
        self.folder.join("src/lib.rs").is_file()
    }
}

fn collect_rust_files(folder: &Path, into: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(folder) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect_rust_files(&path, into);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            into.push(path);
        }
    }
}

fn workspace_crates() -> BTreeMap<String, Crate> {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = BTreeMap::new();
    for entry in fs::read_dir(&crates).unwrap() {
        let folder = entry.unwrap().path();
        let Ok(text) = fs::read_to_string(folder.join("Cargo.toml")) else {
            continue;
        };
        let one = Crate {
            folder,
            manifest: text.parse().unwrap(),
        };
        found.insert(one.name(), one);
    }
    assert!(found.len() >= 12, "found only {:?}", found.keys());
    found
}

/// `(crate, what it must not have)` for every breach of `rule`.
fn breaches(rule: impl Fn(&Crate) -> Vec<String>) -> Vec<(String, String)> {
    workspace_crates()
        .values()
        .flat_map(|one| {
            rule(one)
                .into_iter()
                .map(|breach| (one.name(), breach))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn only_the_front_doors_build_on_the_facade_and_nothing_on_the_binary() {
    let found = breaches(|one| {
        one.dependencies()
            .into_iter()
            .filter(|dependency| {
                dependency == "agenthub-cli"
                    || (dependency == "agenthub" && !FRONT_DOORS.contains(&one.name().as_str()))
            })
            .collect()
    });
    assert_eq!(found, Vec::<(String, String)>::new());
}

#[test]
fn the_protocol_crate_is_plain_data_and_does_no_io() {
    let crates = workspace_crates();
    let protocol = &crates["agenthub-protocol"];
    let mut found: Vec<String> = protocol
        .dependencies()
        .into_iter()
        .filter(|dependency| !PROTOCOL_DEPENDENCIES.contains(&dependency.as_str()))
        .collect();
    for (path, text) in protocol.sources() {
        for io in [
            "std::fs",
            "std::net",
            "std::process",
            "tokio",
            "std::io::stdout",
        ] {
            if text.contains(io) {
                found.push(format!("{} uses {io}", path.display()));
            }
        }
    }
    assert_eq!(found, Vec::<String>::new());
}

#[test]
fn only_the_binary_reads_command_lines() {
    let found = breaches(|one| match one.name().as_str() {
        "agenthub-cli" => vec![],
        _ => one
            .dependencies()
            .into_iter()
            .filter(|dependency| dependency == "clap")
            .collect(),
    });
    assert_eq!(found, Vec::<(String, String)>::new());
}

#[test]
fn library_crates_never_print() {
    let found = breaches(|one| {
        if !one.is_library() || one.name() == "agenthub-cli" {
            return vec![];
        }
        one.sources()
            .into_iter()
            // a crate's own helper binaries (the MCP test server) may print
            .filter(|(path, _)| !path.components().any(|part| part.as_os_str() == "bin"))
            .filter(|(_, text)| {
                ["println!(", "print!(", "eprintln!(", "eprint!(", "dbg!("]
                    .iter()
                    .any(|call| text.contains(call))
            })
            .map(|(path, _)| path.display().to_string())
            .collect()
    });
    assert_eq!(found, Vec::<(String, String)>::new());
}

#[test]
fn a_crate_without_unsafe_code_forbids_it() {
    let found = breaches(|one| {
        let sources = one.sources();
        let has_unsafe = sources.iter().any(|(_, text)| {
            ["unsafe {", "unsafe fn", "unsafe impl"]
                .iter()
                .any(|word| text.contains(word))
        });
        let root = one.folder.join(if one.is_library() {
            "src/lib.rs"
        } else {
            "src/main.rs"
        });
        let forbids = fs::read_to_string(root)
            .unwrap()
            .contains("#![forbid(unsafe_code)]");
        match has_unsafe || forbids {
            true => vec![],
            false => vec!["no unsafe code, yet no #![forbid(unsafe_code)]".to_owned()],
        }
    });
    assert_eq!(found, Vec::<(String, String)>::new());
}

#[test]
fn every_crate_takes_the_workspace_lints() {
    let found = breaches(|one| {
        let takes = one
            .manifest
            .get("lints")
            .and_then(|lints| lints.get("workspace"))
            .and_then(|workspace| workspace.as_bool())
            == Some(true);
        match takes {
            true => vec![],
            false => vec!["no `[lints] workspace = true`".to_owned()],
        }
    });
    assert_eq!(found, Vec::<(String, String)>::new());
}

#[test]
fn every_crate_links_at_most_one_integration_test_binary() {
    let found = breaches(|one| {
        let Ok(entries) = fs::read_dir(one.folder.join("tests")) else {
            return vec![];
        };
        let binaries: Vec<String> = entries
            .map(|entry| entry.unwrap().path())
            .filter(|path| {
                path.extension().is_some_and(|ext| ext == "rs") || path.join("main.rs").is_file()
            })
            .map(|path| path.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        match binaries.len() {
            0 | 1 => vec![],
            _ => vec![format!("test binaries {binaries:?}")],
        }
    });
    assert_eq!(found, Vec::<(String, String)>::new());
}

/// The crate folders in the order ARCHITECTURE.md's code map lists them
/// (`### \`crates/x\`` headings, several on one line read left to right).
fn code_map_order() -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ARCHITECTURE.md");
    let text = fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|line| line.starts_with("### `crates/"))
        .flat_map(|line| {
            line.split("`crates/")
                .skip(1)
                .map(|rest| rest.split('`').next().unwrap().to_owned())
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn each_crate_depends_only_on_crates_before_it_in_the_code_map() {
    let order = code_map_order();
    let crates = workspace_crates();
    let folder_of = |package: &str| -> Option<String> {
        crates.get(package).map(|one| {
            one.folder
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
    };
    let mut listed: Vec<String> = crates.keys().filter_map(|name| folder_of(name)).collect();
    listed.sort();
    let mut mapped = order.clone();
    mapped.sort();
    assert_eq!(mapped, listed, "every crate appears once in the code map");
    let found = breaches(|one| {
        let own = folder_of(&one.name()).unwrap();
        let place = order.iter().position(|folder| *folder == own).unwrap();
        one.dependencies()
            .iter()
            .filter_map(|dependency| folder_of(dependency))
            .filter(|folder| order.iter().position(|f| f == folder).unwrap() >= place)
            .collect()
    });
    assert_eq!(found, Vec::<(String, String)>::new());
}
