//! One way to ask for the rooflines of results (`sightline roofline`, the MCP `roofline`
//! tool): the architecture to assume for sources that do not say and the output form, read as
//! the occupancy's request reads them (`occupancy::request`).

use super::RooflineOptions;
use crate::analysis::occupancy::request::{ArchError, ResultsFormat, parse_arch};

/// The rooflines of results asked for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RooflineRequest {
    pub options: RooflineOptions,
    pub format: ResultsFormat,
}

impl RooflineRequest {
    /// A request for the architecture `arch` as the user wrote it (`8.6`), if any.
    pub fn new(arch: Option<&str>, format: ResultsFormat) -> Result<Self, ArchError> {
        Ok(RooflineRequest {
            options: RooflineOptions {
                assumed_cc: parse_arch(arch)?,
            },
            format,
        })
    }
}
