//! The analyses on real reports: comparison and pairing, rooflines, occupancy, section bodies
//! and tables, the Source page listing and its baseline comparison, and the page view-models.
//! One test binary; each module was a test file of its own and keeps its name.

#[path = "../common/mod.rs"]
mod common;

mod compare;
mod compare_pairing;
mod compare_renames;
mod occupancy;
mod roofline;
mod roofline_tensor;
mod sass_arch;
mod sass_limits;
mod section_bodies_compare;
mod section_drawing;
mod section_tables;
mod sections;
mod source_compare;
mod source_page;
mod sweep;
mod trend_chart;
mod view_models;
mod why_lines;
