//! The `ncu` CLI text parser: details pages in the newer layout (a `Metric Name / Metric Unit /
//! Metric Value` header row) and the older one (fixed widths, long unit names), inside terminal
//! or `script` logs or not, in any locale's number format, `--print-summary per-kernel` (both
//! forms), `--page raw` as text, and the
//! `--print-details all`, `--print-rule-details`, `--print-metric-name label-name` and
//! `--print-metric-instances values` variants.
//!
//! The text is read line by line over borrowed slices; each line is recognised by its shape
//! (see `reader`), never by the file name; indented lines inside a result that fit no shape are
//! skipped and named in the warnings, other lines are noted as text that is not ncu's. Large texts
//! are cut at result boundaries and the parts read in parallel (see `assemble`).

mod assemble;
mod bodies;
mod cell_value;
mod heading;
mod labels;
mod layout;
mod metric_index;
pub mod numbers;
mod reader;
mod rule_text;
mod table;

pub use assemble::{PARALLEL_MIN_BYTES, merge, read_window, starts_result};
pub use reader::RAW_SECTION;
pub use reader::{Part, Wanted};

use super::ParseError;
use crate::model::Report;

/// Parses `ncu` CLI text (already cleaned of CRLF line ends and ANSI codes).
///
/// Sections' header tables become `MetricRow`s; body tables of `--print-details all` are kept
/// in `KernelResult::metrics` only, keyed by metric name or `Section/Table Name/Label`.
/// Texts of a megabyte or more are read in parts on all cores.
pub fn parse(text: &str) -> Result<Report, ParseError> {
    assemble::read(text)
}
