//! The fleet crate's integration tests, one binary: a task's run through
//! the library (`run_task`) and the properties of the worker's task check.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

mod run_task;
mod support;
mod task_settings_property;
