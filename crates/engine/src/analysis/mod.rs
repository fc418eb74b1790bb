//! Analyses derived from the model: headline figures, speed of light, roofline, occupancy,
//! matching and comparison. No egui here.

pub mod compare;
pub mod headline;
pub mod named_choice;
pub mod occupancy;
pub mod parallel;
pub mod path_names;
pub mod roofline;
pub mod sections;
pub mod series;
pub mod source;
pub mod summary_request;
