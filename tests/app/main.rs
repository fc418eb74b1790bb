//! The desktop app driven headless with egui_kittest (image snapshots in `tests/snapshots/`,
//! found relative to the crate root). One test binary, built with the `app` feature only; each
//! module was a test file of its own and keeps its name. The memory test (`app_memory.rs`)
//! stays a binary of its own: it installs a counting global allocator.

#![cfg(feature = "app")]

#[path = "../common/mod.rs"]
mod common;

mod app;
mod app_compare;
mod app_compare_bodies;
mod app_compare_reports;
mod app_files;
mod app_follow;
mod app_keys;
mod app_kinds;
mod app_layout;
mod app_ncu_2026_3;
mod app_reader;
mod app_sections;
mod app_source;
mod app_source_keys;
mod app_trend;
mod app_trend_sweep;
mod app_views;
