//! The replay crate's behaviour through its public API: sessions recorded
//! by a real agent (the scripted model, the built-in tools, a transcript
//! file) and decided again under another configuration.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod decisions;
mod hooks;
mod support;
