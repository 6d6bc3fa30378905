//! The core crate's tests: the loop, its pipeline, sessions and subagents
//! through the public API, with the scripted model. One test binary, a
//! module per topic.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test
mod support;

mod added_events;
mod approved_input;
mod cancellation;
mod carried;
mod command_prompt;
mod compaction;
mod compaction_property;
mod embedding;
mod journal;
mod model_failures;
mod pairing_property;
mod permission_boundary;
mod post_tool_use;
mod pre_tool_use;
mod real_costs;
mod result_flags;
mod rewind;
mod saved_transcripts;
mod single_call;
mod stop_and_prompt;
mod subagent_pairing_property;
mod subagents;
mod transcript_shape;
mod usage_and_denials;
