//! The MCP client's tests against real servers. One test binary, a module per
//! topic.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test
mod support;

mod pipeline;
mod sdk;
mod servers;
mod shared;
