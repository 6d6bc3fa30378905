//! The policy's tests: the attack battery, rule merging, protected writes and
//! metamorphic properties, through the public API. One test binary, a module
//! per topic.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test
mod support;

mod battery_commands;
mod battery_paths;
mod capabilities;
mod how_to_allow;
mod judged_folders;
mod merge;
mod no_grant_answers;
mod properties;
mod protected_writes;
mod read_only_commands;
mod sandbox_escape;
mod web_fetch;
