//! The settings crate's tests: real settings files in temporary folders, read
//! as every layer, trusted or not. One test binary, a module per topic.
mod support;

mod invalid_files;
mod mcp_servers;
mod parity;
mod settings_files;
mod untrusted_project;
