//! One way to ask for the occupancy of results (`sightline occupancy`, the MCP `occupancy`
//! tool): the architecture to assume for sources that do not say and the output form, each
//! read from what the user typed here once for every caller, with one wording. The roofline's
//! request (`roofline::request`) takes the same architecture and forms.

use super::OccupancyOptions;
use super::limits::parse_cc;
use crate::analysis::named_choice::{ChoiceError, NamedChoice};
use std::str::FromStr;

/// The forms of the per-result outputs of `occupancy` and `roofline`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ResultsFormat {
    /// One aligned text row per result.
    #[default]
    Table,
    /// One JSON document of every report and its results.
    Json,
}

impl NamedChoice for ResultsFormat {
    const WHAT: &'static str = "the form of `occupancy` and `roofline`";
    const NAMES: &'static [(&'static str, Self)] = &[("table", Self::Table), ("json", Self::Json)];
}

impl FromStr for ResultsFormat {
    type Err = ChoiceError;
    fn from_str(text: &str) -> Result<Self, ChoiceError> {
        Self::from_name(text)
    }
}

impl ResultsFormat {
    /// The form of `--format`, or JSON where the older `--json` flag is given.
    pub fn or_json(self, json: bool) -> ResultsFormat {
        if json { ResultsFormat::Json } else { self }
    }
}

/// A compute capability that is not `MAJOR.MINOR`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("--arch expects MAJOR.MINOR (such as 8.6), not '{0}'")]
pub struct ArchError(pub String);

/// The compute capability to assume, as the user wrote it (`8.6`); none where not given.
pub fn parse_arch(arch: Option<&str>) -> Result<Option<(u32, u32)>, ArchError> {
    arch.map(|text| parse_cc(text).ok_or_else(|| ArchError(text.to_string())))
        .transpose()
}

/// The occupancy of results asked for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OccupancyRequest {
    pub options: OccupancyOptions,
    pub format: ResultsFormat,
}

impl OccupancyRequest {
    /// A request for the architecture `arch` as the user wrote it (`8.6`), if any.
    pub fn new(arch: Option<&str>, format: ResultsFormat) -> Result<Self, ArchError> {
        Ok(OccupancyRequest {
            options: OccupancyOptions {
                assumed_cc: parse_arch(arch)?,
                table_only: false,
            },
            format,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn architectures_and_forms_are_read_with_one_wording() {
        let r = OccupancyRequest::new(Some("8.6"), ResultsFormat::Json).unwrap();
        assert_eq!(r.options.assumed_cc, Some((8, 6)));
        assert_eq!(parse_arch(None), Ok(None));
        assert_eq!(
            parse_arch(Some("86")).unwrap_err().to_string(),
            "--arch expects MAJOR.MINOR (such as 8.6), not '86'"
        );
        for &(name, form) in ResultsFormat::NAMES {
            assert_eq!(name.parse(), Ok(form));
        }
        assert_eq!(
            "csv".parse::<ResultsFormat>().unwrap_err().to_string(),
            "the form of `occupancy` and `roofline` is `table` or `json`, not `csv`"
        );
        assert_eq!(ResultsFormat::Table.or_json(true), ResultsFormat::Json);
        assert_eq!(ResultsFormat::Table.or_json(false), ResultsFormat::Table);
    }
}
