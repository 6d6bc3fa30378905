//! The settings crate's tests: real settings files in temporary folders, read
//! as every layer, trusted or not. One test binary, a module per topic.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test
mod support;

mod invalid_files;
mod mcp_servers;
mod parity;
mod settings_files;
mod untrusted_project;
