//! The sandbox crate's integration tests, one binary, a module per topic.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

mod joined_sandbox;
mod network_proxy;
