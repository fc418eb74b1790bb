//! The engine's analyses on real reports: comparison and pairing, rooflines, occupancy, section
//! bodies and tables, the Source page (its listing, SASS and baseline comparison), the size
//! sweep and the "why" lines. One test binary; each module is a topic of its own. The
//! view-models built from these are tested in crates/app/tests/views; the commands that print
//! them, through the built binary, in tests/cli of the root package.

mod compare;
mod compare_pairing;
mod compare_renames;
mod occupancy;
mod roofline;
mod roofline_tensor;
mod section_bodies_compare;
mod section_tables;
mod source_compare;
mod source_page;
mod source_sass;
mod sweep;
mod why_lines;
