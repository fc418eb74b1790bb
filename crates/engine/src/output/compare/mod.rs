//! The outputs of a report comparison: the JSON document (`diff --format json`), the CSV (one
//! row per kernel and metric), the Markdown (for pull-request comments) and the HTML page
//! (`diff --format html`); what they list is chosen by `analysis::compare::export`.

pub mod csv;
pub mod html;
pub mod json;
pub mod markdown;

pub use csv::*;
pub use json::*;
pub use markdown::*;
