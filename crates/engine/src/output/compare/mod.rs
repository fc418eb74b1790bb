//! The outputs of a report comparison: the plain text (`diff`), the JSON document (`diff
//! --format json`), the CSV (one row per kernel and metric), the Markdown (for pull-request
//! comments) and the HTML page (`diff --format html`); what they list is chosen by
//! `analysis::compare::export`.

pub mod csv;
pub mod document;
pub mod failures;
pub mod html;
pub mod json;
pub mod markdown;
pub mod pair_json;
pub mod text;

pub use csv::*;
pub use json::*;
pub use markdown::*;
