//! agenthub-serve's behaviour, driven over in-memory streams as an editor
//! or another agent would drive it: the JSON-RPC wire (`rpc`) and ACP's
//! methods (`acp`). The front door's own tests — real SDK clients spawning
//! `agenthub acp` and `agenthub mcp serve` — stay in the CLI's e2e.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod acp;
mod acp_editor;
mod acp_sessions;
mod mcp;
mod network;
mod rpc;
mod support;
