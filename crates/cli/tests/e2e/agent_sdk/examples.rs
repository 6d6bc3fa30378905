//! examples/agent-sdk runs as its README says: `query.mjs` (TypeScript SDK)
//! and `query.py` (Python SDK), each in an empty workspace with `$AGENTHUB`
//! naming this package's binary, print exactly the README's "Both print"
//! block.

use super::{finish, root, Sdk, SdkCase, DEADLINE};
use std::path::Path;

/// The README's block after "Both print:", one line a line.
fn printed_in_readme() -> String {
    let readme = std::fs::read_to_string(root().join("examples/agent-sdk/README.md")).unwrap();
    let (_, after) = readme
        .split_once("Both print:\n\n```text\n")
        .expect("the README shows what the examples print");
    let (block, _) = after.split_once("```").unwrap();
    block.to_owned()
}

/// Runs `program` with `sdk` in `case`'s workspace; its stdout.
fn run(case: &SdkCase, sdk: Sdk, program: &Path) -> String {
    let mut command = sdk.command(program);
    command.env("AGENTHUB", assert_cmd::cargo::cargo_bin("agenthub"));
    let (code, stdout, stderr) = finish(case.in_home(command), DEADLINE);
    assert_eq!(
        code,
        Some(0),
        "{} failed; stderr:\n{stderr}",
        program.display()
    );
    stdout
}

#[test]
fn the_typescript_example_prints_what_its_readme_shows() {
    let case = SdkCase::new();
    // A copy beside the SDK tests/ts installs: Node finds packages only in
    // the node_modules folders above the program's own file.
    let copy = case.home.base.join("example");
    std::fs::create_dir(&copy).unwrap();
    for file in ["query.mjs", "script.json"] {
        std::fs::copy(
            root().join("examples/agent-sdk").join(file),
            copy.join(file),
        )
        .unwrap();
    }
    std::os::unix::fs::symlink(
        root().join("tests/ts/node_modules"),
        copy.join("node_modules"),
    )
    .unwrap();
    assert_eq!(
        run(&case, Sdk::TypeScript, &copy.join("query.mjs")),
        printed_in_readme()
    );
}

#[test]
fn the_python_example_prints_what_its_readme_shows() {
    let case = SdkCase::new();
    assert_eq!(
        run(&case, Sdk::Python, Path::new("examples/agent-sdk/query.py")),
        printed_in_readme()
    );
}
