//! The model crate's integration tests, one binary: each provider against a
//! loopback mock server serving recorded SSE fixtures, the limits of a
//! stream, and the request bodies as committed insta snapshots.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

mod anthropic_wire;
mod limits_wire;
mod local_servers;
mod openai_wire;
mod request_bodies;
mod retries_wire;
mod support;
