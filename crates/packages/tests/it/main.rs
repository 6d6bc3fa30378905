//! The behaviour of `agenthub-packages` through its public API, each case in
//! a temporary HOME: plugins installed, pinned, joined and removed,
//! marketplaces in a folder or a git repository, and the trust-gated folders
//! skills, custom commands and subagent definitions are read from.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod folders;
mod grants;
mod plugins;
mod sessions;
mod support;
