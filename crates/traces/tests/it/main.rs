//! The traces crate's behaviour through its public API: a real session (the
//! scripted model, the built-in tools, the policy engine) observed by a
//! [`SessionTracer`](agenthub_traces::SessionTracer) whose exporter posts to
//! a collector on 127.0.0.1, in both encodings.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod flush;
mod session;
