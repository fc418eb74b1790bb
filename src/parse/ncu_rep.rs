//! Parser placeholder, replaced by the real reader.

use super::ParseError;
use crate::model::Report;

/// Parses a `.ncu-rep` report.
pub fn parse(_bytes: &[u8]) -> Result<Report, ParseError> {
    Err(ParseError::NotAResult("this form is not read yet".into()))
}
